import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildElectron, isBareSpecifier } from './buildElectron.ts';

const packageJson = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> };

function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

test('only our own files are bundled; packages stay imports', () => {
  assert.equal(isBareSpecifier('electron'), true);
  assert.equal(isBareSpecifier('@modelcontextprotocol/client'), true);
  assert.equal(isBareSpecifier('node:fs'), true);
  assert.equal(isBareSpecifier('./ipcAdapter.ts'), false);
  assert.equal(isBareSpecifier(path.resolve('main/electron/main.ts')), false);
});

test('the shell bundles: a sandbox-safe CommonJS preload and an ES main that imports only runtime dependencies', async () => {
  const outDir = await mkdtemp(path.join(tmpdir(), 'atrium-electron-'));
  try {
    await buildElectron(outDir);
    const preload = await readFile(path.join(outDir, 'preload.cjs'), 'utf8');
    // A sandboxed preload can require `electron` and nothing else.
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((match) => match[1]);
    assert.deepEqual([...new Set(required)], ['electron']);
    assert.doesNotMatch(preload, /^\s*(import|export)\s/m);
    assert.match(preload, /exposeInMainWorld\("atrium"/);

    const main = await readFile(path.join(outDir, 'main.mjs'), 'utf8');
    const imported = [...main.matchAll(/^import\s[^"']*["']([^"']+)["']/gm)].map((match) => match[1]!);
    assert.ok(imported.includes('electron'));
    const allowed = new Set(['electron', ...Object.keys(packageJson.dependencies)]);
    for (const specifier of imported) {
      const name = specifier.replace(/^node:/, '');
      if (specifier.startsWith('node:') || builtinModules.includes(name)) continue;
      assert.ok(allowed.has(packageOf(specifier)), `${specifier} must be a production dependency to be packaged`);
    }
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
});
