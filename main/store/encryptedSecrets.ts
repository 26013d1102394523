// Keys the person enters in the window, kept encrypted at rest: AES-256-GCM over the whole table, in
// one file beside the other data. The data key is supplied by a KeyProtector: the Electron shell keeps
// it wrapped by the OS keychain (main/electron/safeStorageSecrets.ts, its own `secrets.keychain.enc`);
// the browser mode keeps it in `secrets.key`, readable by this user only (0600), which protects against
// copies of the data folder but not against this user.
// Values never leave this module except to the provider that asks for one by name.

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomically } from '../mcp/config/serversFile.ts';
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

/** The browser mode's key: random, in a file only this user can read. */
export function fileKeyProtector(home: string): KeyProtector {
  let key: Promise<Buffer> | undefined;
  return {
    dataKey: () =>
      (key ??= (async () => {
        const path = join(home, KEY_FILE);
        try {
          const stored = Buffer.from((await readFile(path, 'utf8')).trim(), 'base64');
          if (stored.length === 32) return stored;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        }
        const fresh = randomBytes(32);
        await writeFileAtomically(path, fresh.toString('base64'), { backup: false });
        await chmod(path, 0o600);
        return fresh;
      })()),
  };
}

export function encryptedFileSecrets(home: string, protector: KeyProtector = fileKeyProtector(home), fileName: string = SECRETS_FILE): WritableSecrets {
  const path = join(home, fileName);
  // Writes run one after another, so two quick changes cannot lose one another.
  let queue: Promise<unknown> = Promise.resolve();

  const load = async (): Promise<Record<string, string>> => {
    let blob: Buffer;
    try {
      blob = await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw error;
    }
    const key = await protector.dataKey();
    const iv = blob.subarray(0, 12);
    const tag = blob.subarray(12, 28);
    const decipher = createDecipheriv('aes-256-gcm', key, iv);
    decipher.setAuthTag(tag);
    const plain = Buffer.concat([decipher.update(blob.subarray(28)), decipher.final()]);
    return JSON.parse(plain.toString('utf8')) as Record<string, string>;
  };

  const store = async (table: Record<string, string>): Promise<void> => {
    if (Object.keys(table).length === 0) {
      await rm(path, { force: true });
      return;
    }
    const key = await protector.dataKey();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(table), 'utf8'), cipher.final()]);
    await writeFileAtomically(path, Buffer.concat([iv, cipher.getAuthTag(), body]), { backup: false });
    await chmod(path, 0o600);
  };

  const change = (apply: (table: Record<string, string>) => void) => {
    const next = queue.then(async () => {
      const table = await load();
      apply(table);
      await store(table);
    });
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
