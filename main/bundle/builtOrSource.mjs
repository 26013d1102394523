// Which code a start runs: the bundle in dist/node/ (buildBundles.ts) while it was built from the sources
// as they are now, else the TypeScript source itself. Plain JavaScript, run before anything else is
// loaded, so it costs a start no more than its own few milliseconds: it compares each file the bundle
// was made from (sources.json) by size and time, and reads only a file whose time changed, to tell a
// file touched (a checkout, a copy) from one edited; node:crypto is loaded only then. ATRIUM_FROM_SOURCE=1 runs the source regardless.
import { existsSync, readFileSync, statSync } from 'node:fs';
// The default export, not a named one: on a Node too old for Atrium, a missing named export would fail
// before nodeGate.mjs could say which Node is needed.
import nodeModule from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
export const bundleOutDir = join(repoRoot, 'dist', 'node');
export const bundleManifestName = 'sources.json';

/** What the bundle holds: each entry's name in dist/node/ (NAME.mjs) and the source it is built from. */
export const bundleEntries = {
  atrium: { source: 'main/cli/atrium.ts' },
  serveWeb: { source: 'main/web/serveWeb.ts' },
};

/**
 * Why the bundle in `outDir` does not match the sources in `root`, or undefined when it does.
 * @param {string} [outDir]
 * @param {string} [root]
 * @returns {string | undefined}
 */
export function bundleStaleReason(outDir = bundleOutDir, root = repoRoot) {
  /** @type {import('./builtOrSource.mjs').BundleManifest} */
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(join(outDir, bundleManifestName), 'utf8'));
  } catch {
    return 'it has not been built yet';
  }
  for (const name of Object.keys(bundleEntries)) {
    if (!existsSync(join(outDir, `${name}.mjs`))) return `its ${name}.mjs is missing`;
  }
  return inputsChangedReason(manifest.inputs ?? {}, root);
}

/**
 * The first of a build's inputs (paths from `root`, as its manifest recorded them) that is gone or
 * changed since, in a sentence; undefined when none is. The one check of whether a build is current,
 * for the bundle and the window's build alike. A file whose size and time are as recorded is not read;
 * one whose time alone changed (a checkout, a copy) is read, and counts as changed only if its hash did.
 * @param {Record<string, import('./builtOrSource.mjs').InputStamp>} inputs
 * @param {string} root
 * @returns {string | undefined}
 */
export function inputsChangedReason(inputs, root) {
  for (const [file, stamp] of Object.entries(inputs)) {
    const stats = statSync(join(root, file), { throwIfNoEntry: false });
    if (!stats) return `${file} is gone since the last build`;
    if (stats.size === stamp.size && stats.mtimeMs === stamp.mtimeMs) continue;
    if (stats.size !== stamp.size || sha256Of(join(root, file)) !== stamp.sha256) return `${file} changed since the last build`;
  }
  return undefined;
}

/**
 * What a build records of one of its inputs: its size, time and content hash.
 * @param {string} file
 * @returns {import('./builtOrSource.mjs').InputStamp}
 */
export function stampOf(file) {
  const stats = statSync(file);
  return { size: stats.size, mtimeMs: stats.mtimeMs, sha256: sha256Of(file) };
}

/**
 * node:crypto is loaded only when a file must be read: a start that finds every time as recorded needs none of it.
 * @param {string} file
 */
function sha256Of(file) {
  return /** @type {typeof import('node:crypto')} */ (process.getBuiltinModule('node:crypto')).createHash('sha256').update(readFileSync(file)).digest('hex');
}

/**
 * The module to import for `name`: its bundle while that is current, else its source. Running the
 * bundle turns on Node's compile cache, so later starts skip compiling it.
 * @param {keyof typeof bundleEntries} name
 * @param {NodeJS.ProcessEnv} [env]
 * @returns {string} a file: URL
 */
export function moduleToRun(name, env = process.env) {
  if (env.ATRIUM_FROM_SOURCE !== '1' && bundleStaleReason() === undefined) {
    nodeModule.enableCompileCache();
    return pathToFileURL(join(bundleOutDir, `${name}.mjs`)).href;
  }
  return pathToFileURL(join(repoRoot, bundleEntries[name].source)).href;
}
