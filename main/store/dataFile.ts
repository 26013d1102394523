// The one way Atrium reads and writes the files in its data folder, so that a damaged file is never
// made worse: a file that cannot be read is moved aside byte for byte (`NAME.damaged-<time>`) before
// anything else happens, Atrium carries on without it, and every front end says so (the notices below).
// A write goes to a synced temporary file renamed over the old one, then the folder itself is synced, so
// a crash leaves the old file or the new, never half. `NAME.bak` is the last content read successfully.

import { createHash } from 'node:crypto';
import { closeSync, constants, copyFileSync, existsSync, fsyncSync, openSync, renameSync } from 'node:fs';
import { chmod, lstat, mkdir, open, readdir, readFile, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { DataFileProblem } from '../../shared/domain.ts';

/** Thrown by a data file's parser: the file is damaged, and `message` says how, for a person. */
export class DamagedData extends Error {}

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
}

/** The file's content, or undefined when it is missing or was damaged (then it was moved aside and reported). */
export async function readDataFile<T>(spec: DataFileSpec<T>): Promise<T | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readFile(spec.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    reportDamage(spec, code === 'EISDIR' ? 'it is a folder, not a file' : code === 'EACCES' || code === 'EPERM' ? 'Atrium is not allowed to read it' : `it cannot be read (${code ?? 'unknown error'})`);
    return undefined;
  }
  let value: T;
  try {
    value = await spec.parse(bytes);
  } catch (error) {
    if (!(error instanceof DamagedData)) throw error;
    reportDamage(spec, error.message);
    return undefined;
  }
  if (spec.keepLastGood) await keepLastGood(spec.path, bytes);
  return value;
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
  notice({ file: basename(spec.path), problem, keptAt, withoutIt: spec.withoutIt, recovery: spec.recovery(keptAt, lastGood, companionsKeptAt) }, dirname(spec.path));
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

async function keepLastGood(path: string, bytes: Buffer): Promise<void> {
  // Reading back what this process wrote is not a read of the person's file: `.bak` keeps what was there before.
  if (written.get(path) === digest(bytes)) return;
  const backup = `${path}.bak`;
  const previous = await readFile(backup).catch(() => null);
  if (previous && previous.equals(bytes)) return;
  await writeFileAtomically(backup, bytes);
}

/**
 * Writes through a synced temporary file (0600) and a rename, then syncs the folder: a crash leaves the
 * old file or the new, never half, and the rename itself survives a power cut.
 */
export async function writeFileAtomically(path: string, data: string | Uint8Array): Promise<void> {
  if (untouchable.has(path)) throw new Error(`${basename(path)} is damaged and could not be moved aside, so Atrium does not write over it: move it away yourself, then restart Atrium`);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temp = `${path}.${process.pid}.${Date.now()}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  await syncFolder(dirname(path));
  written.set(path, digest(typeof data === 'string' ? Buffer.from(data, 'utf8') : data));
}

// What this process last wrote to each file, by digest; and the damaged files it could not move aside.
const written = new Map<string, string>();
const untouchable = new Set<string>();

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

/**
 * Makes the data folder private: the folder 0700 and every file in it 0600 (folders inside 0700),
 * tightening what an older Atrium or a copy left looser. POSIX only: Windows has no such modes.
 */
export async function prepareDataFolder(home: string): Promise<void> {
  await mkdir(home, { recursive: true, mode: 0o700 });
  if (process.platform === 'win32') return;
  await tighten(home, 0o700);
  await tightenInside(home, 0);
}

async function tightenInside(folder: string, depth: number): Promise<void> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      await tighten(path, 0o700);
      if (depth < 4) await tightenInside(path, depth + 1);
    } else if (entry.isFile()) {
      await tighten(path, 0o600);
    }
    // Symbolic links are left alone: their target may be anywhere, and not Atrium's.
  }
}

async function tighten(path: string, mode: number): Promise<void> {
  const stats = await lstat(path).catch(() => null);
  if (stats && (stats.mode & 0o077) !== 0) await chmod(path, stats.mode & mode & 0o777).catch(() => undefined);
}

// The problems found in this process, per data folder: the window lists them (a banner in every view),
// and each is also written to the log as it is found.
const problems = new Map<string, DataFileProblem[]>();
const listeners = new Set<(home: string, problem: DataFileProblem) => void>();
let log: (text: string) => void = (text) => process.stderr.write(`${text}\n`);

function notice(problem: DataFileProblem, home: string): void {
  const list = problems.get(home) ?? [];
  list.push(problem);
  problems.set(home, list);
  log(describeDataFileProblem(problem));
  for (const listener of listeners) listener(home, problem);
}

/** The damaged files found in `home` during this run, oldest first. */
export function dataFileProblems(home: string): DataFileProblem[] {
  return [...(problems.get(home) ?? [])];
}

/** Calls `listener` for each damaged file found from now on; returns the way to stop. */
export function onDataFileProblem(listener: (home: string, problem: DataFileProblem) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Where the problems are written as they are found (stderr unless a front end says otherwise, e.g. the CLI's). */
export function logDataFileProblemsTo(write: (text: string) => void): void {
  log = write;
}

/** The problem as lines of text, for the CLI and the log. */
export function describeDataFileProblem(problem: DataFileProblem): string {
  const where = problem.keptAt ? `It was moved aside, byte for byte, to ${problem.keptAt}` : 'It could not be moved aside, so Atrium leaves it as it is and does not write it';
  return [`atrium: ${problem.file} could not be read: ${problem.problem}.`, `  ${where}; ${problem.withoutIt}.`, '  To recover, either:', ...problem.recovery.map((way) => `  - ${way}`)].join('\n');
}

/** The ways back every JSON data file offers: its last good copy, the damaged copy fixed, or carrying on without it. */
export function jsonRecovery(file: string, carryOn: string) {
  return (keptAt: string | null, lastGood: string | null): string[] => [
    ...(lastGood ? [`Restore the last good copy: copy ${basename(lastGood)} to ${file}, then restart Atrium.`] : []),
    keptAt ? `Fix the damaged copy (${basename(keptAt)}), move it back to ${file}, then restart Atrium.` : `Fix ${file}, then restart Atrium.`,
    carryOn,
  ];
}
