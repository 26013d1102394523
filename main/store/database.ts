// Atrium's one SQLite file (node:sqlite): WAL journal, so a kill at any moment loses nothing that was
// committed and never corrupts the file, and synchronous=FULL, so a commit is on the disk when it returns
// (a power cut loses nothing committed either) — except the writes of a turn's steps (`withoutDiskWait`). Each
// store module owns its tables and brings its migrations; `openDatabase` applies the ones not yet
// applied, in order, each in a transaction.

import { createRequire } from 'node:module';
import { closeSync, lstatSync, mkdirSync, openSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import type * as NodeSqlite from 'node:sqlite';
import type { DatabaseSync as DatabaseSyncType } from 'node:sqlite';
import { reportDamage } from './dataFile.ts';

export type Database = DatabaseSyncType;

export interface Migration {
  /** Unique and stable forever, e.g. "history-1": the name is what records that it ran. */
  id: string;
  sql: string;
}

// Node 22 prints an ExperimentalWarning when node:sqlite loads; for a person running the CLI that line
// is noise, so only that one warning is swallowed, while loading the module.
function loadSqlite(): typeof NodeSqlite {
  const emitWarning = process.emitWarning;
  process.emitWarning = ((warning: string | Error, ...rest: unknown[]) => {
    if (String(warning).includes('SQLite is an experimental feature')) return;
    (emitWarning as (...args: unknown[]) => void).call(process, warning, ...rest);
  }) as typeof process.emitWarning;
  try {
    return createRequire(import.meta.url)('node:sqlite') as typeof NodeSqlite;
  } finally {
    process.emitWarning = emitWarning;
  }
}

/**
 * Opens the database, applying the migrations not yet applied. A file SQLite cannot use (not a
 * database, damaged, a folder) is moved aside with its -wal and -shm, reported, and a new one started.
 */
export function openDatabase(path: string, migrations: readonly Migration[]): Database {
  if (path === ':memory:') return setUp(path, migrations);
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const problem = damageOf(path, migrations);
  if (typeof problem !== 'string') return problem;
  const file = basename(path);
  reportDamage(
    {
      path,
      companions: [`${path}-wal`, `${path}-shm`],
      withoutIt: 'Atrium started with an empty history: no conversations, no saved tool permissions, no workspaces',
      recovery: (keptAt, _lastGood, companions) =>
        keptAt
          ? [
              `Restore ${file} from a backup, then restart Atrium.`,
              `Get the conversations out of ${basename(keptAt)} with a database tool (sqlite3’s .recover)${companions.length > 0 ? `, with ${companions.map((c) => basename(c)).join(' and ')} renamed to match it` : ''}.`,
              'Carry on with the new, empty history.',
            ]
          : [`Move ${file} away yourself, then restart Atrium.`],
    },
    problem,
  );
  const fresh = damageOf(path, migrations);
  if (typeof fresh === 'string') throw new Error(`${file} cannot be opened: ${fresh}`);
  return fresh;
}

/** The opened database, or what makes the file unusable. Other errors (busy, I/O) are thrown as they are. */
function damageOf(path: string, migrations: readonly Migration[]): Database | string {
  const stats = lstatOrNull(path);
  if (stats?.isDirectory()) return 'it is a folder, not a file';
  // Created private before SQLite opens it: SQLite gives its -wal and -shm the database file's mode.
  if (!stats) closeSync(openSync(path, 'a', 0o600));
  try {
    return setUp(path, migrations);
  } catch (error) {
    const code = (error as { errcode?: number }).errcode;
    if (error instanceof DamagedDatabase) return error.message;
    if (code === 26) return 'it is not a SQLite database (a crash or another program wrote over it)';
    if (code === 11) return 'the database is damaged (SQLite found it malformed)';
    if (code === 14) return 'SQLite cannot open it';
    // A plain SQL error while setting up: tables that are not Atrium's. Busy and I/O errors are thrown as they are.
    if (code === 1) return 'it holds tables Atrium did not make (another program’s database, or one Atrium cannot update)';
    throw error;
  }
}

class DamagedDatabase extends Error {}

function setUp(path: string, migrations: readonly Migration[]): Database {
  const { DatabaseSync } = loadSqlite();
  const db = new DatabaseSync(path);
  try {
    db.exec('PRAGMA busy_timeout = 5000');
    // Checked before anything is written: a file cut short or overwritten in part opens fine and fails
    // later, mid-conversation, and another program's database must be kept exactly as it is.
    const check = db.prepare('PRAGMA quick_check').all() as { quick_check: string }[];
    if (check[0]?.quick_check !== 'ok') throw new DamagedDatabase('the database is damaged (SQLite’s check found damaged pages)');
    if (!isAtriums(db)) throw new DamagedDatabase('it is not Atrium’s database (it holds another program’s tables)');
    db.exec('PRAGMA journal_mode = WAL');
    db.exec('PRAGMA synchronous = FULL');
    db.exec('PRAGMA foreign_keys = ON');
    db.exec('CREATE TABLE IF NOT EXISTS migrations (id TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
    const applied = new Set((db.prepare('SELECT id FROM migrations').all() as { id: string }[]).map((row) => row.id));
    for (const migration of migrations) {
      if (applied.has(migration.id)) continue;
      transaction(db, () => {
        db.exec(migration.sql);
        db.prepare('INSERT INTO migrations (id, applied_at) VALUES (?, ?)').run(migration.id, Date.now());
      });
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** A new, empty database, or one whose migrations table is Atrium's. */
function isAtriums(db: Database): boolean {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[];
  if (tables.length === 0) return true;
  if (!tables.some((t) => t.name === 'migrations')) return false;
  const columns = (db.prepare('PRAGMA table_info(migrations)').all() as { name: string }[]).map((c) => c.name);
  return columns.includes('id') && columns.includes('applied_at');
}

function lstatOrNull(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return null;
  }
}

/** Runs `work` in one transaction: all of it is committed, or none. */
export function transaction<T>(db: Database, work: () => T): T {
  db.exec('BEGIN IMMEDIATE');
  try {
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    db.exec('ROLLBACK');
    throw error;
  }
}

const relaxed = new WeakMap<Database, number>();

/**
 * Runs `work` with its commits not waiting for the disk (synchronous=NORMAL): what it commits survives a
 * kill of Atrium (the WAL holds it) and never damages the file, but a power cut or a system crash may lose
 * it until the next commit that waits, which puts everything before it on the disk too, or `syncToDisk`.
 * For the writes of a turn's steps, several between one model request and the next, where a wait each
 * cost more than the rest of the step; every other write (a grant, a revocation, the person's answer) still waits.
 */
export function withoutDiskWait<T>(db: Database, work: () => T): T {
  const depth = relaxed.get(db) ?? 0;
  if (depth === 0) db.exec('PRAGMA synchronous = NORMAL');
  relaxed.set(db, depth + 1);
  try {
    return work();
  } finally {
    relaxed.set(db, depth);
    if (depth === 0 && db.isOpen) db.exec('PRAGMA synchronous = FULL');
  }
}

/** Puts what was committed without waiting (`withoutDiskWait`) on the disk: the WAL, then the database file. */
export function syncToDisk(db: Database): void {
  if (db.isOpen) db.exec('PRAGMA wal_checkpoint(PASSIVE)');
}
