// Providers and keys through the typed API: a key goes to the encrypted store and is never returned;
// a bad provider is refused with nothing written; removing a provider removes its key (adding under a
// taken name, editing and testing a provider: providersApi.int.test.ts). Approval choices
// are kept in providers.json and apply to the next tool call or sampling request, without a restart.

import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PendingRequestView } from '../../shared/pendingPayloads.ts';
import type { FakeLlmServer } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import type { TestHost } from '../../e2e/fixtures/hostHarness.ts';
import { makeTempDir, nextEvent, startTestHost } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';
import { validateRequest } from './validateRequest.ts';
import { encryptedFileSecrets } from '../store/encryptedSecrets.ts';
import type { WritableSecrets } from '../store/encryptedSecrets.ts';

let host: TestHost;
let store: WritableSecrets;
before(async () => {
  store = encryptedFileSecrets(await makeTempDir('atrium-secrets-'));
  host = await startTestHost({}, { secretStore: store, secrets: store, providerSettings: { providers: [] } });
});
after(() => host.close());

test('a provider with its key: the key is stored encrypted and only "set" comes back', async () => {
  await host.core.api.saveProvider({ provider: { id: 'claude', kind: 'anthropic' }, key: 'sk-ant-secret-value' });
  const settings = await host.core.api.getSettings({});
  assert.deepEqual(settings.providers, [{ id: 'claude', kind: 'anthropic', address: 'https://api.anthropic.com', hasKey: true, key: { source: 'stored' } }]);
  assert.doesNotMatch(JSON.stringify(settings), /sk-ant-secret-value/);
  assert.equal(await store.get('claude'), 'sk-ant-secret-value');
  const file = JSON.parse(await readFile(join(host.home, 'providers.json'), 'utf8')) as { providers: { apiKeySecret?: string }[] };
  assert.equal(file.providers[0]?.apiKeySecret, 'claude', 'the file names the secret, never the key');
});

test('a bad provider is refused and nothing changes; removing one removes its key', async () => {
  await assert.rejects(host.core.api.saveDefaults({ default: { provider: 'nope', model: 'm' } }), /no provider "nope"/);
  await host.core.api.saveDefaults({ default: { provider: 'claude', model: 'claude-x' }, toolThreshold: 20, toolContextPercent: 25 });
  assert.equal((await host.core.api.getSettings({})).toolContextPercent, 25);
  assert.deepEqual((await host.core.api.getSettings({})).default, { provider: 'claude', model: 'claude-x' });
  await host.core.api.removeProvider({ id: 'claude' });
  assert.deepEqual(await store.names(), [], 'the key and the address it was set for are gone');
  const settings = await host.core.api.getSettings({});
  assert.deepEqual([settings.providers, settings.default, settings.toolThreshold], [[], undefined, 20]);
});

describe('approval choices', () => {
  let chatHost: TestHost;
  let llm: FakeLlmServer;
  const asked: PendingRequestView[] = [];
  before(async () => {
    llm = await startFakeAnthropic([
      { toolCalls: [{ name: 'echo__add', input: { a: 1, b: 2 } }] },
      { text: 'Three.' },
      { toolCalls: [{ name: 'echo__add', input: { a: 2, b: 3 } }] },
      { text: 'Five.' },
    ]);
    // As in the window: a person is there to answer, so sampling asks unless they turned it off.
    chatHost = await startTestHost(
      { echo: { ...fixtureCommand('echoServer'), trusted: true } },
      {
        samplingDefault: 'ask',
        providerSettings: { providers: [{ id: 'fake', kind: 'anthropic', baseUrl: llm.url, apiKeySecret: 'fake' }], default: { provider: 'fake', model: 'm' } },
        secrets: { get: async () => 'sk-test-key-not-real' },
      },
    );
    await chatHost.core.hub.whenSettled();
    chatHost.core.events.on('pendingOpened', (record) => {
      asked.push(record);
      if (record.kind === 'tool_approval') void chatHost.core.api.respondPending({ id: record.id, outcome: { effect: 'allow', scope: 'once', target: 'tool' } });
    });
  });
  after(async () => {
    await chatHost.close();
    await llm.close();
  });

  test('nothing saved: the defaults are shown, and a trusted read-only tool runs without asking', async () => {
    assert.deepEqual((await chatHost.core.api.getSettings({})).approvals, { tools: 'ask', sampling: 'ask' });
    const { conversationId } = await chatHost.core.api.sendMessage({ text: 'add 1 and 2' });
    const [call] = (await chatHost.core.api.getConversation({ conversationId })).toolCalls;
    assert.deepEqual([call?.['status'], call?.['decidedBy'], asked.length], ['done', 'policy', 0]);
  });

  test('"ask for every tool call" applies to the next call at once: the same tool now asks', async () => {
    await chatHost.core.api.saveDefaults({ approvals: { tools: 'ask-every' } });
    const { conversationId } = await chatHost.core.api.sendMessage({ text: 'add 2 and 3' });
    const [call] = (await chatHost.core.api.getConversation({ conversationId })).toolCalls;
    assert.deepEqual([call?.['status'], call?.['decidedBy']], ['done', 'person']);
    assert.deepEqual(asked.map((r) => [r.kind, (r.payload as { tool: { name: string } }).tool.name]), [['tool_approval', 'add']]);
  });

  test('"refuse every request" refuses the next sampling request without asking anyone', async () => {
    await chatHost.core.api.saveDefaults({ approvals: { sampling: 'deny' } });
    const result = await chatHost.core.api.callTool({ serverId: 'echo', tool: 'sample', arguments: { prompt: 'hi' } });
    assert.match(JSON.stringify(result), /declined: sampling is turned off/);
    assert.equal(asked.filter((r) => r.kind === 'sampling').length, 0);
  });

  test('the choices are kept in providers.json and shown again; a choice Settings does not offer is refused', async () => {
    const file = JSON.parse(await readFile(join(chatHost.home, 'providers.json'), 'utf8')) as { approvals?: unknown };
    assert.deepEqual(file.approvals, { tools: 'ask-every', sampling: 'deny' });
    assert.deepEqual((await chatHost.core.api.getSettings({})).approvals, { tools: 'ask-every', sampling: 'deny' });
    assert.equal(validateRequest('saveDefaults', { approvals: { tools: 'all' } }).ok, false, 'allowing every call is not a saved choice');
    assert.equal(validateRequest('saveDefaults', { approvals: { sampling: 'approve' } }).ok, false);
    assert.equal(validateRequest('saveDefaults', { approvals: {} }).ok, false);
  });
});

test('a weak key store is never written silently: the warning is shown, and a key is kept only when the person accepts', async () => {
  const weakStore = encryptedFileSecrets(await makeTempDir('atrium-weak-secrets-'));
  const warning = 'No keychain is available to Atrium on this system.';
  const weak = await startTestHost({}, { secretStore: weakStore, secrets: weakStore, keyStorageWarning: warning, providerSettings: { providers: [] } });
  try {
    const before = await weak.core.api.getSettings({});
    assert.equal(before.canStoreKeys, true);
    assert.equal(before.keyStorageWarning, warning);
    await assert.rejects(
      weak.core.api.saveProvider({ provider: { id: 'claude', kind: 'anthropic' }, key: 'sk-ant-weak' }),
      /needs your explicit agreement/,
    );
    await assert.rejects(weak.core.api.saveProvider({ provider: { id: 'claude', kind: 'anthropic' }, key: 'sk-ant-weak', acceptWeakKeyStorage: false }), /explicit agreement/);
    assert.deepEqual(await weakStore.names(), []);
    // Without a key, a provider is saved as usual: its key may come from the environment.
    await weak.core.api.saveProvider({ provider: { id: 'local', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1' } });
    await weak.core.api.saveProvider({ provider: { id: 'claude', kind: 'anthropic' }, key: 'sk-ant-weak', acceptWeakKeyStorage: true });
    assert.equal(await weakStore.get('claude'), 'sk-ant-weak');
  } finally {
    await weak.close();
  }
});

test('where keys are well kept there is no warning, and no agreement is asked', async () => {
  const settings = await host.core.api.getSettings({});
  assert.equal(settings.keyStorageWarning, undefined);
  assert.equal(settings.canStoreKeys, true);
});

test('providers.json edited by hand while the host runs: every window hears of it; broken, the settings stay and the mistake is listed until it is fixed', async () => {
  // A server runs, as in any window's host: the file's watch itself never keeps a process alive.
  const running = await startTestHost({ echo: fixtureCommand('echoServer') });
  try {
    const path = join(running.home, 'providers.json');
    const heard = nextEvent(running.core, 'settingsChanged', (view) => view.providers.some((p) => p.id === 'local'));
    await writeFile(path, JSON.stringify({ providers: [{ id: 'local', kind: 'openai-compatible', baseUrl: 'http://127.0.0.1:11434/v1' }] }, null, 2));
    assert.deepEqual((await heard).providers.map((p) => p.id), ['local']);

    const listed = nextEvent(running.core, 'dataFileProblems', (problems) => problems.some((p) => p.file === 'providers.json' && p.inPlace === true));
    await writeFile(path, '{ "providers": [ { "id": "local", "kind": "openai-compatible" } ], }');
    const [problem] = await listed;
    assert.equal(problem?.problem, 'line 1, column 66: a comma with nothing after it (remove it)');
    assert.equal(problem?.withoutIt, 'Atrium keeps the settings it had, and writes nothing to it until it is fixed');
    assert.deepEqual((await running.core.api.getSettings({})).providers.map((p) => p.id), ['local'], 'the settings it had are kept');

    const fixed = nextEvent(running.core, 'dataFileProblems', (problems) => problems.length === 0);
    await writeFile(path, '{ "providers": [ { "id": "local", "kind": "openai-compatible" } ] }');
    await fixed;
  } finally {
    await running.close();
  }
});
