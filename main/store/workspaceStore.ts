// Workspaces as stored: a name and the folders (roots) the person exposes to servers while working in
// it. Exactly one workspace is active; its roots are the ones servers see.

import { randomUUID } from 'node:crypto';
import type { RootEntry } from '../../shared/domain.ts';
import type { Database, Migration } from './database.ts';
import { transaction } from './database.ts';

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

interface Row {
  id: string;
  name: string;
  roots: string;
  active: number;
}

const fromRow = (row: Row): StoredWorkspace => ({ id: row.id, name: row.name, roots: JSON.parse(row.roots) as RootEntry[], active: row.active === 1 });

export class WorkspaceStore {
  private readonly db: Database;

  /** `db` must have been opened with `workspaceMigrations`. */
  constructor(db: Database) {
    this.db = db;
  }

  list(): StoredWorkspace[] {
    return (this.db.prepare('SELECT * FROM workspaces ORDER BY created_at, rowid').all() as unknown as Row[]).map(fromRow);
  }

  get(id: string): StoredWorkspace | undefined {
    const row = this.db.prepare('SELECT * FROM workspaces WHERE id = ?').get(id) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  byName(name: string): StoredWorkspace | undefined {
    const row = this.db.prepare('SELECT * FROM workspaces WHERE name = ?').get(name) as Row | undefined;
    return row ? fromRow(row) : undefined;
  }

  active(): StoredWorkspace | undefined {
    const row = this.db.prepare('SELECT * FROM workspaces WHERE active = 1').get() as Row | undefined;
    return row ? fromRow(row) : undefined;
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
