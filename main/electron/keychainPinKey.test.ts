import assert from 'node:assert/strict';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { dataFileProblems } from '../store/dataFile.ts';
import { desktopLaunchPinKeys, KEYCHAIN_PIN_KEY_FILE, keychainPinKey } from './keychainPinKey.ts';
import type { SafeStorageBackend } from './safeStorageSecrets.ts';

/** A keychain stand-in: a reversible scramble behind a tag it checks, as a real keychain refuses what it did not wrap. */
const keychain: SafeStorageBackend = {
  isAsyncEncryptionAvailable: async () => true,
  encryptStringAsync: async (plain) => Buffer.concat([Buffer.from('KEYCHAIN'), Buffer.from(Buffer.from(plain).map((b) => b ^ 0x33))]),
  decryptStringAsync: async (blob) => {
    if (!blob.subarray(0, 8).equals(Buffer.from('KEYCHAIN'))) throw new Error('not ours');
    return { result: Buffer.from(blob.subarray(8).map((b) => b ^ 0x33)).toString(), shouldReEncrypt: false };
  },
  getSelectedStorageBackend: () => 'gnome_libsecret',
};

test('the key is made once, kept only as the keychain’s ciphertext, and the same on every later run', async () => {
  const home = await makeTempDir('atrium-pin-key-');
  try {
    const first = await keychainPinKey(home, keychain)();
    assert.equal(first.length, 32);
    const onDisk = await readFile(join(home, KEYCHAIN_PIN_KEY_FILE));
    assert.ok(!onDisk.includes(first.toString('base64')), 'the key is never on disk in clear');
    assert.deepEqual(await keychainPinKey(home, keychain)(), first);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('a key file the keychain cannot open is set aside and reported, and a new key is made: nothing signed before counts', async () => {
  const home = await makeTempDir('atrium-pin-key-');
  try {
    const before = await keychainPinKey(home, keychain)();
    await writeFile(join(home, KEYCHAIN_PIN_KEY_FILE), 'written by someone else');
    const after = await keychainPinKey(home, keychain)();
    assert.notDeepEqual(after, before);
    const kept = (await readdir(home)).filter((name) => name.startsWith(`${KEYCHAIN_PIN_KEY_FILE}.damaged-`));
    assert.equal(kept.length, 1);
    assert.equal(await readFile(join(home, kept[0] ?? ''), 'utf8'), 'written by someone else');
    const [problem] = dataFileProblems(home);
    assert.match(problem?.problem ?? '', /the system keychain cannot unlock it/);
    assert.match(problem?.withoutIt ?? '', /no server counts as approved in the desktop app/);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('only a real keychain gives the desktop app a key of its own; without one it uses the data folder’s, as the command line does', () => {
  assert.ok(desktopLaunchPinKeys('/nowhere', keychain, { kind: 'keychain' })?.alsoSignWith?.length === 1);
  assert.equal(desktopLaunchPinKeys('/nowhere', keychain, { kind: 'weak', backend: 'basic_text', warning: '' }), undefined);
  assert.equal(desktopLaunchPinKeys('/nowhere', keychain, { kind: 'unavailable', warning: '' }), undefined);
});
