import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { changeServersFile, loadServersFile } from './serversFile.ts';

test('saving keeps other keys, keeps invalid entries as written and in their place, and leaves the previous file as .bak', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'atrium-servers-'));
  try {
    const path = join(dir, 'servers.json');
    const original = { note: 'mine', mcpServers: { good: { command: 'ok' }, typo: { comand: 'oops' }, last: { command: 'last' } } };
    await writeFile(path, JSON.stringify(original));
    const loaded = await loadServersFile(path, { dataFile: true });
    assert.deepEqual(loaded.servers.map((s) => s.id), ['good', 'last']);
    assert.equal(loaded.problems[0]?.serverId, 'typo');

    await changeServersFile(path, (current) => ({ servers: current.servers.map((s) => (s.id === 'good' ? { ...s, disabled: true } : s)) }));

    const saved = JSON.parse(await readFile(path, 'utf8')) as typeof original & { mcpServers: Record<string, unknown> };
    assert.equal(saved.note, 'mine');
    assert.deepEqual(saved.mcpServers.typo, { comand: 'oops' }, 'an invalid entry is never silently dropped');
    assert.deepEqual(saved.mcpServers.good, { command: 'ok', args: [], disabled: true });
    assert.deepEqual(Object.keys(saved.mcpServers), ['good', 'typo', 'last'], 'entries keep their place');
    assert.deepEqual(JSON.parse(await readFile(`${path}.bak`, 'utf8')), original);
    assert.deepEqual((await readdir(dir)).sort(), ['servers.json', 'servers.json.bak'], 'no temporary or lock file is left behind');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

test('a missing servers file is an empty configuration, not an error', async () => {
  const loaded = await loadServersFile(join(tmpdir(), 'atrium-does-not-exist', 'servers.json'));
  assert.deepEqual(loaded, { servers: [], problems: [], raw: null });
});
