import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { test } from 'node:test';
import { makeTempDir } from '../../../e2e/fixtures/hostHarness.ts';
import { encryptedFileSecrets } from '../../store/encryptedSecrets.ts';
import { credentialName, memoryCredentialStore, ServerCredentials } from './credentialVault.ts';

test('a sign-in is kept encrypted under the server name and exact URL, and read back by a later process', async () => {
  const home = await makeTempDir('atrium-vault-');
  try {
    const store = encryptedFileSecrets(home);
    const first = new ServerCredentials(store, 'github', 'https://api.example.com/mcp');
    await first.update((c) => {
      c.clients['https://auth.example.com'] = { client_id: 'atrium-1', issuer: 'https://auth.example.com' };
      c.tokens = { access_token: 'at-secret', token_type: 'Bearer', refresh_token: 'rt-secret', issuer: 'https://auth.example.com', receivedAt: 1 };
    });
    const again = await new ServerCredentials(encryptedFileSecrets(home), 'github', 'https://api.example.com/mcp').read();
    assert.equal(again.tokens?.refresh_token, 'rt-secret');
    assert.equal(again.clients['https://auth.example.com']?.client_id, 'atrium-1');

    assert.equal((await new ServerCredentials(store, 'github', 'https://evil.example.com/mcp').read()).tokens, undefined, 'another address starts afresh');
    assert.equal((await new ServerCredentials(store, 'gitlab', 'https://api.example.com/mcp').read()).tokens, undefined, 'another name starts afresh');
    assert.deepEqual((await store.names()).filter((secret) => secret.startsWith('mcp-oauth:')), [credentialName('github', 'https://api.example.com/mcp')]);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('an entry whose recorded URL is not the server’s is not used', async () => {
  const store = memoryCredentialStore();
  const name = credentialName('s', 'https://a.example/mcp');
  await store.set(name, JSON.stringify({ serverUrl: 'https://b.example/mcp', clients: {}, tokens: { access_token: 'x', token_type: 'Bearer' } }));
  const credentials = new ServerCredentials(store, 's', 'https://a.example/mcp');
  assert.equal((await credentials.read()).tokens, undefined);
  await credentials.update((c) => (c.requestedScope = 'read'));
  assert.equal(JSON.parse((await store.get(name)) ?? '{}').serverUrl, 'https://a.example/mcp', 'the entry is rewritten for this server');
});
