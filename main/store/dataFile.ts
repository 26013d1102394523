// The one way Atrium reads and writes the files in its data folder, so that a damaged file is never
// made worse and no change is lost: a file that cannot be read is moved aside byte for byte
// (`NAME.damaged-<time>`) before anything else happens, and Atrium carries on without it — or, when the
// person edits it by hand and a one-shot command (or a running window) meets it broken, it is left
// where it is and nothing writes over it; every front end says so (dataFileProblems.ts). A change is
// made to what the file holds now, under its lock (fileLock.ts), never to a copy read earlier. A write
// goes to a synced temporary file renamed over the old one, then the folder itself is synced, so a
// crash leaves the old file or the new, never half; a temporary file a killed write left is removed at
// the next start. `NAME.bak` is the last content read successfully.

import { createHash } from 'node:crypto';
import { closeSync, constants, copyFileSync, existsSync, fsyncSync, openSync, renameSync } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { fileReadableAgain, noticeDataFileProblem } from './dataFileProblems.ts';
import { isRunning, withFileLock } from './fileLock.ts';
import { writeFailure } from './writeFailure.ts';

export { dataFileProblems, describeDataFileProblem, jsonRecovery, logDataFileProblemsTo, onDataFileProblem } from './dataFileProblems.ts';

/** Thrown by a data file's parser: the file is damaged, and `message` says how, for a person. */
export class DamagedData extends Error {}

/** A change refused because the file cannot be read as it is now: Atrium writes nothing over it. */
export class DamagedFileError extends Error {
  readonly code = 'failed';
  /** The file's name in the data folder: a front end drops the refusal once that file reads again. */
  readonly dataFile: string;

  constructor(message: string, dataFile: string) {
    super(message);
    this.dataFile = dataFile;
  }
}

export interface DataFileSpec<T> {
  path: string;
  /** The file's content as Atrium uses it; throws DamagedData when the bytes cannot be that. */
  parse(bytes: Buffer): T | Promise<T>;
  /** What Atrium does without the file, e.g. "Atrium started with no servers". */
  withoutIt: string;
  /** How the person gets back what the file held, given where the damaged copy (and its companions') are. */
  recovery(keptAt: string | null, lastGood: string | null, companionsKeptAt: string[]): string[];
  /** Files that go aside with it when it is damaged (SQLite's -wal and -shm; the secrets a damaged key encrypts). */
  companions?: readonly string[];
  /** Keep `NAME.bak`, the last content read successfully (not for secrets: a deleted one must be gone). */
  keepLastGood?: boolean;
  /**
   * The person edits this file by hand (servers.json, providers.json): a one-shot command that finds it
   * damaged leaves it where it is and stops, instead of setting it aside and carrying on without it.
   */
  editedByPerson?: boolean;
  /** What a running Atrium does while the file is damaged where it is, e.g. "Atrium keeps the servers it had". */
  whileDamaged?: string;
}

/** What reading a data file came to; `digest` tells one content from another (a change made elsewhere). */
export type DataFileRead<T> = { kind: 'missing' } | { kind: 'damaged'; problem: string } | { kind: 'read'; value: T; digest: string };

/** A damaged file is 'set-aside' (moved aside, and Atrium carries on without it) or left where it is ('leave'). */
export type IfDamaged = 'set-aside' | 'leave';

let oneShot = false;

/**
 * For a front end that runs one command and ends (the CLI): a damaged file the person edits is left where
 * it is, for the command to stop on, and the problem's words say so.
 */
export function leaveDamagedFilesInPlace(): void {
  oneShot = true;
}

/** The file's content, or undefined when it is missing or was damaged (then it was reported, and moved aside unless left in place). */
export async function readDataFile<T>(spec: DataFileSpec<T>): Promise<T | undefined> {
  const read = await loadDataFile(spec);
  return read.kind === 'read' ? read.value : undefined;
}

/**
 * Reads the file. A damaged one is set aside, or with `ifDamaged: 'leave'` (and, in a one-shot process,
 * for a file the person edits) left where it is and listed until it is readable again; either way it is
 * reported.
 */
export async function loadDataFile<T>(spec: DataFileSpec<T>, options: { ifDamaged?: IfDamaged } = {}): Promise<DataFileRead<T>> {
  const ifDamaged = options.ifDamaged ?? (oneShot && spec.editedByPerson ? 'leave' : 'set-aside');
  let bytes: Buffer;
  try {
    bytes = await readFile(spec.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      fileReadableAgain(dirname(spec.path), basename(spec.path));
      return { kind: 'missing' };
    }
    return damaged(spec, code === 'EISDIR' ? 'it is a folder, not a file' : code === 'EACCES' || code === 'EPERM' ? 'Atrium is not allowed to read it' : `it cannot be read (${code ?? 'unknown error'})`, ifDamaged);
  }
  let value: T;
  try {
    value = await spec.parse(bytes);
  } catch (error) {
    if (!(error instanceof DamagedData)) throw error;
    return damaged(spec, error.message, ifDamaged);
  }
  const fingerprint = digest(bytes);
  // A last good copy that cannot be written (a full disk) does not make the file unreadable.
  if (spec.keepLastGood) await keepLastGood(spec.path, bytes, fingerprint).catch(() => undefined);
  fileReadableAgain(dirname(spec.path), basename(spec.path));
  return { kind: 'read', value, digest: fingerprint };
}

/**
 * Changes the file under its lock: `change` gets what the file holds now — never a copy read earlier,
 * which another writer (another Atrium, the person's editor) may have replaced since — and returns the
 * text to write, or undefined to leave the file as it is. A file that cannot be read now is never
 * written over: it is left where it is, reported, and the change is refused.
 */
export async function updateDataFile<T>(
  spec: DataFileSpec<T>,
  change: (current: Exclude<DataFileRead<T>, { kind: 'damaged' }>) => string | undefined | Promise<string | undefined>,
): Promise<Exclude<DataFileRead<T>, { kind: 'damaged' }>> {
  return withFileLock(spec.path, async () => {
    const current = await loadDataFile(spec, { ifDamaged: 'leave' });
    if (current.kind === 'damaged') {
      const problem = `${current.problem.charAt(0).toUpperCase()}${current.problem.slice(1)}`;
      throw new DamagedFileError(`${basename(spec.path)} cannot be read as it is now, so nothing was changed. ${problem}. Fix it, then try again.`, basename(spec.path));
    }
    const next = await change(current);
    if (next === undefined) return current;
    await writeFileAtomically(spec.path, next);
    const bytes = Buffer.from(next, 'utf8');
    return { kind: 'read', value: await spec.parse(bytes), digest: digest(bytes) };
  });
}

function damaged(spec: DataFileSpec<unknown>, problem: string, ifDamaged: IfDamaged): { kind: 'damaged'; problem: string } {
  if (ifDamaged === 'set-aside') reportDamage(spec, problem);
  else reportInPlace(spec, problem);
  return { kind: 'damaged', problem };
}

/** Lists a damaged file left where it is; it is written by nobody until it reads again. */
function reportInPlace(spec: DataFileSpec<unknown>, problem: string): void {
  const file = basename(spec.path);
  const lastGood = spec.keepLastGood && existsSync(`${spec.path}.bak`) ? [`Put back the last version Atrium read: copy ${file}.bak over ${file}.`] : [];
  noticeDataFileProblem(
    {
      file,
      problem,
      keptAt: null,
      inPlace: true,
      withoutIt: oneShot ? 'the command stopped and changed nothing' : `${spec.whileDamaged ?? 'Atrium carries on with what it read before'}, and writes nothing to it until it is fixed`,
      recovery: [oneShot ? `Fix it in ${spec.path}, then run the command again.` : `Fix it in ${spec.path}: Atrium reads it again as soon as it is saved.`, ...lastGood],
    },
    dirname(spec.path),
  );
}

/**
 * Moves the damaged file aside (or leaves it alone, never to be written, if it cannot be moved) and tells
 * every front end. Synchronous, so the database can use it while it opens.
 */
export function reportDamage(spec: Pick<DataFileSpec<unknown>, 'path' | 'withoutIt' | 'recovery' | 'companions'>, problem: string): void {
  const moved = moveAside(spec.path, spec.companions ?? []);
  // Another reader of the same file moved it first and has already said so.
  if (moved === 'gone') return;
  const { keptAt, stamp, companionsKeptAt } = moved;
  // The next successful read replaces `.bak`, so the last good copy is also kept where nothing writes.
  let lastGood: string | null = `${spec.path}.bak-${stamp}`;
  try {
    copyFileSync(`${spec.path}.bak`, lastGood, constants.COPYFILE_EXCL);
  } catch {
    lastGood = null;
  }
  if (!keptAt) untouchable.add(spec.path);
  noticeDataFileProblem({ file: basename(spec.path), problem, keptAt, withoutIt: spec.withoutIt, recovery: spec.recovery(keptAt, lastGood, companionsKeptAt) }, dirname(spec.path));
}

/**
 * Renames `path` to `path.damaged-<time>`, and each companion that exists to `companion.damaged-<time>`
 * (the same time, so the set is easy to put back); never over an existing file. 'gone' when it is no
 * longer there.
 */
function moveAside(path: string, companions: readonly string[]): { keptAt: string | null; stamp: string; companionsKeptAt: string[] } | 'gone' {
  const now = new Date().toISOString().replace(/[:.]/g, '-');
  let stamp = now;
  for (let n = 2; existsSync(`${path}.damaged-${stamp}`); n++) stamp = `${now}-${n}`;
  const target = `${path}.damaged-${stamp}`;
  try {
    renameSync(path, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'gone';
    return { keptAt: null, stamp, companionsKeptAt: [] };
  }
  const companionsKeptAt: string[] = [];
  for (const companion of companions) {
    const moved = `${companion}.damaged-${stamp}`;
    if (!existsSync(companion) || existsSync(moved)) continue;
    try {
      renameSync(companion, moved);
      companionsKeptAt.push(moved);
    } catch {
      // Left where it is: the main file's copy is what matters.
    }
  }
  syncFolderNow(dirname(path));
  return { keptAt: target, stamp, companionsKeptAt };
}

async function keepLastGood(path: string, bytes: Buffer, fingerprint: string): Promise<void> {
  // Reading back what this process wrote is not a read of the person's file: `.bak` keeps what was there before.
  if (written.get(path) === fingerprint) return;
  const backup = `${path}.bak`;
  const previous = await readFile(backup).catch(() => null);
  if (previous && previous.equals(bytes)) return;
  await writeFileAtomically(backup, bytes);
}

/**
 * Writes through a synced temporary file (0600) and a rename, then syncs the folder: a crash leaves the
 * old file or the new, never half, and the rename itself survives a power cut. A write that fails (a
 * full disk) removes its temporary file and says why in a sentence; one killed midway leaves it for the
 * next start to remove (`prepareDataFolder`).
 */
export async function writeFileAtomically(path: string, data: string | Uint8Array): Promise<void> {
  if (untouchable.has(path)) throw new DamagedFileError(`${basename(path)} is damaged and could not be moved aside, so Atrium does not write over it: move it away yourself, then restart Atrium`, basename(path));
  const temp = `${path}.${process.pid}.${++sequence}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    try {
      const handle = await open(temp, 'w', 0o600);
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, path);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    await syncFolder(dirname(path));
  } catch (error) {
    throw writeFailure(path, error);
  }
  written.set(path, digest(typeof data === 'string' ? Buffer.from(data, 'utf8') : data));
}

// What this process last wrote to each file, by digest; and the damaged files it could not move aside.
const written = new Map<string, string>();
const untouchable = new Set<string>();
let sequence = 0;

function digest(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function syncFolder(folder: string): Promise<void> {
  // Windows cannot open a folder to sync it; NTFS journals the rename itself.
  if (process.platform === 'win32') return;
  const handle = await open(folder, constants.O_RDONLY).catch(() => null);
  if (!handle) return;
  try {
    await handle.sync();
  } catch {
    // Some file systems refuse to sync a folder; the rename is still atomic.
  } finally {
    await handle.close();
  }
}

function syncFolderNow(folder: string): void {
  if (process.platform === 'win32') return;
  try {
    const fd = openSync(folder, constants.O_RDONLY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // As in syncFolder: the rename is atomic all the same.
  }
}

// A temporary file of Atrium's own (`NAME.<pid>.<n>.tmp`, a lock's `NAME.lock.<pid>.<n>.stale`).
const leftover = /\.(\d+)(?:\.\d+)?\.(?:tmp|stale)$/;

/**
 * Removes the temporary files writes killed midway left (their process is gone) in the data folder and
 * its cache: a process that still runs may be writing its own. Other folders are not Atrium's alone (the
 * desktop app's browser keeps its own files beside Atrium's).
 */
async function removeLeftoverTemporaryFiles(folder: string, inside: readonly string[]): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isDirectory() && inside.includes(entry.name)) await removeLeftoverTemporaryFiles(join(folder, entry.name), []);
    const pid = entry.isFile() ? leftover.exec(entry.name)?.[1] : undefined;
    if (pid !== undefined && Number(pid) !== process.pid && !isRunning(Number(pid))) await rm(join(folder, entry.name), { force: true });
  }
}

/**
 * Makes the data folder private: the folder 0700 and every file in it 0600 (folders inside 0700),
 * tightening what an older Atrium or a copy left looser: the group and others lose every permission,
 * the owner keeps theirs (a program installed with a server stays runnable). POSIX only: Windows has no
 * such modes.
 */
export async function prepareDataFolder(home: string): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  await removeLeftoverTemporaryFiles(home, ['cache']);
  if (process.platform === 'win32') return;
  await tighten(home);
  await tightenInside(home, 0);
}

/**
 * Installed servers' code (mcp/install/bundle/bundleFolders.ts): the folder itself is made private, and
 * what is in it, out of reach through it, keeps the modes its bundle gave it. Walking it would cost every
 * start a look at each of its thousands of files.
 */
const INSTALLED_CODE = 'bundles';

async function tightenInside(folder: string, depth: number): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      await tighten(path);
      if (depth < 4 && !(depth === 0 && entry.name === INSTALLED_CODE)) await tightenInside(path, depth + 1);
    } else if (entry.isFile()) {
      await tighten(path);
    }
    // Symbolic links are left alone: their target may be anywhere, and not Atrium's.
  }
}

/** Takes away what the group and others may do; what the owner may do stays (a program stays runnable). */
async function tighten(path: string): Promise<void> {
  const stats = await lstat(path).catch(() => null);
  if (stats && (stats.mode & 0o077) !== 0) await chmod(path, stats.mode & 0o700).catch(() => undefined);
}
