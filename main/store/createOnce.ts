// A file made once and never replaced: a key. Two processes (the command line beside the window) that
// both find it missing must not each keep a key of their own, one of them lost with what it encrypted or
// signed: the new file is linked into place only where nothing is, and the one that comes second uses
// what the first made. Written in full and synced before it appears, so a crash never leaves half a key.

import { randomUUID } from 'node:crypto';
import { constants } from 'node:fs';
import { link, mkdir, open, rm } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Creates `path` with `data` (0600) unless it exists; true when this call made it. */
export async function createFileOnce(path: string, data: string | Uint8Array): Promise<boolean> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${randomUUID()}.tmp`;
  await writeSynced(temp, data, 'wx');
  let created: boolean;
  try {
    await link(temp, path);
    created = true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') created = false;
    // A file system without hard links: an exclusive create does the same, without the crash safety.
    else if (code === 'EPERM' || code === 'ENOTSUP' || code === 'EXDEV' || code === 'ENOSYS') created = await writeSynced(path, data, 'wx').then(() => true, exists);
    else throw error;
  } finally {
    await rm(temp, { force: true });
  }
  await syncFolder(dirname(path));
  return created;
}

async function writeSynced(path: string, data: string | Uint8Array, flags: string): Promise<void> {
  const handle = await open(path, flags, 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function exists(error: unknown): false {
  if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
  throw error;
}

async function syncFolder(folder: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(folder, constants.O_RDONLY).catch(() => null);
  await handle?.sync().catch(() => undefined);
  await handle?.close();
}
