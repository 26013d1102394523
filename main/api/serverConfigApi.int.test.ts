// Adding, editing and removing servers through the typed API: the servers file follows every change,
// and nothing new runs before the person starts it.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { TestHost } from '../../e2e/fixtures/hostHarness.ts';
import { nextEvent, startTestHost } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';

let host: TestHost;
before(async () => {
  host = await startTestHost({});
});
after(() => host.close());

const stored = async () => (JSON.parse(await readFile(join(host.home, 'servers.json'), 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> }).mcpServers;

test('a new server is saved disabled, runs only once started, and an edit that changes what runs disables it again', async () => {
  const echo = fixtureCommand('echoServer');
  const saved = await host.core.api.saveServer({ serverId: 'echo', entry: { command: echo.command, args: echo.args } });
  assert.equal(saved.status.kind, 'disabled', 'nothing new runs before the person has seen it');
  assert.equal((await stored())['echo']?.['disabled'], true);

  // Turning it on is not approving what it runs: it waits for the person's approval of that definition.
  const waiting = nextEvent(host.core, 'serverChanged', (s) => s.id === 'echo' && s.status.kind === 'needs-approval');
  await host.core.api.setServerEnabled({ serverId: 'echo', enabled: true });
  await waiting;
  const review = await host.core.api.reviewServerLaunch({ serverId: 'echo' });
  assert.equal(review.current, false);
  await assert.rejects(host.core.api.approveServerLaunch({ serverId: 'echo', hash: '0'.repeat(64) }), /changed while you were looking at it/);
  const ready = nextEvent(host.core, 'serverChanged', (s) => s.id === 'echo' && s.status.kind === 'ready');
  await host.core.api.approveServerLaunch({ serverId: 'echo', hash: review.hash });
  await ready;

  const trusted = await host.core.api.saveServer({ serverId: 'echo', replaces: 'echo', entry: { command: echo.command, args: echo.args, trusted: true } });
  assert.notEqual(trusted.status.kind, 'disabled', 'trusting it changes nothing that runs: it stays on');
  assert.equal((await stored())['echo']?.['trusted'], true);

  const changed = await host.core.api.saveServer({ serverId: 'echo', replaces: 'echo', entry: { command: echo.command, args: [...echo.args, '--both-eras'] } });
  assert.equal(changed.status.kind, 'disabled', 'a changed command line needs another look');
});

test('bad entries and taken names are refused with every problem, each naming its field as the editor labels it; the file is unchanged', async () => {
  const before = await stored();
  await assert.rejects(host.core.api.saveServer({ serverId: 'broken', entry: { args: ['x'] } }), { fields: [{ field: 'entry.command', message: 'Command is required: the program that starts the server, for example npx or node.' }] });
  await assert.rejects(host.core.api.saveServer({ serverId: 'web', entry: { type: 'http', url: 'not a url' } }), {
    fields: [{ field: 'entry.url', message: 'Address "not a url" is not a web address: it starts with https:// (or http://), for example https://example.com/mcp.' }],
  });
  await assert.rejects(host.core.api.saveServer({ serverId: 'echo', entry: { command: 'node' } }), { fields: [{ field: 'serverId', message: 'Name "echo" is taken by another server: choose another name.' }] });
  await assert.rejects(host.core.api.saveServer({ serverId: ' ', entry: { command: '' } }), (error: { fields: { field: string }[] }) => {
    assert.deepEqual(error.fields.map((f) => f.field), ['serverId', 'entry.command'], 'both problems at once');
    return true;
  });
  assert.deepEqual(await stored(), before);
});

test('renaming keeps one entry; removing takes the server and its entry away', async () => {
  const echo = fixtureCommand('echoServer');
  await host.core.api.saveServer({ serverId: 'echo-2', replaces: 'echo', entry: { command: echo.command, args: echo.args } });
  assert.deepEqual(Object.keys(await stored()), ['echo-2']);
  assert.deepEqual((await host.core.api.listServers({})).map((s) => s.id), ['echo-2']);
  await host.core.api.removeServer({ serverId: 'echo-2' });
  assert.deepEqual(await stored(), {});
  assert.deepEqual(await host.core.api.listServers({}), []);
  await assert.rejects(host.core.api.removeServer({ serverId: 'echo-2' }), /no server named "echo-2"/);
});

test('a server removed while its secrets cannot be deleted (the keychain is out of reach) is gone, and the failure says the secrets stayed', async () => {
  const kept = new Map([['mcp-server:keyed:TOKEN', 'tok-1234567890'], ['anthropic', 'sk-ant-not-real']]);
  const keychainAway = new Error('the keychain could not be reached');
  const secretStore = {
    get: async (name: string) => kept.get(name),
    set: async () => Promise.reject(keychainAway),
    delete: async () => Promise.reject(keychainAway),
    names: async () => [...kept.keys()],
  };
  const echo = fixtureCommand('echoServer');
  const keyed = await startTestHost({ keyed: { command: echo.command, args: echo.args, env: { TOKEN: '${secret:mcp-server:keyed:TOKEN}' }, disabled: true } }, { secretStore });
  try {
    await assert.rejects(keyed.core.api.removeServer({ serverId: 'keyed' }), { code: 'failed', message: 'keyed was removed, but the secrets Atrium keeps for it could not be deleted: the keychain could not be reached' });
    assert.deepEqual(await keyed.core.api.listServers({}), [], 'the server is gone all the same');
  } finally {
    await keyed.close();
  }
});
