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
