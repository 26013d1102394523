// One host per data folder: two hosts on the same folder would each start every server, answer the same
// conversations and overwrite each other's files. The host that runs holds `host.lock` in the folder,
// naming its process and, once it listens, its address (never its token: the file is plain text). A
// lock whose process is gone (a crash, a kill -9) is stale and taken over.

import { readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { prepareDataFolder, writeFileAtomically } from './dataFile.ts';

export const LOCK_FILE_NAME = 'host.lock';

/** Which window host holds the folder: the browser mode serves an address, the desktop app has a window. */
export type HostFrontEnd = 'browser' | 'desktop';

/** Who holds a data folder: enough for a second start to say where the first one runs. */
export interface LockHolder {
  pid: number;
  frontEnd: HostFrontEnd;
  /** Where the window is served (no token), once the host listens; null while it starts. */
  address: string | null;
  startedAt: string;
}

export interface DataFolderLock {
  /** Records where the host can be reached, for a second start to point to. */
  setAddress(address: string): Promise<void>;
  /**
   * Gives the folder up (only if this process still holds it). Synchronous, so that it can run in an
   * `exit` handler and every way out of the process releases the folder.
   */
  release(): void;
}

export type LockAttempt = { lock: DataFolderLock } | { heldBy: LockHolder };

export async function lockDataFolder(home: string, frontEnd: HostFrontEnd): Promise<LockAttempt> {
  await prepareDataFolder(home);
  const path = join(home, LOCK_FILE_NAME);
  const mine: LockHolder = { pid: process.pid, frontEnd, address: null, startedAt: new Date().toISOString() };
  // Two attempts: a stale lock is removed after the first.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (await createExclusively(path, mine)) return { lock: heldLock(path, mine) };
    const holder = await readHolder(path);
    if (holder && (await isAlive(holder))) return { heldBy: holder };
    await rm(path, { force: true });
  }
  const holder = await readHolder(path);
  if (holder) return { heldBy: holder };
  throw new Error(`another Atrium is starting on this data folder (${path} keeps appearing); try again in a moment`);
}

/** The host that holds the folder and still runs, if any; for a front end that only checks (the CLI). */
export async function runningHost(home: string): Promise<LockHolder | null> {
  const holder = await readHolder(join(home, LOCK_FILE_NAME));
  return holder && (await isAlive(holder)) ? holder : null;
}

/** One sentence naming the host that holds the folder and where to find it (never its token). */
export function alreadyRunningSentence(home: string, holder: LockHolder): string {
  if (holder.frontEnd === 'desktop') return `Atrium's desktop app already runs on the data folder ${home} (process ${holder.pid}).`;
  const where = holder.address ? `at ${holder.address} (process ${holder.pid})` : `(process ${holder.pid}, still starting)`;
  return `Atrium already runs on the data folder ${home} ${where}.`;
}

/** Writes the whole lock to a private file, then links it into place: it appears complete or not at all. */
async function createExclusively(path: string, holder: LockHolder): Promise<boolean> {
  const temp = `${path}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(holder), { mode: 0o600 });
  try {
    await link(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    await rm(temp, { force: true });
  }
}

async function readHolder(path: string): Promise<LockHolder | null> {
  return parseHolder(await readFile(path, 'utf8').catch(() => null));
}

function readFileOrNull(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function parseHolder(text: string | null): LockHolder | null {
  if (text === null) return null;
  try {
    const parsed = JSON.parse(text) as Partial<LockHolder>;
    if (typeof parsed.pid !== 'number' || !Number.isInteger(parsed.pid) || parsed.pid <= 0) return null;
    return { pid: parsed.pid, frontEnd: parsed.frontEnd === 'desktop' ? 'desktop' : 'browser', address: typeof parsed.address === 'string' ? parsed.address : null, startedAt: typeof parsed.startedAt === 'string' ? parsed.startedAt : '' };
  } catch {
    // Unreadable or not ours: nothing can be said of its holder, so it does not keep the folder.
    return null;
  }
}

/**
 * The holder's process still runs and, when it said where it listens, something listens there: a pid
 * reused by an unrelated process after a crash does not keep the folder locked.
 */
async function isAlive(holder: LockHolder): Promise<boolean> {
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  if (!holder.address) return true;
  return isListening(new URL(holder.address));
}

function isListening(address: URL): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: address.hostname.replace(/^\[|\]$/g, ''), port: Number(address.port) });
    socket.setTimeout(1_000);
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    // A slow answer is a busy host, not a dead one.
    socket.once('timeout', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

function heldLock(path: string, holder: LockHolder): DataFolderLock {
  let current = holder;
  const stillMine = () => parseHolder(readFileOrNull(path))?.pid === process.pid;
  return {
    setAddress: async (address) => {
      current = { ...current, address };
      if (stillMine()) await writeFileAtomically(path, JSON.stringify(current));
    },
    release: () => {
      if (stillMine()) rmSync(path, { force: true });
    },
  };
}
