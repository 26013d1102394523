import assert from 'node:assert/strict';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { makeTempDir } from '../../../e2e/fixtures/hostHarness.ts';
import { startFakeOpenAi } from '../../../e2e/fixtures/llm/fakeOpenAiServer.ts';
import { closedPort } from '../../../e2e/fixtures/llm/providerTestKit.ts';
import { parseServersFile } from '../../mcp/config/serverConfig.ts';
import { discoverConfigs, knownConfigPaths, probeModelServers } from './discoverSetup.ts';

const cleanups: (() => Promise<unknown>)[] = [];
after(async () => {
  for (const cleanup of cleanups) await cleanup();
});

test('each host’s config is looked for where that host keeps it, per platform', () => {
  assert.deepEqual(knownConfigPaths('/home/ada', 'linux', {}).map((p) => p.path), [
    '/home/ada/.config/Claude/claude_desktop_config.json',
    '/home/ada/.config/Code/User/mcp.json',
    '/home/ada/.cursor/mcp.json',
  ]);
  assert.equal(knownConfigPaths('/Users/ada', 'darwin', {})[0]?.path, '/Users/ada/Library/Application Support/Claude/claude_desktop_config.json');
});

test('found configs list their servers with the exact command lines; missing files are skipped; bad entries are named', async () => {
  const home = await makeTempDir();
  cleanups.push(() => rm(home, { recursive: true, force: true }));
  await mkdir(join(home, '.cursor'));
  await writeFile(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'server-filesystem', '/my dir'] }, bad: { args: [] } } }));
  const found = await discoverConfigs(knownConfigPaths(home, 'linux', {}));
  assert.equal(found.length, 1);
  assert.equal(found[0]?.app, 'Cursor');
  assert.deepEqual(found[0]?.servers, [{ id: 'fs', transport: 'stdio', target: "npx -y server-filesystem '/my dir'" }]);
  assert.match(found[0]?.problems[0] ?? '', /server "bad"/);
});

test('a found server Atrium already runs (under any name, trusted since) says which one it is', async () => {
  const home = await makeTempDir();
  cleanups.push(() => rm(home, { recursive: true, force: true }));
  await mkdir(join(home, '.cursor'));
  await writeFile(join(home, '.cursor', 'mcp.json'), JSON.stringify({ mcpServers: { fs: { command: 'npx', args: ['-y', 'fs'] }, web: { url: 'https://example.com/mcp' } } }));
  const present = parseServersFile(JSON.stringify({ mcpServers: { files: { command: 'npx', args: ['-y', 'fs'], trusted: true }, web: { url: 'https://example.com/other' } } }), 'servers.json').servers;
  const [found] = await discoverConfigs(knownConfigPaths(home, 'linux', {}), present);
  assert.deepEqual(found?.servers.map((s) => [s.id, s.alreadyAs]), [['fs', 'files'], ['web', undefined]]);
});

test('a local OpenAI-compatible server is found with its models; a closed port is not', async () => {
  const llm = await startFakeOpenAi([], { models: ['llama3.2', 'qwen2.5'] });
  cleanups.push(() => llm.close());
  const port = Number(new URL(llm.url).port);
  const found = await probeModelServers([
    { name: 'Fake Ollama', port },
    { name: 'Nothing', port: await closedPort() },
  ]);
  assert.deepEqual(found, [{ name: 'Fake Ollama', baseUrl: `http://127.0.0.1:${port}/v1`, models: ['llama3.2', 'qwen2.5'] }]);
});
