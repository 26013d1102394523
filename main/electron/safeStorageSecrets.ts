// The desktop app's key store: the same encrypted table as the browser mode (encryptedSecrets.ts), but
// its data key is kept only as ciphertext made by Electron's safeStorage, i.e. by the OS keychain
// (macOS Keychain, Windows DPAPI, the Secret Service or KWallet on Linux). Nothing on disk is plaintext:
// `secrets.keychain.key` holds the wrapped data key, `secrets.keychain.enc` the AES-256-GCM table.
// safeStorage only ever sees the data key, never an API key.
//
// On Linux without a keychain, safeStorage falls back to "basic_text": a fixed, publicly known password.
// That is not silently accepted: the store reports it, Settings shows the warning, and a key is stored
// only when the person agrees (main/api/settingsApi.ts).
import { randomBytes } from 'node:crypto';
import { chmod, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SafeStorage } from 'electron';
import { writeFileAtomically } from '../store/dataFile.ts';
import { encryptedFileSecrets } from '../store/encryptedSecrets.ts';
import type { KeyProtector, WritableSecrets } from '../store/encryptedSecrets.ts';

/** The parts of Electron's safeStorage the store uses; tests give a fake that records what it is handed. */
export type SafeStorageBackend = Pick<SafeStorage, 'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync' | 'getSelectedStorageBackend'>;

export const KEYCHAIN_SECRETS_FILE = 'secrets.keychain.enc';
export const KEYCHAIN_KEY_FILE = 'secrets.keychain.key';

export type KeyProtection =
  | { kind: 'keychain' }
  /** Encryption works, but with a key anyone can know: storing needs the person's agreement. */
  | { kind: 'weak'; backend: string; warning: string }
  | { kind: 'unavailable'; warning: string };

export interface KeychainSecrets {
  /** Absent when nothing can be stored (no encryption at all). */
  store?: WritableSecrets;
  protection: KeyProtection;
}

const environmentHint = 'set the key in the environment instead (ATRIUM_SECRET_<NAME>, e.g. ATRIUM_SECRET_CLAUDE)';

/** How well safeStorage protects what it encrypts on this system. Call after the app is ready. */
export async function keyProtectionOf(backend: SafeStorageBackend, platform: NodeJS.Platform): Promise<KeyProtection> {
  if (!(await backend.isAsyncEncryptionAvailable())) {
    return { kind: 'unavailable', warning: `Atrium cannot use this system’s keychain, so keys typed here cannot be kept: ${environmentHint}.` };
  }
  if (platform !== 'linux') return { kind: 'keychain' };
  const selected = backend.getSelectedStorageBackend();
  // "unknown" means the keychain could not be identified: it is not claimed to be safe either.
  if (selected === 'basic_text' || selected === 'unknown') {
    return {
      kind: 'weak',
      backend: selected,
      warning:
        `No keychain is available to Atrium on this system (safeStorage chose “${selected}”), so a key stored here would be ` +
        `encrypted with a fixed, publicly known password: anything that can read your files could read it. You can ${environmentHint}, ` +
        'or store keys here anyway.',
    };
  }
  return { kind: 'keychain' };
}

/** The data key, kept on disk only as safeStorage's ciphertext (0600), made on first use. */
export function safeStorageKeyProtector(home: string, backend: SafeStorageBackend): KeyProtector {
  const path = join(home, KEYCHAIN_KEY_FILE);
  const save = async (key: Buffer) => {
    await writeFileAtomically(path, await backend.encryptStringAsync(key.toString('base64')));
    await chmod(path, 0o600);
  };
  let key: Promise<Buffer> | undefined;
  return {
    dataKey: () =>
      (key ??= (async () => {
        let wrapped: Buffer | undefined;
        try {
          wrapped = await readFile(path);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
        if (wrapped) {
          let unwrapped;
          try {
            unwrapped = await backend.decryptStringAsync(wrapped);
          } catch {
            throw new Error('The system keychain could not unlock the keys Atrium saved before (the keychain or its password changed); save the keys again in Settings.');
          }
          const stored = Buffer.from(unwrapped.result, 'base64');
          if (stored.length !== 32) throw new Error(`${KEYCHAIN_KEY_FILE} does not hold a key Atrium made; remove it and save the keys again in Settings.`);
          // The keychain rotated its own key: wrap ours again with the new one.
          if (unwrapped.shouldReEncrypt) await save(stored);
          return stored;
        }
        const fresh = randomBytes(32);
        await save(fresh);
        return fresh;
      })()),
  };
}

export async function openKeychainSecrets(home: string, backend: SafeStorageBackend, platform: NodeJS.Platform = process.platform): Promise<KeychainSecrets> {
  const protection = await keyProtectionOf(backend, platform);
  if (protection.kind === 'unavailable') return { protection };
  return { store: encryptedFileSecrets(home, safeStorageKeyProtector(home, backend), KEYCHAIN_SECRETS_FILE), protection };
}
