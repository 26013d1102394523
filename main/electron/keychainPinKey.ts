// The desktop app's launch-approval key: 32 random bytes kept on disk only as safeStorage's ciphertext
// (`launch-approvals.keychain.key`), so only the OS keychain can give it back; anything that writes the
// data folder cannot sign an approval the app believes. A file the keychain cannot open (damaged, from
// another computer, or from a keychain since reset) is set aside and a new key made: every server then
// asks once again, which is the safe way to fail.

import { randomBytes } from 'node:crypto';
import { basename, join } from 'node:path';
import { createFileOnce } from '../store/createOnce.ts';
import { DamagedData, readDataFile } from '../store/dataFile.ts';
import type { LaunchPinKeys } from '../app/hostCore.ts';
import { fileKeyProtector } from '../store/encryptedSecrets.ts';
import type { KeyProtection, SafeStorageBackend } from './safeStorageSecrets.ts';

export const KEYCHAIN_PIN_KEY_FILE = 'launch-approvals.keychain.key';

/**
 * With a real keychain, the app believes only approvals signed with the keychain's key, and signs each
 * also with the data folder's own key (`secrets.key`), so the command line and the browser mode take the
 * app's approvals as theirs (not the other way). Without one (none, or Linux's basic_text, whose password
 * is public), it uses the folder's key as they do: nothing stronger is at hand.
 */
export function desktopLaunchPinKeys(home: string, backend: SafeStorageBackend, protection: KeyProtection): LaunchPinKeys | undefined {
  if (protection.kind !== 'keychain') return undefined;
  return { own: keychainPinKey(home, backend), alsoSignWith: [fileKeyProtector(home).dataKey] };
}

/** The key, unwrapped by the keychain; made (and wrapped) on first use. */
export function keychainPinKey(home: string, backend: SafeStorageBackend): () => Promise<Buffer> {
  const path = join(home, KEYCHAIN_PIN_KEY_FILE);
  let key: Promise<Buffer> | undefined;
  const read = () =>
    readDataFile({
      path,
      withoutIt: 'no server counts as approved in the desktop app: each asks for your approval again before it starts',
      recovery: (keptAt) => [
        ...(keptAt ? [`If the keychain was only locked or unavailable: quit Atrium, move ${basename(keptAt)} back to ${KEYCHAIN_PIN_KEY_FILE}, then start Atrium again.`] : []),
        'Or carry on: approve each server again when Atrium asks.',
      ],
      parse: async (wrapped) => {
        let unwrapped;
        try {
          unwrapped = await backend.decryptStringAsync(wrapped);
        } catch {
          throw new DamagedData('the system keychain cannot unlock it (it is damaged, or the keychain was reset since)');
        }
        const bytes = Buffer.from(unwrapped.result, 'base64');
        if (bytes.length !== 32) throw new DamagedData('it does not hold a key Atrium made');
        return bytes;
      },
    });
  return () =>
    (key ??= (async () => {
      const stored = await read();
      if (stored) return stored;
      await createFileOnce(path, await backend.encryptStringAsync(randomBytes(32).toString('base64')));
      const made = await read();
      if (!made) throw new Error(`Atrium could not keep the key of its launch approvals in ${path}: the file it made could not be read back`);
      return made;
    })());
}
