// MCP Apps: the servers whose views the person chose to see without being asked each time ("Always show
// views from this server"). A server they marked trusted shows its views anyway; this is the narrower
// choice for one that is not. Kept in atrium.db beside the tool grants, listed and revoked with them.

import type { ServerId } from '../../../shared/domain.ts';
import type { ViewTrust } from '../../../shared/viewSandbox.ts';
import type { Database, Migration } from '../../store/database.ts';
import { RowReader } from '../../store/rowReader.ts';

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
];

export class ViewTrustStore {
  private readonly db: Database;
  private readonly now: () => number;

  constructor(db: Database, options: { now?: () => number } = {}) {
    this.db = db;
    this.now = options.now ?? Date.now;
  }

  allow(serverId: ServerId): void {
    this.db.prepare('INSERT OR IGNORE INTO view_trust (server_id, since) VALUES (?, ?)').run(serverId, this.now());
  }

  revoke(serverId: ServerId): void {
    this.db.prepare('DELETE FROM view_trust WHERE server_id = ?').run(serverId);
  }

  allows(serverId: ServerId): boolean {
    return this.db.prepare('SELECT 1 FROM view_trust WHERE server_id = ?').get(serverId) !== undefined;
  }

  list(serverId?: ServerId): ViewTrust[] {
    const rows = serverId === undefined ? this.db.prepare('SELECT * FROM view_trust ORDER BY server_id').all() : this.db.prepare('SELECT * FROM view_trust WHERE server_id = ?').all(serverId);
    return rows.map((found) => {
      const row = new RowReader('view_trust', found);
      return { serverId: row.text('server_id'), since: row.int('since') };
    });
  }
}
