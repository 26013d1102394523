// Providers through the typed API, against scripted model servers that record what they receive (the
// official SDK clients talk to them as they would to the real APIs): a name that exists is refused; an
// edit that changes where a provider's requests go sends its stored key there only when the person
// agreed, naming both addresses; an address changed outside Settings gets no key at all; and "Test
// connection" says in words what happened, never quoting the key.

import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { FieldProblemsError } from '../../shared/fieldProblems.ts';
import type { FakeLlmServer } from '../../e2e/fixtures/llm/fakeServerBase.ts';
import { startFakeOpenAi } from '../../e2e/fixtures/llm/fakeOpenAiServer.ts';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import type { TestHost } from '../../e2e/fixtures/hostHarness.ts';
import { freePort, makeTempDir, startTestHost } from '../../e2e/fixtures/hostHarness.ts';
import type { RunningHost } from '../app/hostCore.ts';
import { startHostCore } from '../app/hostCore.ts';
import { encryptedFileSecrets } from '../store/encryptedSecrets.ts';
import type { WritableSecrets } from '../store/encryptedSecrets.ts';
import { chainSecrets, environmentSecrets } from '../store/secrets.ts';

const LOCAL_KEY = 'sk-local-typed-for-the-home-server-7f3a';
const fakes: FakeLlmServer[] = [];
after(() => Promise.all(fakes.map((fake) => fake.close())));

async function openAiFake(options: { models?: string[]; key?: string } = {}, replies = 4): Promise<FakeLlmServer> {
  const fake = await startFakeOpenAi(
    Array.from({ length: replies }, (_, i) => ({ text: `reply ${i + 1}` })),
    options,
  );
  fakes.push(fake);
  return fake;
}

/**
 * The key each request of the provider's client carried (the official SDK's requests, which name
 * themselves in x-stainless-* headers), if any. A local server is also asked, with plain requests, how much
 * context its model has; those are not the client's (the tests that no request at all reached an address
 * look at every request).
 */
function keysReceived(fake: FakeLlmServer): (string | undefined)[] {
  return fake.requests
    .filter((r) => r.headers['x-stainless-lang'] !== undefined)
    .map((r) => r.headers['authorization']?.replace(/^Bearer /, '') ?? r.headers['x-api-key']);
}

async function hostWithStore(): Promise<{ host: TestHost; store: WritableSecrets }> {
  const store = encryptedFileSecrets(await makeTempDir('atrium-provider-keys-'));
  const host = await startTestHost({}, { secretStore: store, secrets: store, providerSettings: { providers: [] } });
  return { host, store };
}

/** A message to `provider`; the reply's text, or the turn's failure. */
async function ask(host: TestHost | RunningHost, provider: string): Promise<{ text: string; error?: string }> {
  const { api } = 'core' in host ? host.core : host;
  const { conversationId } = await api.sendMessage({ text: 'hello', provider, model: 'gpt-fake-1' });
  const reply = (await api.getConversation({ conversationId })).messages.findLast((m) => m.role === 'assistant');
  const text = reply?.content.map((part) => (part.type === 'text' ? part.text : '')).join('') ?? '';
  return { text, ...(reply?.error ? { error: reply.error } : {}) };
}

async function rejection(action: Promise<unknown>): Promise<FieldProblemsError> {
  try {
    await action;
  } catch (error) {
    assert.ok(error instanceof FieldProblemsError, `refused with field problems, not ${String(error)}`);
    return error;
  }
  assert.fail('the request was not refused');
}

describe('a provider added under a name that exists', () => {
  let host: TestHost;
  let store: WritableSecrets;
  before(async () => ({ host, store } = await hostWithStore()));
  after(() => host.close());

  test('is refused beside the name, and the provider, its key and where the key goes stay as they were', async () => {
    const home = await openAiFake();
    const elsewhere = await openAiFake();
    await host.core.api.saveProvider({ provider: { id: 'local', kind: 'openai-compatible', baseUrl: home.url }, key: LOCAL_KEY });
    const file = await readFile(join(host.home, 'providers.json'), 'utf8');

    // The same name for another address, with no key typed: before, this replaced the provider and kept its key.
    const refused = await rejection(host.core.api.saveProvider({ provider: { id: 'local', kind: 'openai', baseUrl: elsewhere.url } }));
    assert.deepEqual(refused.fields, [{ field: 'provider.id', message: 'A provider called "local" exists: edit it, or choose another name.' }]);
    assert.equal(await readFile(join(host.home, 'providers.json'), 'utf8'), file, 'providers.json is untouched');
    assert.equal(await store.get('local'), LOCAL_KEY);

    // With a key typed, the refusal comes before the key is touched.
    await rejection(host.core.api.saveProvider({ provider: { id: 'local', kind: 'openai-compatible', baseUrl: home.url }, key: 'sk-other' }));
    assert.equal(await store.get('local'), LOCAL_KEY);

    assert.equal((await ask(host, 'local')).text, 'reply 1');
    assert.deepEqual(keysReceived(home), [LOCAL_KEY]);
    assert.deepEqual(elsewhere.requests, [], 'the other address never heard of the key');
  });

  test('a key left stored under the name, set for another address or for none known, does not go to the provider added', async () => {
    const server = await openAiFake({}, 2);
    await store.set('ghost', 'sk-left-from-a-removed-provider');
    await host.core.api.saveProvider({ provider: { id: 'ghost', kind: 'openai-compatible', baseUrl: server.url } });
    assert.equal(await store.get('ghost'), undefined);
    await store.set('elsewhere', 'sk-set-for-another-address');
    await store.set('provider-key-address:elsewhere', 'https://api.openai.com/v1');
    await host.core.api.saveProvider({ provider: { id: 'elsewhere', kind: 'openai-compatible', baseUrl: server.url } });
    assert.equal((await host.core.api.getSettings({})).providers.find((p) => p.id === 'elsewhere')?.hasKey, false);
    assert.equal((await ask(host, 'ghost')).text, 'reply 1');
    assert.match((await ask(host, 'elsewhere')).error ?? '', /^the key of provider "elsewhere" was not sent: it was set for api\.openai\.com/);
    assert.deepEqual(keysReceived(server), ['not-needed']);
  });

  test('an OpenAI-compatible server without its base URL is refused beside that field', async () => {
    const refused = await rejection(host.core.api.saveProvider({ provider: { id: 'bare', kind: 'openai-compatible' } }));
    assert.equal(refused.fields[0]?.field, 'provider.baseUrl');
    assert.match(refused.fields[0]?.message ?? '', /^Base URL is needed for an OpenAI-compatible server/);
  });
});

describe('editing a provider', () => {
  let host: TestHost;
  let store: WritableSecrets;
  before(async () => ({ host, store } = await hostWithStore()));
  after(() => host.close());

  test('a new address without the person agreeing: the stored key is removed, and the new address never receives it', async () => {
    const home = await openAiFake();
    const attacker = await openAiFake();
    await host.core.api.saveProvider({ provider: { id: 'moved', kind: 'openai-compatible', baseUrl: home.url }, key: LOCAL_KEY });
    assert.deepEqual(await host.core.api.editProvider({ id: 'moved', provider: { kind: 'openai-compatible', baseUrl: attacker.url } }), { key: 'dropped' });
    assert.equal(await store.get('moved'), undefined);
    const [view] = (await host.core.api.getSettings({})).providers.filter((p) => p.id === 'moved');
    assert.deepEqual([view?.hasKey, view?.baseUrl, view?.address], [false, attacker.url, attacker.url]);

    assert.equal((await ask(host, 'moved')).text, 'reply 1');
    assert.deepEqual(keysReceived(attacker), ['not-needed'], 'a server that needs no key gets the placeholder, never the old key');
    assert.deepEqual(home.requests, []);
  });

  test('a new address the person agreed to, naming both: the key goes there; an agreement to other addresses is refused', async () => {
    const home = await openAiFake();
    const next = await openAiFake();
    await host.core.api.saveProvider({ provider: { id: 'kept', kind: 'openai-compatible', baseUrl: home.url }, key: LOCAL_KEY });
    const stale = await rejection(
      host.core.api.editProvider({ id: 'kept', provider: { kind: 'openai-compatible', baseUrl: next.url }, keepKey: { from: 'https://api.openai.com/v1', to: next.url } }),
    );
    assert.equal(stale.fields[0]?.field, 'keepKey');
    assert.equal(await store.get('kept'), LOCAL_KEY, 'a refused edit changes nothing');

    const edit = await host.core.api.editProvider({ id: 'kept', provider: { kind: 'openai-compatible', baseUrl: `${next.url}/` }, keepKey: { from: home.url, to: next.url } });
    assert.deepEqual(edit, { key: 'moved' });
    assert.equal((await ask(host, 'kept')).text, 'reply 1');
    assert.deepEqual(keysReceived(next), [LOCAL_KEY]);
  });

  test('another API at the same address drops the key too, unless kept; models alone keep it', async () => {
    const home = await openAiFake({}, 2);
    await host.core.api.saveProvider({ provider: { id: 'api', kind: 'openai-compatible', baseUrl: home.url }, key: LOCAL_KEY });
    assert.deepEqual(await host.core.api.editProvider({ id: 'api', provider: { kind: 'openai-compatible', baseUrl: home.url, models: ['gpt-fake-1'] } }), { key: 'unchanged' });
    assert.equal(await store.get('api'), LOCAL_KEY);
    assert.deepEqual(await host.core.api.editProvider({ id: 'api', provider: { kind: 'openai', baseUrl: home.url }, keepKey: { from: home.url, to: home.url } }), { key: 'moved' });
    assert.equal(await store.get('api'), LOCAL_KEY);
    assert.deepEqual(await host.core.api.editProvider({ id: 'api', provider: { kind: 'openai-compatible', baseUrl: home.url } }), { key: 'dropped' });
    assert.equal(await store.get('api'), undefined);
  });

  test('a key typed with the edit replaces the old one and is set for the new address; "remove key" removes it', async () => {
    const home = await openAiFake();
    const next = await openAiFake();
    await host.core.api.saveProvider({ provider: { id: 'swap', kind: 'openai', baseUrl: home.url }, key: 'sk-old-key-for-home' });
    assert.deepEqual(await host.core.api.editProvider({ id: 'swap', provider: { kind: 'openai', baseUrl: next.url }, key: 'sk-new-key-for-next' }), { key: 'replaced' });
    assert.equal((await ask(host, 'swap')).text, 'reply 1');
    assert.deepEqual(keysReceived(next), ['sk-new-key-for-next']);
    const both = await rejection(host.core.api.editProvider({ id: 'swap', provider: { kind: 'openai', baseUrl: next.url }, key: 'sk-x', removeKey: true }));
    assert.equal(both.fields[0]?.field, 'key');
    assert.deepEqual(await host.core.api.editProvider({ id: 'swap', provider: { kind: 'openai', baseUrl: next.url }, removeKey: true }), { key: 'removed' });
    assert.equal(await store.get('swap'), undefined);
    assert.equal((await host.core.api.getSettings({})).providers.find((p) => p.id === 'swap')?.hasKey, false);
  });

  test('a provider that is not there cannot be edited', async () => {
    await assert.rejects(host.core.api.editProvider({ id: 'nobody', provider: { kind: 'openai' } }), { code: 'not_found', message: 'there is no provider "nobody" any more' });
  });
});

test('a key from the environment is named as such, and Settings does not pretend to remove or replace it', async () => {
  const store = encryptedFileSecrets(await makeTempDir('atrium-provider-env-'));
  const host = await startTestHost(
    {},
    {
      secretStore: store,
      secrets: chainSecrets(environmentSecrets({ ATRIUM_SECRET_ENVY: 'sk-from-the-environment' }), store),
      providerSettings: { providers: [{ id: 'envy', kind: 'openai', apiKeySecret: 'envy' }] },
    },
  );
  try {
    const [view] = (await host.core.api.getSettings({})).providers;
    assert.deepEqual(view?.key, { source: 'environment', variables: ['ATRIUM_SECRET_ENVY'] });
    const removal = await rejection(host.core.api.editProvider({ id: 'envy', provider: { kind: 'openai' }, removeKey: true }));
    assert.equal(removal.fields[0]?.message, "Its key comes from Atrium's environment (ATRIUM_SECRET_ENVY), which Settings cannot change: unset it there.");
    await rejection(host.core.api.editProvider({ id: 'envy', provider: { kind: 'openai' }, key: 'sk-typed' }));
    assert.equal(await store.get('envy'), undefined);
  } finally {
    await host.close();
  }
});

test('an address changed outside Settings (providers.json edited while Atrium was closed) gets no key, and the chat says why', async () => {
  const home = await makeTempDir('atrium-provider-hand-');
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: {} }));
  const store = encryptedFileSecrets(home);
  const local = await openAiFake();
  const attacker = await openAiFake();
  const first = await startHostCore({ home, keepAliveMs: 0, secretStore: store, secrets: store });
  await first.api.saveProvider({ provider: { id: 'local', kind: 'openai-compatible', baseUrl: local.url }, key: LOCAL_KEY });
  await first.shutdown();
  const providersFile = join(home, 'providers.json');
  await writeFile(providersFile, (await readFile(providersFile, 'utf8')).replace(local.url, attacker.url));

  const again = await startHostCore({ home, keepAliveMs: 0, secretStore: store, secrets: store });
  try {
    const said = new RegExp(`^the key of provider "local" was not sent: it was set for ${hostOf(local)}, and the provider now points at ${hostOf(attacker)} \\(its address was changed outside Settings\\)\\. Edit the provider in Settings`);
    assert.match((await ask(again, 'local')).error ?? '', said);
    // Without a model named, the models are listed first: the message says why they could not be.
    await assert.rejects(again.api.sendMessage({ text: 'hello', provider: 'local' }), {
      message: /^provider "local" has no model to use, as its models could not be listed: the key of provider "local" was not sent: .* Check its key and address in Settings/,
    });
    assert.deepEqual(keysReceived(attacker), []);
    const [view] = (await again.api.getSettings({})).providers;
    assert.deepEqual([view?.hasKey, view?.key], [false, { source: 'stored', heldFor: local.url }]);
    const check = await again.api.testProvider({ id: 'local' });
    assert.equal(check.ok, false);
    assert.match(check.message, /^The key of provider "local" was not sent/);
    assert.deepEqual(attacker.requests, [], 'nothing, and so no key, reached the new address');

    // Once the person agrees in Settings, naming both addresses, the key goes there.
    assert.deepEqual(await again.api.editProvider({ id: 'local', provider: { kind: 'openai-compatible', baseUrl: attacker.url }, keepKey: { from: local.url, to: attacker.url } }), { key: 'moved' });
    assert.equal((await ask(again, 'local')).text, 'reply 1');
    assert.deepEqual(keysReceived(attacker), [LOCAL_KEY]);
  } finally {
    await again.shutdown();
    await rm(home, { recursive: true, force: true });
  }
});

describe('Test connection', () => {
  let host: TestHost;
  before(async () => ({ host } = await hostWithStore()));
  after(() => host.close());

  test('reached: it says where, with its key, and the models it offers, asked with the key as stored', async () => {
    const server = await openAiFake({ models: ['llama3.2', 'qwen2.5'], key: LOCAL_KEY });
    await host.core.api.saveProvider({ provider: { id: 'ok', kind: 'openai-compatible', baseUrl: server.url, models: ['configured-only'] }, key: LOCAL_KEY });
    const check = await host.core.api.testProvider({ id: 'ok' });
    assert.match(check.message, new RegExp(`^Reached ${hostOf(server)} in \\d+ ms, with its key\\. It offers 2 models: llama3\\.2, qwen2\\.5\\.$`));
    assert.deepEqual([check.ok, check.models], [true, ['llama3.2', 'qwen2.5']]);
    assert.deepEqual(server.requests.map((r) => `${r.method} ${r.path}`), ['GET /v1/models']);
    assert.deepEqual(keysReceived(server), [LOCAL_KEY]);
  });

  test('an Anthropic provider is asked through its own client', async () => {
    const server = await startFakeAnthropic([], { models: ['claude-fake-1'], key: 'sk-ant-stored' });
    fakes.push(server);
    await host.core.api.saveProvider({ provider: { id: 'claude', kind: 'anthropic', baseUrl: server.url }, key: 'sk-ant-stored' });
    const check = await host.core.api.testProvider({ id: 'claude' });
    assert.deepEqual([check.ok, check.models], [true, ['claude-fake-1']]);
    assert.deepEqual(keysReceived(server), ['sk-ant-stored']);
  });

  test('the key refused: said in words, and the key is not quoted even when the server echoes it', async () => {
    const server = await openAiFake({ key: 'sk-the-right-one' });
    await host.core.api.saveProvider({ provider: { id: 'wrong', kind: 'openai', baseUrl: server.url }, key: 'sk-wrong-key-typed-7c1d' });
    const check = await host.core.api.testProvider({ id: 'wrong' });
    assert.equal(check.ok, false);
    assert.match(check.message, /^OpenAI provider "wrong" rejected the API key \(HTTP 401\): Incorrect API key provided: \*\*\*\. Check the key/);
    assert.doesNotMatch(JSON.stringify(check), /sk-wrong-key-typed-7c1d/);
  });

  test('nothing answers at the address: said, with what to check', async () => {
    const port = await freePort();
    await host.core.api.saveProvider({ provider: { id: 'dead', kind: 'openai-compatible', baseUrl: `http://127.0.0.1:${port}/v1` } });
    const check = await host.core.api.testProvider({ id: 'dead' });
    assert.deepEqual(check, {
      ok: false,
      message: `OpenAI-compatible provider "dead": cannot reach http://127.0.0.1:${port}/v1 (connection refused). Is the server running?`,
    });
  });

  test('an Anthropic provider at another address (a proxy) is tried without a key: reached, or nothing answering, said', async () => {
    const proxy = await startFakeAnthropic([], { models: ['claude-fake-1'] });
    fakes.push(proxy);
    await host.core.api.saveProvider({ provider: { id: 'proxy', kind: 'anthropic', baseUrl: proxy.url } });
    const reached = await host.core.api.testProvider({ id: 'proxy' });
    assert.deepEqual([reached.ok, reached.models], [true, ['claude-fake-1']], reached.message);
    assert.equal(proxy.requests.length, 1, 'the proxy was asked');
    const port = await freePort();
    await host.core.api.saveProvider({ provider: { id: 'gone', kind: 'anthropic', baseUrl: `http://127.0.0.1:${port}` } });
    const dead = await host.core.api.testProvider({ id: 'gone' });
    assert.equal(dead.ok, false);
    assert.match(dead.message, /cannot reach http:\/\/127\.0\.0\.1:\d+ \(connection refused\)/);
  });

  test('no key where the API needs one: said before anything is sent', async () => {
    await host.core.api.saveProvider({ provider: { id: 'keyless', kind: 'anthropic' } });
    assert.deepEqual(await host.core.api.testProvider({ id: 'keyless' }), { ok: false, message: 'keyless has no key yet, and https://api.anthropic.com needs one: edit it and give its key.' });
  });
});

function hostOf(server: FakeLlmServer): string {
  return new URL(server.url).host.replaceAll('.', '\\.');
}
