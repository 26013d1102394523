// The renderer's initial JavaScript, as a window downloads it: every script index.html loads, minified
// and gzip'd. Builds first (vite build), so it measures what `npm run web` and Electron would serve.
//   node bench/rendererBundle.ts
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const TARGET_KB = 600;
const root = fileURLToPath(new URL('../', import.meta.url));
execFileSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'error'], { cwd: root, stdio: 'inherit' });

const dist = join(root, 'dist/renderer');
const html = readFileSync(join(dist, 'index.html'), 'utf8');
const scripts = [...html.matchAll(/<script[^>]+src="\.\/([^"]+)"/g)].map((m) => m[1] ?? '');
const assets = readdirSync(join(dist, 'assets'));
let raw = 0;
let gzip = 0;
for (const script of scripts) {
  const bytes = readFileSync(join(dist, script));
  raw += bytes.length;
  gzip += gzipSync(bytes, { level: 9 }).length;
}
const css = assets.filter((a) => a.endsWith('.css')).reduce((sum, a) => sum + gzipSync(readFileSync(join(dist, 'assets', a))).length, 0);
console.log(`initial JS: ${scripts.length} file(s), ${(raw / 1024).toFixed(0)} KB minified, ${(gzip / 1024).toFixed(0)} KB gzip; CSS ${(css / 1024).toFixed(0)} KB gzip`);
console.log(`target: initial JS < ${TARGET_KB} KB gzip (${(gzip / 1024).toFixed(0)} KB) ${gzip / 1024 < TARGET_KB ? 'met' : 'MISSED'}`);
