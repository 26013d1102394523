// When a start runs the bundle and when the source, and what a build keeps of earlier ones: on a made-up
// repository with a made-up build, so each case (current, touched, edited, removed, half built) is set up exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { bundleEntries, bundleManifestName, bundleOutDir, bundleStaleReason, moduleToRun, repoRoot } from './builtOrSource.mjs';
import type { BundleManifest } from './builtOrSource.mjs';
import { pruneEarlierBuilds } from './buildBundles.ts';

/** Runs `check` on a made-up repository whose build is current, then removes it. */
async function withMadeUpBuild(check: (root: string, outDir: string) => Promise<void> | void): Promise<void> {
  const root = await makeTempDir('atrium-bundle-root-');
  const outDir = join(root, 'dist', 'node');
  await mkdir(join(root, 'main'), { recursive: true });
  await mkdir(outDir, { recursive: true });
  const inputs: BundleManifest['inputs'] = {};
  for (const [file, text] of [['main/a.ts', 'export const a = 1;\n'], ['main/b.ts', 'export const b = 2;\n']] as const) {
    await writeFile(join(root, file), text);
    const stats = await stat(join(root, file));
    inputs[file] = { size: stats.size, mtimeMs: stats.mtimeMs, sha256: createHash('sha256').update(text).digest('hex') };
  }
  for (const name of Object.keys(bundleEntries)) await writeFile(join(outDir, `${name}.mjs`), '');
  await writeFile(join(outDir, bundleManifestName), JSON.stringify({ inputs }));
  try {
    await check(root, outDir);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

test('a bundle built from the sources as they are is current', () =>
  withMadeUpBuild(async (root, outDir) => {
    assert.equal(bundleStaleReason(outDir, root), undefined);
  }));

test('a source touched without a change (a checkout, a copy) leaves the bundle current', () =>
  withMadeUpBuild(async (root, outDir) => {
    const later = new Date(Date.now() + 60_000);
    await utimes(join(root, 'main/a.ts'), later, later);
    assert.equal(bundleStaleReason(outDir, root), undefined);
  }));

test('an edited source makes the bundle stale and is named, also when its size did not change', () =>
  withMadeUpBuild(async (root, outDir) => {
    await writeFile(join(root, 'main/b.ts'), 'export const b = 3;\n');
    assert.equal((await stat(join(root, 'main/b.ts'))).size, 20);
    assert.equal(bundleStaleReason(outDir, root), 'main/b.ts changed since the last build');
    await writeFile(join(root, 'main/a.ts'), 'export const a = 11;\n');
    assert.equal(bundleStaleReason(outDir, root), 'main/a.ts changed since the last build', 'the first changed file in order is named');
  }));

test('a removed source, a missing entry or a missing or damaged sources.json each make it stale', () =>
  withMadeUpBuild(async (root, outDir) => {
    await rm(join(outDir, 'atrium.mjs'));
    assert.equal(bundleStaleReason(outDir, root), 'its atrium.mjs is missing');
    await writeFile(join(outDir, 'atrium.mjs'), '');
    await rm(join(root, 'main/a.ts'));
    assert.equal(bundleStaleReason(outDir, root), 'main/a.ts is gone since the last build');
    await writeFile(join(outDir, bundleManifestName), '{"inputs": {"main/a.ts": ');
    assert.equal(bundleStaleReason(outDir, root), 'it has not been built yet');
    await rm(join(outDir, bundleManifestName));
    assert.equal(bundleStaleReason(outDir, root), 'it has not been built yet');
  }));

test('ATRIUM_FROM_SOURCE=1 runs the source whatever is built; otherwise a current bundle is run', () => {
  const source = pathToFileURL(join(repoRoot, bundleEntries.atrium.source)).href;
  assert.equal(moduleToRun('atrium', { ATRIUM_FROM_SOURCE: '1' }), source);
  const expected = bundleStaleReason() === undefined ? pathToFileURL(join(bundleOutDir, 'atrium.mjs')).href : source;
  assert.equal(moduleToRun('atrium', {}), expected);
});

test('a build keeps an earlier build’s chunks a day for the hosts still running from it, and none of its source maps', async () => {
  const root = await makeTempDir('atrium-bundle-prune-');
  const outDir = join(root, 'node');
  try {
    await mkdir(outDir, { recursive: true });
    await mkdir(join(root, 'node.building-killed'), { recursive: true });
    for (const file of ['atrium.mjs', 'atrium.mjs.map', 'chunk-new.mjs', 'chunk-recent.mjs', 'chunk-recent.mjs.map', 'chunk-old.mjs']) await writeFile(join(outDir, file), '');
    const now = Date.now();
    const twoDaysAgo = new Date(now - 2 * 24 * 60 * 60 * 1000);
    await utimes(join(outDir, 'chunk-old.mjs'), twoDaysAgo, twoDaysAgo);
    await utimes(join(root, 'node.building-killed'), twoDaysAgo, twoDaysAgo);
    pruneEarlierBuilds(outDir, new Set(['atrium.mjs', 'atrium.mjs.map', 'chunk-new.mjs']), now);
    assert.deepEqual((await readdir(outDir)).sort(), ['atrium.mjs', 'atrium.mjs.map', 'chunk-new.mjs', 'chunk-recent.mjs']);
    assert.deepEqual(await readdir(root), ['node']);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
});
