// MCP Apps: what the person chose for a server's views. "Always show views from this server" (a server
// they marked trusted shows its views anyway; this is the narrower choice for one that is not), and the
// browser permissions its views may use (camera, microphone, location, writing to the clipboard), each
// denied until allowed. Kept in atrium.db beside the tool grants, listed and revoked with them.

import type { ServerId } from '../../../../../shared/domain.ts';
import { viewPermissions } from '../contract/viewSandbox.ts';
import type { ViewPermission, ViewTrust } from '../contract/viewSandbox.ts';
import { ChangeListeners } from '../../../../changeListeners.ts';
import type { Database, Migration } from '../../../../store/database.ts';
import { RowReader } from '../../../../store/rowReader.ts';

export const viewTrustMigrations: readonly Migration[] = [
  {
    id: 'view-trust-1',
    sql: `
      CREATE TABLE view_trust (
        server_id TEXT PRIMARY KEY,
        since INTEGER NOT NULL
      );
    `,
  },
  {
    id: 'view-permissions-1',
    sql: `
      CREATE TABLE view_permissions (
        server_id TEXT NOT NULL,
        permission TEXT NOT NULL,
        since INTEGER NOT NULL,
        PRIMARY KEY (server_id, permission)
      );
    `,
  },
];

export class ViewTrustStore {
  private readonly db: Database;
  private readonly now: () => number;
  private readonly changes = new ChangeListeners<ViewTrust[]>();

  constructor(db: Database, options: { now?: () => number } = {}) {
    this.db = db;
    this.now = options.now ?? Date.now;
  }

  /** "Always show views from this server". */
  allow(serverId: ServerId): void {
    this.changed(this.db.prepare('INSERT OR IGNORE INTO view_trust (server_id, since) VALUES (?, ?)').run(serverId, this.now()).changes);
  }

  revoke(serverId: ServerId): void {
    this.changed(this.db.prepare('DELETE FROM view_trust WHERE server_id = ?').run(serverId).changes);
  }

  allows(serverId: ServerId): boolean {
    return this.db.prepare('SELECT 1 FROM view_trust WHERE server_id = ?').get(serverId) !== undefined;
  }

  /** Lets (or stops letting) the server's views use one browser permission. */
  setPermission(serverId: ServerId, permission: ViewPermission, allowed: boolean): void {
    const written = allowed
      ? this.db.prepare('INSERT OR IGNORE INTO view_permissions (server_id, permission, since) VALUES (?, ?, ?)').run(serverId, permission, this.now())
      : this.db.prepare('DELETE FROM view_permissions WHERE server_id = ? AND permission = ?').run(serverId, permission);
    this.changed(written.changes);
  }

  /** Whether any server's views may use `permission` (the desktop app's permission handler asks this). */
  anyAllows(permission: ViewPermission): boolean {
    return this.db.prepare('SELECT 1 FROM view_permissions WHERE permission = ? LIMIT 1').get(permission) !== undefined;
  }

  /** Everything chosen for a server's views, as when the server is removed. */
  forget(serverId: ServerId): boolean {
    const shows = this.db.prepare('DELETE FROM view_trust WHERE server_id = ?').run(serverId).changes;
    const permissions = this.db.prepare('DELETE FROM view_permissions WHERE server_id = ?').run(serverId).changes;
    const forgot = Number(shows) + Number(permissions) > 0;
    if (forgot) this.changed(1);
    return forgot;
  }

  /** Told with everything chosen for every server's views, after each change. */
  onChange(listener: (trust: ViewTrust[]) => void): () => void {
    return this.changes.add(listener);
  }

  private changed(rows: number | bigint): void {
    if (Number(rows) > 0) this.changes.tell(this.list());
  }

  list(serverId?: ServerId): ViewTrust[] {
    const byServer = new Map<string, ViewTrust>();
    const entry = (id: string) => byServer.get(id) ?? byServer.set(id, { serverId: id, permissions: [] }).get(id)!;
    const where = serverId === undefined ? '' : ' WHERE server_id = ?';
    const args = serverId === undefined ? [] : [serverId];
    for (const found of this.db.prepare(`SELECT * FROM view_trust${where}`).all(...args)) {
      const row = new RowReader('view_trust', found);
      entry(row.text('server_id')).showsSince = row.int('since');
    }
    for (const found of this.db.prepare(`SELECT * FROM view_permissions${where} ORDER BY since`).all(...args)) {
      const row = new RowReader('view_permissions', found);
      const permission = viewPermissions.find((known) => known === row.text('permission'));
      // A name this version does not know (written by a later one) allows nothing here.
      if (permission) entry(row.text('server_id')).permissions.push({ permission, since: row.int('since') });
    }
    return [...byServer.values()].sort((a, b) => a.serverId.localeCompare(b.serverId));
  }
}
