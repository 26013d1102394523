// When the window's build counts as current: on a made-up repository with a made-up build, so each case
// (current, touched, edited, added, removed, unrecorded) is set up exactly. The real build is covered by
// main/web/serveWeb.int.test.ts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { rendererManifest, rendererManifestName, rendererRebuildReason } from './rendererBuild.ts';

/** Runs `check` on a made-up repository whose window build is current, then removes it. */
async function withMadeUpBuild(check: (root: string, outDir: string) => Promise<void>): Promise<void> {
  const root = await makeTempDir('atrium-renderer-root-');
  const outDir = join(root, 'dist', 'renderer');
  try {
    await mkdir(join(root, 'renderer', 'features'), { recursive: true });
    await mkdir(join(root, 'shared'), { recursive: true });
    await mkdir(outDir, { recursive: true });
    await writeFile(join(root, 'renderer', 'App.tsx'), 'export const App = () => null;\n');
    await writeFile(join(root, 'renderer', 'features', 'chat.tsx'), 'export const Chat = () => null;\n');
    await writeFile(join(root, 'renderer', 'features', 'chat.test.tsx'), 'a test\n');
    await writeFile(join(root, 'shared', 'contract.ts'), 'export const contract = {};\n');
    await writeFile(join(root, 'vite.config.ts'), 'export default {};\n');
    await writeFile(join(root, 'package-lock.json'), '{}\n');
    await writeFile(join(outDir, 'index.html'), '<!doctype html>');
    await writeFile(join(outDir, rendererManifestName), JSON.stringify(await rendererManifest(root)));
    await check(root, outDir);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

test('a window build made from the sources as they are is current, also after a checkout touched them', () =>
  withMadeUpBuild(async (root, outDir) => {
    assert.equal(await rendererRebuildReason(outDir, root), undefined);
    const later = new Date(Date.now() + 60_000);
    await utimes(join(root, 'renderer', 'App.tsx'), later, later);
    assert.equal(await rendererRebuildReason(outDir, root), undefined);
  }));

test('an edited, added or removed source makes the window build out of date, and is named', () =>
  withMadeUpBuild(async (root, outDir) => {
    await writeFile(join(root, 'renderer', 'features', 'chat.test.tsx'), 'another test\n');
    assert.equal(await rendererRebuildReason(outDir, root), undefined, 'a test is not part of the window');
    await writeFile(join(root, 'renderer', 'styles.css'), 'body { margin: 0 }\n');
    assert.equal(await rendererRebuildReason(outDir, root), 'renderer/styles.css is new since the last build');
    await rm(join(root, 'renderer', 'styles.css'));
    await writeFile(join(root, 'shared', 'contract.ts'), 'export const contract = { x: 1 };\n');
    assert.equal(await rendererRebuildReason(outDir, root), 'shared/contract.ts changed since the last build');
    await rm(join(root, 'shared', 'contract.ts'));
    assert.equal(await rendererRebuildReason(outDir, root), 'shared/contract.ts is gone since the last build');
  }));

test('a build config or lock file that the repository does not have is no input, and counts once it appears', () =>
  withMadeUpBuild(async (root, outDir) => {
    await rm(join(root, 'package-lock.json'));
    await writeFile(join(outDir, rendererManifestName), JSON.stringify(await rendererManifest(root)));
    assert.equal(await rendererRebuildReason(outDir, root), undefined);
    await writeFile(join(root, 'package-lock.json'), '{}\n');
    assert.equal(await rendererRebuildReason(outDir, root), 'package-lock.json is new since the last build');
  }));

test('a build that is missing, or does not say what it was made from, is made again', () =>
  withMadeUpBuild(async (root, outDir) => {
    await writeFile(join(outDir, rendererManifestName), '{"inputs": {"renderer/App.tsx": ');
    assert.equal(await rendererRebuildReason(outDir, root), 'the build does not say which sources it was made from');
    await rm(join(outDir, rendererManifestName));
    assert.equal(await rendererRebuildReason(outDir, root), 'the build does not say which sources it was made from');
    await rm(join(outDir, 'index.html'));
    assert.equal(await rendererRebuildReason(outDir, root), 'it has not been built yet');
  }));
