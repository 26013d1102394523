// Builds the renderer into dist/renderer, which the browser bridge serves and Electron loads. The
// CSP forbids inline scripts, so nothing may be inlined into index.html (no modulepreload polyfill).
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: './',
  plugins: [react()],
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
