// Builds what people run on plain Node — the `atrium` command and the browser-mode host — into
// dist/node/: one ES module per entry and chunks shared between them, with every package bundled in.
// Run from source, a start resolves, reads and type-strips some 600 files (about 0.7 s for `atrium
// servers`); the bundle is a handful of files Node compiles once and then takes from its compile cache.
// Beside them, sources.json names every file the bundle was made from, with its size, time and hash:
// builtOrSource.mjs runs the bundle only while those are unchanged, and the source otherwise, so a
// developer who edits a file never runs a stale bundle.
// A build may happen while an Atrium runs from the last one (another `npm run web`): it is made in a
// folder of its own and moved in file by file, each move atomic, the entries and sources.json last, and
// the chunks of earlier builds stay a day, because a running host imports some of its chunks only when
// first needed (a provider's SDK at the first chat).
//   node main/bundle/buildBundles.ts      (npm run build:node; `npm run web` does it when needed)
import { randomUUID } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { Plugin } from 'vite';
import { bundleEntries, bundleManifestName, bundleOutDir, repoRoot, stampOf } from './builtOrSource.mjs';
import type { BundleManifest } from './builtOrSource.mjs';

/** How long the chunks of an earlier build are kept for the hosts that may still run from it. */
const EARLIER_CHUNKS_KEPT_MS = 24 * 60 * 60 * 1000;

/** Inputs that are not modules of the bundle but decide what it holds: the locked package versions, and this build. */
const alsoInputs = ['package-lock.json', 'main/bundle/buildBundles.ts'];

/** Collects the files of this repository the bundle is made from (packages are covered by package-lock.json). */
function recordInputs(into: Set<string>): Plugin {
  return {
    name: 'atrium-bundle-inputs',
    generateBundle() {
      for (const id of this.getModuleIds()) {
        if (!path.isAbsolute(id) || id.includes(`${path.sep}node_modules${path.sep}`)) continue;
        into.add(path.relative(repoRoot, id).split(path.sep).join('/'));
      }
    },
  };
}

/**
 * Builds the bundle into `outDir`. It must sit two folders below the repository, as main/ and shared/
 * files do: the code finds package.json, the renderer's build and the sample server by `../../` from
 * its own file, which then means the same from the source and from the bundle.
 */
export async function buildBundles(outDir: string = bundleOutDir): Promise<BundleManifest> {
  if (path.resolve(outDir, '..', '..') !== path.resolve(repoRoot)) throw new Error(`the bundle must be built two folders below ${repoRoot}, not in ${outDir}`);
  const building = `${outDir}.building-${randomUUID()}`;
  try {
    const manifest = await buildInto(building);
    moveIn(building, outDir, manifest);
    return manifest;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

async function buildInto(outDir: string): Promise<BundleManifest> {
  const inputs = new Set<string>(alsoInputs);
  await build({
    // No config file: vite.config.ts describes the renderer, and none of it applies here.
    configFile: false,
    envDir: false,
    root: repoRoot,
    publicDir: false,
    logLevel: 'warn',
    mode: 'production',
    plugins: [recordInputs(inputs)],
    ssr: { noExternal: true, target: 'node' },
    build: {
      ssr: true,
      outDir,
      emptyOutDir: true,
      target: 'node22',
      // Minified: about half the text for Node to read and hash at each start. The source maps beside it
      // give a developer the real names (node --enable-source-maps), or ATRIUM_FROM_SOURCE=1 runs the source.
      minify: true,
      sourcemap: true,
      rolldownOptions: {
        input: Object.fromEntries(Object.entries(bundleEntries).map(([name, entry]) => [name, path.join(repoRoot, entry.source)])),
        output: { format: 'es', entryFileNames: '[name].mjs', chunkFileNames: '[name]-[hash].mjs' },
      },
    },
  });
  return { inputs: Object.fromEntries([...inputs].sort().map((file) => [file, stampOf(path.join(repoRoot, file))])) };
}

/** Moves a finished build into `outDir`: chunks first, then the entries, then sources.json, which makes it current. */
function moveIn(building: string, outDir: string, manifest: BundleManifest): void {
  mkdirSync(outDir, { recursive: true });
  const built = readdirSync(building);
  const isEntry = (file: string) => Object.keys(bundleEntries).some((name) => file === `${name}.mjs` || file === `${name}.mjs.map`);
  for (const file of [...built.filter((f) => !isEntry(f)), ...built.filter(isEntry)]) renameSync(path.join(building, file), path.join(outDir, file));
  const manifestPath = path.join(outDir, bundleManifestName);
  writeFileSync(`${manifestPath}.${process.pid}.tmp`, JSON.stringify(manifest, null, 1));
  renameSync(`${manifestPath}.${process.pid}.tmp`, manifestPath);
  pruneEarlierBuilds(outDir, new Set([...built, bundleManifestName]));
}

/**
 * Removes from `outDir` what earlier builds left: their chunks after a day, their source maps at once (not
 * needed to run, and most of a build's size), and a build killed midway beside it after a day.
 */
export function pruneEarlierBuilds(outDir: string, current: ReadonlySet<string>, now: number = Date.now()): void {
  const keptSince = now - EARLIER_CHUNKS_KEPT_MS;
  for (const file of readdirSync(outDir)) {
    if (current.has(file)) continue;
    const stats = statSync(path.join(outDir, file), { throwIfNoEntry: false });
    if (stats?.isFile() && (file.endsWith('.map') || stats.mtimeMs < keptSince)) rmSync(path.join(outDir, file), { force: true });
  }
  const parent = path.dirname(outDir);
  for (const entry of readdirSync(parent)) {
    if (!entry.startsWith(`${path.basename(outDir)}.building-`)) continue;
    const stats = statSync(path.join(parent, entry), { throwIfNoEntry: false });
    if (stats && stats.mtimeMs < keptSince) rmSync(path.join(parent, entry), { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const manifest = await buildBundles();
  console.log(`Built the atrium command and the browser-mode host into ${path.relative(repoRoot, bundleOutDir)}/ from ${Object.keys(manifest.inputs).length} files in ${Math.round(performance.now() - started)} ms.`);
}
