// Keys the person enters in the window, kept encrypted at rest: AES-256-GCM over the whole table, in
// one file beside the other data. The data key is supplied by a KeyProtector: the Electron shell keeps
// it wrapped by the OS keychain (main/electron/safeStorageSecrets.ts, its own `secrets.keychain.enc`);
// the browser mode keeps it in `secrets.key`, readable by this user only (0600), which protects against
// copies of the data folder but not against this user.
// Values never leave this module except to the provider that asks for one by name.

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { createFileOnce } from './createOnce.ts';
import { DamagedData, readDataFile, writeFileAtomically } from './dataFile.ts';
import { withFileLock } from './fileLock.ts';
import type { SecretSource } from './secrets.ts';

export interface WritableSecrets extends SecretSource {
  set(name: string, value: string): Promise<void>;
  delete(name: string): Promise<void>;
  /** Which secrets are set (names only: values are never listed). */
  names(): Promise<string[]>;
}

/** Produces the 32-byte data key, creating it on first use. */
export interface KeyProtector {
  dataKey(): Promise<Buffer>;
}

export const SECRETS_FILE = 'secrets.enc';
const KEY_FILE = 'secrets.key';

/**
 * The browser mode's key: random, in a file only this user can read. It also signs the command line's
 * and the browser mode's launch approvals. An existing key is never replaced: a damaged one is moved
 * aside (with the secrets it encrypts, which no other key can open) before a new one is made, so
 * restoring both brings every stored key back.
 */
export function fileKeyProtector(home: string): KeyProtector {
  const path = join(home, KEY_FILE);
  let key: Promise<Buffer> | undefined;
  return {
    dataKey: () =>
      (key ??= (async () => {
        const stored = await readKey(home, path);
        if (stored) return stored;
        // Made only where none is: another Atrium on this folder may be making one at this moment, and
        // then its key is the one to use.
        await createFileOnce(path, randomBytes(32).toString('base64'));
        const made = await readKey(home, path);
        if (!made) throw new Error(`Atrium could not keep a key in ${path}: the file it made could not be read back`);
        return made;
      })()),
  };
}

function readKey(home: string, path: string): Promise<Buffer | undefined> {
  return readDataFile({
    path,
    withoutIt: `the API keys and sign-ins stored in Atrium (${SECRETS_FILE}) cannot be decrypted without it, so Atrium started without them; and no server counts as approved (each asks you again before it starts)`,
    // What it protects goes aside with it: a new key could never open it, and restoring the pair restores both.
    companions: [join(home, SECRETS_FILE)],
    recovery: (keptAt, _lastGood, [secretsKeptAt]) => [
      `Put the key back: restore ${KEY_FILE} from a backup (or move ${keptAt ? basename(keptAt) : KEY_FILE} back if it is intact)` +
        `${secretsKeptAt ? `, move ${basename(secretsKeptAt)} back to ${SECRETS_FILE}` : ''}, then restart Atrium.`,
      'Carry on without them: enter your API keys again in Settings, sign in to your servers again, and approve each server again when Atrium asks.',
    ],
    parse: (bytes) => {
      const text = bytes.toString('latin1').trim();
      if (!/^[A-Za-z0-9+/]{43}=$/.test(text)) throw new DamagedData(bytes.length === 0 ? 'the file is empty' : `it does not hold a key (${bytes.length} bytes, not the 44 characters of one)`);
      return Buffer.from(text, 'base64');
    },
  });
}

export function encryptedFileSecrets(home: string, protector: KeyProtector = fileKeyProtector(home), fileName: string = SECRETS_FILE): WritableSecrets {
  const path = join(home, fileName);
  // Writes run one after another, so two quick changes cannot lose one another (nor two processes', under the lock).
  let queue: Promise<unknown> = Promise.resolve();

  const load = async (): Promise<Record<string, string>> =>
    (await readDataFile({
      path,
      withoutIt: 'Atrium started without the API keys and sign-ins stored in it',
      recovery: () => [`Restore ${fileName} from a backup, then restart Atrium.`, 'Carry on without them: enter your API keys again in Settings and sign in to your servers again.'],
      parse: async (blob) => {
        if (blob.length < 29) throw new DamagedData(blob.length === 0 ? 'the file is empty' : `it is too short to hold encrypted keys (${blob.length} bytes)`);
        // The key comes first: a keychain that cannot give it is not damage to this file, and is thrown as it is.
        const key = await protector.dataKey();
        let plain: Buffer;
        try {
          const decipher = createDecipheriv('aes-256-gcm', key, blob.subarray(0, 12));
          decipher.setAuthTag(blob.subarray(12, 28));
          plain = Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]);
        } catch {
          throw new DamagedData(`it cannot be decrypted with the key Atrium has: it is damaged, or it was written with another key`);
        }
        let table: unknown;
        try {
          table = JSON.parse(plain.toString('utf8'));
        } catch {
          throw new DamagedData('its decrypted content is not a table of keys');
        }
        if (typeof table !== 'object' || table === null || Array.isArray(table) || !Object.values(table).every((v) => typeof v === 'string')) {
          throw new DamagedData('its decrypted content is not a table of keys');
        }
        return table as Record<string, string>;
      },
    })) ?? {};

  const store = async (table: Record<string, string>): Promise<void> => {
    if (Object.keys(table).length === 0) {
      await rm(path, { force: true });
      return;
    }
    const key = await protector.dataKey();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(table), 'utf8'), cipher.final()]);
    await writeFileAtomically(path, Buffer.concat([iv, cipher.getAuthTag(), body]));
  };

  const change = (apply: (table: Record<string, string>) => void) => {
    // Under the file's lock: a key or sign-in another Atrium stored meanwhile is read, and kept.
    const next = queue.then(() =>
      withFileLock(path, async () => {
        const table = await load();
        apply(table);
        await store(table);
      }),
    );
    queue = next.catch(() => undefined);
    return next;
  };

  return {
    get: async (name) => {
      await queue;
      const value = (await load())[name];
      return value === undefined || value === '' ? undefined : value;
    },
    set: (name, value) => change((table) => void (table[name] = value)),
    delete: (name) => change((table) => void delete table[name]),
    names: async () => {
      await queue;
      return Object.keys(await load()).sort();
    },
  };
}
