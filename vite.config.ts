// Builds the renderer into dist/renderer, which the browser bridge serves and Electron loads. The
// CSP forbids inline scripts, so nothing may be inlined into index.html (no modulepreload polyfill).
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { rendererManifest, rendererManifestName } from './main/api/rendererBuild.ts';

// Records which sources this build was made from, so `npm run web` rebuilds only when they change. The
// record is taken before bundling: a source edited during the build leaves the build marked out of date.
function sourceStamp(): Plugin {
  let outDir = '';
  let manifest: ReturnType<typeof rendererManifest> | undefined;
  return {
    name: 'atrium-source-stamp',
    apply: 'build',
    configResolved: (config) => {
      outDir = resolve(config.root, config.build.outDir);
    },
    buildStart: () => {
      manifest = rendererManifest();
    },
    closeBundle: async () => {
      if (manifest) await writeFile(join(outDir, rendererManifestName), JSON.stringify(await manifest, null, 1));
    },
  };
}

export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [react(), sourceStamp()],
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    sourcemap: false,
    modulePreload: { polyfill: false },
    // The budget that matters is what a window downloads, gzip'd (< 600 KB; bench/rendererBundle.ts
    // measures it); one bundle of ~600 KB minified (~180 KB gzip) loads from disk in one read.
    chunkSizeWarningLimit: 900,
    // Fonts or scripts inlined as data: URLs would be blocked by the CSP; small images are allowed.
    assetsInlineLimit: (file) => (/\.(png|jpe?g|gif|svg|webp)$/i.test(file) ? undefined : false),
  },
});
