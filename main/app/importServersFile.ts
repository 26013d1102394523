// `atrium import FILE`: another host's servers added to a servers file while no host runs. It is the
// composition root's to do, not the CLI's, because it must order two stores: on a folder an older Atrium
// used, the one-time upgrade of its launch approvals runs first (so what the file holds now is what that
// Atrium ran), and only then does the file change; what the import adds is neither trusted nor approved.

import { join } from 'node:path';
import { importServers } from '../mcp/config/importServers.ts';
import type { ImportReport } from '../mcp/config/importServers.ts';
import { serversFilePath } from '../mcp/config/serversFile.ts';
import { LaunchApprovals } from '../mcp/launch/launchApprovals.ts';
import { launchUpgradeIn } from '../mcp/launch/launchUpgrade.ts';
import { openDatabase } from '../store/database.ts';
import { fileKeyProtector } from '../store/encryptedSecrets.ts';
import { DATABASE_FILE_NAME, databaseMigrations } from './conversationStores.ts';

export type { ImportReport };

/** Adds the servers of `source` to `target` (the home's servers.json when not given). */
export async function importServersFile(home: string, source: string, target = serversFilePath(home)): Promise<{ target: string; report: ImportReport }> {
  const db = openDatabase(join(home, DATABASE_FILE_NAME), databaseMigrations);
  try {
    await LaunchApprovals.open(home, { own: fileKeyProtector(home).dataKey }, launchUpgradeIn(db));
  } finally {
    db.close();
  }
  return { target, report: await importServers(source, target) };
}
