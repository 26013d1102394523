// The one time a data folder's servers are approved without the person: the first run of this Atrium on
// a folder an older one used. That Atrium started every enabled server (or, from when it had launch
// approvals, the ones in its unkeyed launch-approvals.json), and a working setup must not stop.
//
// The evidence and the record live in the database, where deleting a file cannot bring the grant back:
// the migration below, applied before any other, finds either Atrium's earlier migrations (an older
// Atrium made this database: the upgrade is due) or none (a new database: never). The upgrade consumes
// that mark before it approves anything. A missing, emptied or damaged launch-approvals.json, a fresh
// folder with a hand-written servers.json, or a database deleted or set aside (its replacement is new)
// approve nothing.

import type { Database, Migration } from '../../store/database.ts';

/** First in the database's migrations: whether any ran before it is what says an older Atrium made the database. */
export const launchUpgradeMigrations: readonly Migration[] = [
  {
    id: 'launch-upgrade-1',
    sql: `
      CREATE TABLE launch_upgrade_due (due INTEGER NOT NULL CHECK (due = 1));
      INSERT INTO launch_upgrade_due (due) SELECT 1 WHERE EXISTS (SELECT 1 FROM migrations);
    `,
  },
];

/** Whether the one-time upgrade is still to do, and the way to mark it done. */
export interface LaunchUpgrade {
  isDue(): boolean;
  /** Marks it done, for good: called before anything is approved, so a crash midway never grants twice. */
  consume(): void;
}

export function launchUpgradeIn(db: Database): LaunchUpgrade {
  return {
    isDue: () => db.prepare('SELECT 1 FROM launch_upgrade_due LIMIT 1').get() !== undefined,
    consume: () => void db.prepare('DELETE FROM launch_upgrade_due').run(),
  };
}
