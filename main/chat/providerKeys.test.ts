import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { WritableSecrets } from '../store/encryptedSecrets.ts';
import { chainSecrets } from '../store/secrets.ts';
import { ProviderKeys, keyAddressSecret } from './providerKeys.ts';

/** A store in memory that records each write, in order. */
function memoryStore(initial: Record<string, string> = {}): WritableSecrets & { table: Record<string, string>; writes: string[] } {
  const table = { ...initial };
  const writes: string[] = [];
  return {
    table,
    writes,
    get: async (name) => table[name],
    set: async (name, value) => {
      writes.push(`set ${name}`);
      table[name] = value;
    },
    delete: async (name) => {
      writes.push(`delete ${name}`);
      delete table[name];
    },
    names: async () => Object.keys(table),
  };
}

const local = { id: 'local', kind: 'openai-compatible' as const, apiKeySecret: 'local', baseUrl: 'http://127.0.0.1:11434/v1' };

test('a stored key is given to its provider while it points where the key was set for, and refused, saying why, once it points elsewhere', async () => {
  const store = memoryStore();
  const keys = new ProviderKeys(store, store);
  await keys.set('local', 'sk-local', 'http://127.0.0.1:11434/v1');
  assert.equal(await keys.sourceFor(local).get('local'), 'sk-local');
  assert.equal(await keys.sourceFor({ ...local, baseUrl: 'http://127.0.0.1:11434/v1/' }).get('local'), 'sk-local', 'a trailing slash is the same address');
  await assert.rejects(keys.sourceFor({ ...local, baseUrl: 'https://evil.example/v1' }).get('local'), {
    name: 'LlmError',
    message: /^the key of provider "local" was not sent: it was set for 127\.0\.0\.1:11434, and the provider now points at evil\.example/,
  });
  await assert.rejects(keys.sourceFor({ ...local, kind: 'openai', baseUrl: undefined }).get('local'), /now points at api\.openai\.com/);
});

test('a new key is written after the old one is gone and its address is set: no moment has an old key set for a new address', async () => {
  const store = memoryStore({ local: 'sk-old', [keyAddressSecret('local')]: 'http://127.0.0.1:11434/v1' });
  await new ProviderKeys(store, store).set('local', 'sk-new', 'http://127.0.0.1:8080/v1');
  assert.deepEqual(store.writes, ['delete local', `set ${keyAddressSecret('local')}`, 'set local']);
  assert.deepEqual(store.table, { local: 'sk-new', [keyAddressSecret('local')]: 'http://127.0.0.1:8080/v1' });
});

test('a key from the environment goes wherever its provider points', async () => {
  const store = memoryStore({ [keyAddressSecret('local')]: 'http://127.0.0.1:11434/v1' });
  const keys = new ProviderKeys(chainSecrets({ get: async (name) => (name === 'local' ? 'sk-env' : undefined) }, store), store);
  assert.deepEqual(await keys.state('local'), { source: 'environment' });
  assert.equal(await keys.sourceFor({ ...local, baseUrl: 'http://127.0.0.1:9/v1' }).get('local'), 'sk-env');
});

test('keys stored before addresses were kept are set for where their provider points now; a key two providers name at two addresses is left alone', async () => {
  const store = memoryStore({ local: 'sk-local', shared: 'sk-shared' });
  const keys = new ProviderKeys(store, store);
  await keys.bindUnbound([local, { ...local, id: 'a', apiKeySecret: 'shared' }, { ...local, id: 'b', apiKeySecret: 'shared', baseUrl: 'http://127.0.0.1:1234/v1' }]);
  assert.equal(store.table[keyAddressSecret('local')], 'http://127.0.0.1:11434/v1');
  assert.equal(store.table[keyAddressSecret('shared')], undefined);
  assert.equal(await keys.sourceFor({ ...local, id: 'b', apiKeySecret: 'shared', baseUrl: 'http://127.0.0.1:1234/v1' }).get('shared'), 'sk-shared');
});

test('a snapshot puts a key and its address back as they were', async () => {
  const store = memoryStore({ local: 'sk-old', [keyAddressSecret('local')]: 'http://127.0.0.1:11434/v1' });
  const keys = new ProviderKeys(store, store);
  const before = await keys.snapshot('local');
  await keys.set('local', 'sk-new', 'http://127.0.0.1:8080/v1');
  await keys.restore(before);
  assert.deepEqual(store.table, { local: 'sk-old', [keyAddressSecret('local')]: 'http://127.0.0.1:11434/v1' });
});
