// Workspaces as stored: a name and the folders (roots) the person exposes to servers while working in
// it. Exactly one workspace is active; its roots are the ones servers see.

import { randomUUID } from 'node:crypto';
import type { RootEntry } from '../../shared/domain.ts';
import type { Database, Migration } from './database.ts';
import { transaction } from './database.ts';
import { readRows, RowReader } from './rowReader.ts';
import type { Row } from './rowReader.ts';

export const workspaceMigrations: readonly Migration[] = [
  {
    id: 'workspaces-1',
    sql: `
      CREATE TABLE workspaces (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        roots TEXT NOT NULL,
        active INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1)),
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      );
      CREATE UNIQUE INDEX workspaces_one_active ON workspaces (active) WHERE active = 1;
    `,
  },
];

export interface StoredWorkspace {
  id: string;
  name: string;
  roots: RootEntry[];
  active: boolean;
}

/** A workspace as saved; its roots are checked to be a list of entries with a `uri`. */
const readWorkspace = (row: RowReader): StoredWorkspace => ({ id: row.text('id'), name: row.text('name'), roots: rootsOf(row.json('roots')), active: row.int('active') === 1 });

function rootsOf(value: unknown): RootEntry[] {
  const valid = Array.isArray(value) && value.every((root) => typeof root === 'object' && root !== null && typeof (root as { uri?: unknown }).uri === 'string');
  if (!valid) throw new Error('workspaces: column roots is not a list of roots');
  return value as RootEntry[];
}

/** One row or none, read as a workspace. */
const oneWorkspace = (row: Row | undefined): StoredWorkspace | undefined => (row ? readWorkspace(new RowReader('workspaces', row)) : undefined);

export class WorkspaceStore {
  private readonly db: Database;

  /** `db` must have been opened with `workspaceMigrations`. */
  constructor(db: Database) {
    this.db = db;
  }

  list(): StoredWorkspace[] {
    return readRows('workspaces', this.db.prepare('SELECT * FROM workspaces ORDER BY created_at, rowid').all(), readWorkspace);
  }

  get(id: string): StoredWorkspace | undefined {
    return oneWorkspace(this.db.prepare('SELECT * FROM workspaces WHERE id = ?').get(id));
  }

  /** The workspace of this name, whatever its capitals: "alpha" and "Alpha" are one name to a person. */
  byName(name: string): StoredWorkspace | undefined {
    return oneWorkspace(this.db.prepare('SELECT * FROM workspaces WHERE name = ? COLLATE NOCASE ORDER BY name = ? DESC').get(name, name));
  }

  active(): StoredWorkspace | undefined {
    return oneWorkspace(this.db.prepare('SELECT * FROM workspaces WHERE active = 1').get());
  }

  create(name: string, roots: readonly RootEntry[]): StoredWorkspace {
    const id = randomUUID();
    const now = Date.now();
    this.db.prepare('INSERT INTO workspaces (id, name, roots, active, created_at, updated_at) VALUES (?, ?, ?, 0, ?, ?)').run(id, name, JSON.stringify(roots), now, now);
    return this.get(id) as StoredWorkspace;
  }

  setRoots(id: string, roots: readonly RootEntry[]): boolean {
    return Number(this.db.prepare('UPDATE workspaces SET roots = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(roots), Date.now(), id).changes) > 0;
  }

  rename(id: string, name: string): boolean {
    return Number(this.db.prepare('UPDATE workspaces SET name = ?, updated_at = ? WHERE id = ?').run(name, Date.now(), id).changes) > 0;
  }

  activate(id: string): boolean {
    return transaction(this.db, () => {
      if (!this.get(id)) return false;
      this.db.prepare('UPDATE workspaces SET active = 0 WHERE active = 1').run();
      this.db.prepare('UPDATE workspaces SET active = 1 WHERE id = ?').run(id);
      return true;
    });
  }

  delete(id: string): boolean {
    return Number(this.db.prepare('DELETE FROM workspaces WHERE id = ? AND active = 0').run(id).changes) > 0;
  }
}
