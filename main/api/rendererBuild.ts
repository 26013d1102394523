// Whether the window's build (dist/renderer) was made from the sources as they are now. The build
// writes a hash of its inputs next to its output (vite.config.ts's stamp plugin); `npm run web`
// rebuilds only when the sources' hash differs from that stamp.
// A content hash rather than mtimes: a git checkout or a copy changes mtimes without changing a byte.

import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { repoRoot } from '../bundle/builtOrSource.mjs';

export { repoRoot };
export const rendererOutDir = join(repoRoot, 'dist', 'renderer');
export const rendererStampName = '.sources.sha256';

// What the bundle is made of: the renderer, the shared code it imports, the build config and the
// locked dependency versions. Tests are left out: changing one does not change the window.
const inputFolders = ['renderer', 'shared'];
const inputFiles = ['vite.config.ts', 'package-lock.json'];
const isTestFile = (name: string) => /\.test\.tsx?$/.test(name);

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true, recursive: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries.filter((entry) => entry.isFile() && !isTestFile(entry.name)).map((entry) => join(entry.parentPath, entry.name));
}

/** The hash of every input of the window's build, as it is on disk now. */
export async function rendererSourceHash(root: string = repoRoot): Promise<string> {
  const files = [...(await Promise.all(inputFolders.map((folder) => filesUnder(join(root, folder))))).flat(), ...inputFiles.map((file) => join(root, file))];
  const hash = createHash('sha256');
  for (const file of files.map((f) => relative(root, f).split(sep).join('/')).sort()) {
    const content = await readFile(join(root, file)).catch(() => Buffer.alloc(0));
    hash.update(`${file}\0${content.length}\0`).update(content);
  }
  return hash.digest('hex');
}

/** Why the build in `outDir` must be made again, or undefined when it matches the sources. */
export async function rendererRebuildReason(outDir: string = rendererOutDir, root: string = repoRoot): Promise<string | undefined> {
  const [stamp, index] = await Promise.all([readFile(join(outDir, rendererStampName), 'utf8').catch(() => null), readFile(join(outDir, 'index.html')).catch(() => null)]);
  if (index === null) return 'it has not been built yet';
  if (stamp === null) return 'the build does not say which sources it was made from';
  if (stamp.trim() !== (await rendererSourceHash(root))) return 'its sources changed since the last build';
  return undefined;
}

/** Runs the renderer's build (`vite build`, which also writes the stamp); rejects with vite's output when it fails. */
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
