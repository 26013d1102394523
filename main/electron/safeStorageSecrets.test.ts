import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { KEYCHAIN_KEY_FILE, KEYCHAIN_SECRETS_FILE, keyProtectionOf, openKeychainSecrets } from './safeStorageSecrets.ts';
import type { SafeStorageBackend } from './safeStorageSecrets.ts';

const apiKey = 'sk-ant-api03-very-secret-value-0123456789';

/**
 * A stand-in for Electron's safeStorage: a reversible scramble (never the plaintext) that records every
 * string it was asked to encrypt, so a test can see exactly what reached the keychain.
 */
function fakeSafeStorage(options: { available?: boolean; linuxBackend?: ReturnType<SafeStorageBackend['getSelectedStorageBackend']>; rotate?: boolean } = {}) {
  const given: string[] = [];
  let backendAsked = 0;
  const scramble = (bytes: Buffer) => Buffer.from(bytes.map((b) => b ^ 0x5a));
  const backend: SafeStorageBackend = {
    isAsyncEncryptionAvailable: async () => options.available ?? true,
    encryptStringAsync: async (plain) => {
      given.push(plain);
      return Buffer.concat([Buffer.from('FAKE'), scramble(Buffer.from(plain, 'utf8'))]);
    },
    decryptStringAsync: async (blob) => {
      if (!blob.subarray(0, 4).equals(Buffer.from('FAKE'))) throw new Error('not ours');
      return { result: scramble(blob.subarray(4)).toString('utf8'), shouldReEncrypt: options.rotate ?? false };
    },
    getSelectedStorageBackend: () => {
      backendAsked++;
      return options.linuxBackend ?? 'gnome_libsecret';
    },
  };
  return { backend, given, backendAsked: () => backendAsked };
}

/** Runs `work` in a fresh temporary data folder, removed afterwards. */
async function withHome(work: (home: string) => Promise<void>): Promise<void> {
  const home = await makeTempDir('atrium-keychain-');
  try {
    await work(home);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

async function everyFile(dir: string): Promise<Buffer[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return Promise.all(entries.filter((e) => e.isFile()).map((e) => readFile(join(e.parentPath, e.name))));
}

/** Runs `work` with every console method recording instead of printing. */
async function capturingConsole(work: () => Promise<void>): Promise<string> {
  const methods = ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const;
  const saved = methods.map((name) => console[name]);
  let written = '';
  for (const name of methods) console[name] = (...args: unknown[]) => void (written += `${args.map(String).join(' ')}\n`);
  try {
    await work();
  } finally {
    methods.forEach((name, index) => (console[name] = saved[index]!));
  }
  return written;
}

test('a key is kept encrypted: no file holds it or the data key in the clear, and the keychain never sees it', async () => {
  await withHome(async (home) => {
    const safe = fakeSafeStorage();
    const logged = await capturingConsole(async () => {
      const { store, protection } = await openKeychainSecrets(home, safe.backend, 'linux');
      assert.deepEqual(protection, { kind: 'keychain' });
      await store!.set('claude', apiKey);
      assert.equal(await store!.get('claude'), apiKey);
    });
    // The keychain was handed one thing: the 32-byte data key, never the API key.
    assert.equal(safe.given.length, 1);
    assert.equal(Buffer.from(safe.given[0]!, 'base64').length, 32);
    assert.ok(!safe.given.some((plain) => plain.includes(apiKey)));
    const dataKey = Buffer.from(safe.given[0]!, 'base64');
    for (const bytes of await everyFile(home)) {
      assert.ok(!bytes.includes(Buffer.from(apiKey)), 'no file holds the API key');
      assert.ok(!bytes.includes(Buffer.from(safe.given[0]!)), 'no file holds the data key as text');
      assert.ok(!bytes.includes(dataKey), 'no file holds the data key as bytes');
    }
    assert.deepEqual((await readdir(home)).sort(), [KEYCHAIN_SECRETS_FILE, KEYCHAIN_KEY_FILE].sort());
    assert.equal((await stat(join(home, KEYCHAIN_KEY_FILE))).mode & 0o777, 0o600);
    assert.equal((await stat(join(home, KEYCHAIN_SECRETS_FILE))).mode & 0o777, 0o600);
    assert.doesNotMatch(logged, new RegExp(apiKey));
    assert.equal(logged, '', 'nothing is logged at all');
  });
});

test('the next run unwraps the same data key through the keychain and reads the keys back', async () => {
  await withHome(async (home) => {
    const first = fakeSafeStorage();
    await (await openKeychainSecrets(home, first.backend, 'darwin')).store!.set('openai', apiKey);
    const second = fakeSafeStorage();
    const { store } = await openKeychainSecrets(home, second.backend, 'darwin');
    assert.equal(await store!.get('openai'), apiKey);
    assert.deepEqual(await store!.names(), ['openai']);
    assert.deepEqual(second.given, [], 'nothing new was wrapped');
    await store!.delete('openai');
    assert.equal(await store!.get('openai'), undefined);
  });
});

test('when the keychain rotates its key, the data key is wrapped again (same key, new ciphertext)', async () => {
  await withHome(async (home) => {
    const first = fakeSafeStorage();
    await (await openKeychainSecrets(home, first.backend, 'win32')).store!.set('claude', apiKey);
    const rotating = fakeSafeStorage({ rotate: true });
    assert.equal(await (await openKeychainSecrets(home, rotating.backend, 'win32')).store!.get('claude'), apiKey);
    assert.deepEqual(rotating.given, first.given);
  });
});

test('a wrapped key the keychain cannot open gives a sentence, not a crash of the whole app', async () => {
  await withHome(async (home) => {
    await (await openKeychainSecrets(home, fakeSafeStorage().backend, 'linux')).store!.set('claude', apiKey);
    const other = fakeSafeStorage();
    other.backend.decryptStringAsync = async () => {
      throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    };
    await assert.rejects((await openKeychainSecrets(home, other.backend, 'linux')).store!.get('claude'), /could not unlock the keys Atrium saved before/);
  });
});

test('on Linux, the basic_text fallback (and an unidentified backend) is reported as weak, with a warning to show', async () => {
  for (const linuxBackend of ['basic_text', 'unknown'] as const) {
    const protection = await keyProtectionOf(fakeSafeStorage({ linuxBackend }).backend, 'linux');
    assert.equal(protection.kind, 'weak', linuxBackend);
    assert.match(protection.kind === 'weak' ? protection.warning : '', /fixed, publicly known password/);
    assert.match(protection.kind === 'weak' ? protection.warning : '', /ATRIUM_SECRET_<NAME>/);
  }
  for (const linuxBackend of ['gnome_libsecret', 'kwallet', 'kwallet5', 'kwallet6'] as const) {
    assert.deepEqual(await keyProtectionOf(fakeSafeStorage({ linuxBackend }).backend, 'linux'), { kind: 'keychain' }, linuxBackend);
  }
});

test('a weak backend still gives a store (the person may accept it) but reports the warning with it', async () => {
  await withHome(async (home) => {
    const opened = await openKeychainSecrets(home, fakeSafeStorage({ linuxBackend: 'basic_text' }).backend, 'linux');
    assert.equal(opened.protection.kind, 'weak');
    assert.ok(opened.store);
    assert.deepEqual(await readdir(home), [], 'opening the store writes nothing');
  });
});

test('macOS and Windows never ask for the Linux backend; without encryption there is no store at all', async () => {
  const safe = fakeSafeStorage({ linuxBackend: 'basic_text' });
  assert.deepEqual(await keyProtectionOf(safe.backend, 'darwin'), { kind: 'keychain' });
  assert.deepEqual(await keyProtectionOf(safe.backend, 'win32'), { kind: 'keychain' });
  assert.equal(safe.backendAsked(), 0);
  const none = await openKeychainSecrets('/nonexistent', fakeSafeStorage({ available: false }).backend, 'linux');
  assert.equal(none.store, undefined);
  assert.equal(none.protection.kind, 'unavailable');
  assert.match(none.protection.kind === 'unavailable' ? none.protection.warning : '', /cannot be kept/);
});
