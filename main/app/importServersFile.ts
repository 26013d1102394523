// `atrium import FILE`: another host's servers added to a servers file while no host runs. It is the
// composition root's to do, not the CLI's, because it must order two stores: on a folder an older Atrium
// used, the one-time upgrade of its launch approvals runs first (so what the file holds now is what that
// Atrium ran), and only then does the file change; what the import adds is neither trusted nor approved.
// Each server added is put to the organisation's policy as every start is: one it blocks is reported with
// the rule (it will not start, whoever approves it).

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { importServers } from '../mcp/config/importServers.ts';
import type { ImportReport } from '../mcp/config/importServers.ts';
import { loadServersFile, serversFilePath } from '../mcp/config/serversFile.ts';
import { InstallRecords } from '../mcp/install/installRecords.ts';
import { serverReach } from '../mcp/launch/serverReach.ts';
import { OrganisationPolicy } from '../host/policy/organisationPolicy.ts';
import { policyFilesOf } from '../host/policy/policyFiles.ts';
import type { PolicyBlock } from '../../shared/installs.ts';
import { LaunchApprovals } from '../mcp/launch/launchApprovals.ts';
import { launchUpgradeIn } from '../mcp/launch/launchUpgrade.ts';
import { openDatabase } from '../store/database.ts';
import { fileKeyProtector } from '../store/encryptedSecrets.ts';
import { DATABASE_FILE_NAME, databaseMigrations } from './conversationStores.ts';

export type { ImportReport };

export interface ImportOptions {
  /** The servers file to add to (the home's servers.json when not given). */
  target?: string;
  /** Where ATRIUM_POLICY_FILE is read (this process's environment by default). */
  environment?: NodeJS.ProcessEnv;
  /** The machine's policy file (tests name one; the platform's place otherwise). */
  machinePolicyFile?: string;
}

/** Adds the servers of `source` to the target servers file; `blocked` names those the policy keeps from starting, and its rule. */
export async function importServersFile(home: string, source: string, options: ImportOptions = {}): Promise<{ target: string; report: ImportReport; blocked: { id: string; block: PolicyBlock }[] }> {
  const target = options.target ?? serversFilePath(home);
  const keys = { own: fileKeyProtector(home).dataKey };
  // Without a database no older Atrium used this folder (and a new database would make the upgrade never
  // due): nothing is made for it, so an import on a full disk fails only where it writes, at the file.
  const databasePath = join(home, DATABASE_FILE_NAME);
  if (existsSync(databasePath)) {
    const db = openDatabase(databasePath, databaseMigrations);
    try {
      await LaunchApprovals.open(home, keys, launchUpgradeIn(db));
    } finally {
      db.close();
    }
  }
  const report = await importServers(source, target);
  const installs = await InstallRecords.open(home, keys);
  const policy = await OrganisationPolicy.open(policyFilesOf(options.environment ?? process.env, options.machinePolicyFile), { installedFrom: (server) => installs.installedFrom(server), reach: serverReach });
  const added = new Set(report.added.map(({ id }) => id));
  const { servers } = await loadServersFile(target);
  const blocked = servers.filter((server) => added.has(server.id)).flatMap((server) => {
    const block = policy.blocked(server);
    return block ? [{ id: server.id, block }] : [];
  });
  return { target, report, blocked };
}
