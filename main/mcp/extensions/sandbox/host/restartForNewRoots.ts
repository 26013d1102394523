// A sandbox is made for the roots of the moment its server starts: when the roots change, every server
// running in a sandbox made for others starts again in one made for the new roots (its tools are listed
// anew; a call under way fails as a restart makes it fail).

import type { McpHub } from '../../../McpHub.ts';
import type { ServerSandboxes } from '../serverSandboxes.ts';

export async function restartForNewRoots(sandboxes: ServerSandboxes, hub: McpHub): Promise<void> {
  const stale = sandboxes.madeForOtherRoots().filter((serverId) => hub.has(serverId));
  await Promise.all(stale.map((serverId) => hub.get(serverId).restart()));
}
