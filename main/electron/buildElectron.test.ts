import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createInterface } from 'node:readline';
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
    await buildElectron(path.join(outDir, 'electron'), path.join(outDir, 'sampleServer'));
    const electronDir = path.join(outDir, 'electron');
    const preload = await readFile(path.join(electronDir, 'preload.cjs'), 'utf8');
    // A sandboxed preload can require `electron` and nothing else.
    const required = [...preload.matchAll(/require\(["']([^"']+)["']\)/g)].map((match) => match[1]);
    assert.deepEqual([...new Set(required)], ['electron']);
    assert.doesNotMatch(preload, /^\s*(import|export)\s/m);
    assert.match(preload, /exposeInMainWorld\("atrium"/);

    const main = await readFile(path.join(electronDir, 'main.mjs'), 'utf8');
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

test('the sample server bundle runs on its own: a plain node, no node_modules, answers initialize and lists its tools', async () => {
  // A temporary folder has no node_modules above it, like app.asar.unpacked beside a packaged app.
  const outDir = await mkdtemp(path.join(tmpdir(), 'atrium-sample-bundle-'));
  try {
    await buildElectron(path.join(outDir, 'electron'), path.join(outDir, 'sampleServer'));
    const bundle = path.join(outDir, 'sampleServer', 'sampleServer.mjs');
    const imported = [...(await readFile(bundle, 'utf8')).matchAll(/^import\s[^"']*["']([^"']+)["']/gm)].map((match) => match[1]!);
    for (const specifier of imported) assert.ok(specifier.startsWith('node:') || builtinModules.includes(specifier), `${specifier} is not bundled`);

    const child = spawn(process.execPath, [bundle], { cwd: outDir, stdio: ['pipe', 'pipe', 'pipe'] });
    const replies = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
    const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'test', version: '1' } } });
    const initialized = JSON.parse((await replies.next()).value as string) as { result: { serverInfo: { name: string } } };
    assert.equal(initialized.result.serverInfo.name, 'atrium-sample');
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
    const listed = JSON.parse((await replies.next()).value as string) as { result: { tools: { name: string }[] } };
    assert.ok(listed.result.tools.some((tool) => tool.name === 'list_notes'));
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end();
    child.kill();
    await exited;
  } finally {
    await rm(outDir, { recursive: true, force: true });
  }
});
