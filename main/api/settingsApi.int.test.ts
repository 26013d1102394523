// Providers and keys through the typed API: a key goes to the encrypted store and is never returned;
// a bad provider is refused with nothing written; removing a provider removes its key.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { TestHost } from '../../e2e/fixtures/hostHarness.ts';
import { makeTempDir, startTestHost } from '../../e2e/fixtures/hostHarness.ts';
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
  assert.deepEqual(settings.providers, [{ id: 'claude', kind: 'anthropic', hasKey: true }]);
  assert.doesNotMatch(JSON.stringify(settings), /sk-ant-secret-value/);
  assert.equal(await store.get('claude'), 'sk-ant-secret-value');
  const file = JSON.parse(await readFile(join(host.home, 'providers.json'), 'utf8')) as { providers: { apiKeySecret?: string }[] };
  assert.equal(file.providers[0]?.apiKeySecret, 'claude', 'the file names the secret, never the key');
});

test('a bad provider is refused and nothing changes; removing one removes its key', async () => {
  await assert.rejects(host.core.api.saveDefaults({ default: { provider: 'nope', model: 'm' } }), /no provider "nope"/);
  await host.core.api.saveDefaults({ default: { provider: 'claude', model: 'claude-x' }, toolThreshold: 20 });
  assert.deepEqual((await host.core.api.getSettings({})).default, { provider: 'claude', model: 'claude-x' });
  await host.core.api.removeProvider({ id: 'claude' });
  assert.equal(await store.get('claude'), undefined);
  const settings = await host.core.api.getSettings({});
  assert.deepEqual([settings.providers, settings.default, settings.toolThreshold], [[], undefined, 20]);
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
