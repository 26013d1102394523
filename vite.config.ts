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
    // Fonts or scripts inlined as data: URLs would be blocked by the CSP; small images are allowed.
    assetsInlineLimit: (file) => (/\.(png|jpe?g|gif|svg|webp)$/i.test(file) ? undefined : false),
  },
});
