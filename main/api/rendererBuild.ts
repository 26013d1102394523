// Whether the window's build (dist/renderer) was made from the sources as they are now. The build
// records its inputs beside its output (vite.config.ts's plugin), in the same form as the host's bundle
// records its own (dist/node/sources.json), and the same check (builtOrSource.mjs) says whether they
// changed: by size and time, reading a file only when its time changed, since a git checkout or a copy
// changes times without changing a byte. `npm run web` rebuilds only when something did.

import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { inputsChangedReason, repoRoot, stampOf } from '../bundle/builtOrSource.mjs';
import type { BundleManifest } from '../bundle/builtOrSource.mjs';

export { repoRoot };
export const rendererOutDir = join(repoRoot, 'dist', 'renderer');
export const rendererManifestName = '.sources.json';

// What the window is made of: the renderer, the shared code it imports, the extensions (their window
// parts and contract sections live in their folders), the build config and the locked dependency versions. Whole folders, not only the modules the build imported, so an asset the build
// takes from the folder counts too, and so does a file added since. Tests are left out: changing one
// does not change the window.
const inputFolders = ['renderer', 'shared', 'main/mcp/extensions'];
const inputFiles = ['vite.config.ts', 'package-lock.json'];
const isTestFile = (name: string) => /\.test\.tsx?$/.test(name);

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries.filter((entry) => entry.isFile() && !isTestFile(entry.name)).map((entry) => join(entry.parentPath, entry.name));
}

/** Every input of the window's build as it is on disk now, by path from `root`. */
async function rendererInputs(root: string): Promise<string[]> {
  const found = (await Promise.all(inputFolders.map((folder) => filesUnder(join(root, folder))))).flat();
  const present = inputFiles.filter((file) => existsSync(join(root, file)));
  return [...found.map((file) => relative(root, file).split(sep).join('/')), ...present].sort();
}

/** What the window's build records of its inputs; taken before bundling, so a source edited meanwhile leaves the build out of date. */
export async function rendererManifest(root: string = repoRoot): Promise<BundleManifest> {
  const inputs: BundleManifest['inputs'] = {};
  for (const file of await rendererInputs(root)) inputs[file] = stampOf(join(root, file));
  return { inputs };
}

/** Why the build in `outDir` must be made again, or undefined when it matches the sources. */
export async function rendererRebuildReason(outDir: string = rendererOutDir, root: string = repoRoot): Promise<string | undefined> {
  const [recorded, index] = await Promise.all([readFile(join(outDir, rendererManifestName), 'utf8').catch(() => null), readFile(join(outDir, 'index.html')).catch(() => null)]);
  if (index === null) return 'it has not been built yet';
  const manifest = parseManifest(recorded);
  if (!manifest) return 'the build does not say which sources it was made from';
  const changed = inputsChangedReason(manifest.inputs, root);
  if (changed) return changed;
  const added = (await rendererInputs(root)).find((file) => !Object.hasOwn(manifest.inputs, file));
  return added === undefined ? undefined : `${added} is new since the last build`;
}

function parseManifest(text: string | null): BundleManifest | undefined {
  if (text === null) return undefined;
  try {
    const value = JSON.parse(text) as Partial<BundleManifest> | null;
    return value && typeof value.inputs === 'object' && value.inputs !== null ? { inputs: value.inputs } : undefined;
  } catch {
    return undefined;
  }
}

/** Runs the renderer's build (`vite build`, which also records its inputs); rejects with vite's output when it fails. */
export async function buildRenderer(outDir: string = rendererOutDir, root: string = repoRoot): Promise<void> {
  const vite = join(root, 'node_modules', 'vite', 'bin', 'vite.js');
  const child = spawn(process.execPath, [vite, 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`building the window failed:\n${output.trim()}`);
}
