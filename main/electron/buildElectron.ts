// Bundles the Electron shell: main/electron/main.ts → dist/electron/main.mjs (ES module, every
// package and Node builtin left as an import), preload/preload.ts → dist/electron/preload.cjs
// (one CommonJS file, because a sandboxed preload can require nothing but `electron`), and the sample
// server → dist/sampleServer/sampleServer.mjs (self-contained: a separate `node` runs it from outside
// app.asar, where the app's node_modules cannot be reached; see bundledSampleServer.ts).
// The renderer is built separately (`npm run build:renderer`, into dist/renderer/).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { InlineConfig } from 'vite';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const electronOutDir = path.join(root, 'dist', 'electron');
export const sampleServerOutDir = path.join(root, 'dist', 'sampleServer');

/** Our own files (relative or absolute paths) are bundled; every bare specifier stays an import. */
export function isBareSpecifier(id: string): boolean {
  return !id.startsWith('.') && !path.isAbsolute(id) && !id.startsWith('\0');
}

function shared(): InlineConfig {
  // No config file: vite.config.ts describes the renderer, and none of it applies here.
  return { configFile: false, envDir: false, root, publicDir: false, logLevel: 'warn', mode: 'production' };
}

export async function buildElectron(outDir = electronOutDir, sampleOutDir = sampleServerOutDir): Promise<void> {
  await build({
    ...shared(),
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node22',
      minify: false,
      sourcemap: true,
      rolldownOptions: {
        input: { main: path.join(root, 'main/electron/main.ts') },
        external: isBareSpecifier,
        output: { format: 'es', entryFileNames: '[name].mjs' },
      },
    },
  });
  await build({
    ...shared(),
    ssr: { noExternal: true },
    build: {
      ssr: true,
      outDir,
      emptyOutDir: false,
      target: 'es2023',
      minify: false,
      sourcemap: false,
      rolldownOptions: {
        input: { preload: path.join(root, 'preload/preload.ts') },
        external: ['electron'],
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  });
  await build({
    ...shared(),
    ssr: { noExternal: true, target: 'node' },
    build: {
      ssr: true,
      outDir: sampleOutDir,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      sourcemap: false,
      rolldownOptions: {
        input: { sampleServer: path.join(root, 'main/sampleServer/sampleServer.ts') },
        output: { format: 'es', entryFileNames: '[name].mjs' },
      },
    },
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  await buildElectron();
  console.log(
    `Built the Electron shell into ${path.relative(root, electronOutDir)}/ and the sample server into ${path.relative(root, sampleServerOutDir)}/ in ${Math.round(performance.now() - started)} ms.`,
  );
}
