// One writer at a time per data file, across every Atrium process (the window's host, `atrium import`,
// another command): a change reads the file, changes what it read and writes it back while it holds
// `NAME.lock`, so no writer ever writes over what another wrote after it read. The lock appears whole or
// not at all (written aside, then linked into place) and names its holder's process; a lock whose
// process is gone (a crash, a kill -9) is stale and taken over; one held past the wait is an error that
// says who holds it, never a hang.

import { randomUUID } from 'node:crypto';
import { link, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { basename, resolve } from 'node:path';
import { setTimeout as pause } from 'node:timers/promises';
import { KeyedQueue } from '../keyedQueue.ts';
import { writeFailure } from './writeFailure.ts';

/** How long a change waits for a lock held by another process before it gives up. */
export const LOCK_WAIT_MS = 10_000;

/** The file stayed locked by another process for the whole wait; nothing was changed. */
export class FileBusyError extends Error {
  readonly code = 'failed';
}

// Within one process, changes to a file queue here instead of polling their own lock.
const queue = new KeyedQueue();
let sequence = 0;

/** Runs `work` while this process holds the file's lock; the lock is given up however `work` ends. */
export function withFileLock<T>(path: string, work: () => Promise<T>, options: { waitMs?: number } = {}): Promise<T> {
  const key = resolve(path);
  return queue.run(key, async () => {
    const release = await acquire(key, options.waitMs ?? LOCK_WAIT_MS);
    try {
      return await work();
    } finally {
      await release();
    }
  });
}

/** Whether a process with this id runs (one that exists but is another user's counts). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function acquire(path: string, waitMs: number): Promise<() => Promise<void>> {
  const lock = `${path}.lock`;
  const mine = JSON.stringify({ pid: process.pid, token: randomUUID() });
  const deadline = Date.now() + waitMs;
  for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
    if (await createExclusively(lock, mine)) return () => releaseIfMine(lock, mine);
    const held = await readFile(lock, 'utf8').catch(() => null);
    // Given up meanwhile: try again at once.
    if (held === null) continue;
    const holder = holderOf(held);
    if (holder === undefined || !isRunning(holder)) {
      await takeOver(lock, held);
      continue;
    }
    if (Date.now() >= deadline) {
      throw new FileBusyError(
        `${basename(path)} is being changed by another Atrium (process ${holder}) and was not free within ${waitMs >= 1000 ? `${Math.round(waitMs / 1000)} s` : `${waitMs} ms`}, so nothing was changed; try again (if no other Atrium runs, delete ${basename(lock)})`,
      );
    }
    await pause(wait);
  }
}

async function createExclusively(lock: string, content: string): Promise<boolean> {
  const temp = `${lock}.${process.pid}.${++sequence}.tmp`;
  try {
    await writeFile(temp, content, { mode: 0o600 });
    await link(temp, lock);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // The file itself is what the person wanted saved, so the sentence names it.
    throw writeFailure(lock.slice(0, -'.lock'.length), error);
  } finally {
    await rm(temp, { force: true });
  }
}

function holderOf(text: string): number | undefined {
  try {
    const { pid } = JSON.parse(text) as { pid?: unknown };
    return typeof pid === 'number' && Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    // Not a lock Atrium wrote whole: nobody holds it.
    return undefined;
  }
}

/**
 * Removes a stale lock. It is first renamed to a name of this process's own, so that of two processes
 * taking over the same stale lock only one removes it; if what was renamed is no longer the stale lock
 * (a live holder took it meanwhile), it is put back.
 */
async function takeOver(lock: string, stale: string): Promise<void> {
  const aside = `${lock}.${process.pid}.${++sequence}.stale`;
  try {
    await rename(lock, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if ((await readFile(aside, 'utf8')) !== stale) await link(aside, lock).catch(() => undefined);
  } finally {
    await rm(aside, { force: true });
  }
}

async function releaseIfMine(lock: string, mine: string): Promise<void> {
  if ((await readFile(lock, 'utf8').catch(() => null)) === mine) await rm(lock, { force: true });
}
