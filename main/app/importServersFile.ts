// `atrium import FILE`: another host's servers added to a servers file while no host runs. It is the
// composition root's to do, not the CLI's, because it must order two stores: the launch approvals are
// opened (so what the file holds now counts as the setup already approved) before the file changes,
// and what the import adds is neither trusted nor approved.

import { importServers } from '../mcp/config/importServers.ts';
import type { ImportReport } from '../mcp/config/importServers.ts';
import { serversFilePath } from '../mcp/config/serversFile.ts';
import { LaunchApprovals } from '../mcp/launch/launchApprovals.ts';

export type { ImportReport };

/** Adds the servers of `source` to `target` (the home's servers.json when not given). */
export async function importServersFile(home: string, source: string, target = serversFilePath(home)): Promise<{ target: string; report: ImportReport }> {
  await LaunchApprovals.open(home);
  return { target, report: await importServers(source, target) };
}
