import assert from 'node:assert/strict';
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { encryptedFileSecrets, SECRETS_FILE } from './encryptedSecrets.ts';

const homes: string[] = [];
after(async () => {
  for (const home of homes) await rm(home, { recursive: true, force: true });
});

test('a secret is stored encrypted, readable only by this user, and read back by name', async () => {
  const home = await makeTempDir();
  homes.push(home);
  const secrets = encryptedFileSecrets(home);
  await secrets.set('anthropic', 'sk-ant-very-secret-value');
  await secrets.set('openai', 'sk-openai-other');
  assert.equal(await secrets.get('anthropic'), 'sk-ant-very-secret-value');
  assert.deepEqual(await secrets.names(), ['anthropic', 'openai']);
  const onDisk = await readFile(join(home, SECRETS_FILE));
  assert.ok(!onDisk.includes(Buffer.from('sk-ant-very-secret-value')), 'the value is not on disk in the clear');
  assert.equal((await stat(join(home, SECRETS_FILE))).mode & 0o777, 0o600);
  assert.equal((await stat(join(home, 'secrets.key'))).mode & 0o777, 0o600);
  // A new process (a new store) reads what the last one wrote.
  assert.equal(await encryptedFileSecrets(home).get('openai'), 'sk-openai-other');
  await secrets.delete('openai');
  assert.equal(await secrets.get('openai'), undefined);
  await assert.rejects(stat(join(home, `${SECRETS_FILE}.bak`)), /ENOENT/, 'no older copy keeps a deleted key');
});

test('a tampered file is never read wrong: it is moved aside byte for byte, and the key that wrote it is kept', async () => {
  const home = await makeTempDir();
  homes.push(home);
  const secrets = encryptedFileSecrets(home);
  await secrets.set('k', 'v');
  const path = join(home, SECRETS_FILE);
  const key = await readFile(join(home, 'secrets.key'));
  const blob = await readFile(path);
  blob[blob.length - 1] = (blob[blob.length - 1] ?? 0) ^ 1;
  await writeFile(path, blob);
  const reopened = encryptedFileSecrets(home);
  assert.equal(await reopened.get('k'), undefined);
  const [aside] = (await readdir(home)).filter((name) => name.startsWith(`${SECRETS_FILE}.damaged-`));
  assert.ok(aside, 'the damaged file is kept aside');
  assert.deepEqual(await readFile(join(home, aside)), blob);
  await reopened.set('k2', 'v2');
  assert.deepEqual(await readFile(join(home, aside)), blob, 'a later write never touches the copy');
  assert.deepEqual(await readFile(join(home, 'secrets.key')), key, 'the key is never replaced');
});
