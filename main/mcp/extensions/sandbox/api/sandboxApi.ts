// The sandbox's requests of the contract (sandboxContract.ts), thin over its owner (serverSandboxes.ts):
// every local server's sandbox, the person's "allow for this server" on something the sandbox blocked,
// and the explicit choice to run a server without the sandbox. Both choices change servers.json; the
// first only with what the sandbox itself offered, the second asks for the launch approval again.

import type { AtriumApi } from '../../../../../shared/contract.ts';
import type { ServerDefinition, StdioServerDefinition } from '../../../config/serverConfig.ts';
import { ServerError } from '../../../connection/serverError.ts';
import type { LaunchApprovals } from '../../../launch/launchApprovals.ts';
import type { McpHub } from '../../../McpHub.ts';
import type { ServerRegistry } from '../../../ServerRegistry.ts';
import type { SandboxResults, SandboxSummary } from '../contract/sandboxContract.ts';
import { withAllowance } from '../sandboxSetting.ts';
import type { SandboxAllowance } from '../sandboxSetting.ts';
import type { ServerSandboxes } from '../serverSandboxes.ts';

export interface SandboxApiDeps {
  sandboxes: ServerSandboxes;
  hub: McpHub;
  registry: ServerRegistry;
  launchApprovals: LaunchApprovals;
}

export function createSandboxApi({ sandboxes, hub, registry, launchApprovals }: SandboxApiDeps): Pick<AtriumApi, keyof SandboxResults> {
  const local = (serverId: string): StdioServerDefinition => {
    const definition = registry.get(serverId);
    if (!definition) throw new ServerError(serverId, 'not_found', `there is no server named "${serverId}"`);
    if (definition.transport !== 'stdio') throw new ServerError(serverId, 'failed', `${serverId} is a remote server: it runs on another machine, outside Atrium's sandbox`);
    return definition;
  };
  const summaryOf = async (definition: ServerDefinition): Promise<SandboxSummary[]> => {
    const summary = await sandboxes.summary(definition);
    return summary ? [summary] : [];
  };
  return {
    listSandboxes: async ({ serverId }) => {
      const definitions = serverId === undefined ? registry.all() : [local(serverId)];
      return (await Promise.all(definitions.map(summaryOf))).flat();
    },
    allowSandboxAccess: async ({ serverId, kind, target }) => {
      const definition = local(serverId);
      // Only what the sandbox blocked and offered: a window cannot widen a sandbox at will.
      if (!sandboxes.offered(serverId, kind, target)) throw new ServerError(serverId, 'failed', `${serverId}: "${target}" is not among what its sandbox blocked; nothing was changed`);
      const allowance: SandboxAllowance = kind === 'host' ? { kind, host: target } : { kind, path: target };
      // Approved as it stood (program and scripts unchanged): the click approves this one widening, and nothing else.
      const approved = (await launchApprovals.review(definition)).current;
      const saved = await registry.update({ ...definition, sandbox: withAllowance(definition.sandbox, allowance) });
      if (approved) await launchApprovals.approve(saved);
      sandboxes.forgetBlocked(serverId, target);
      await hub.replace(saved);
      const [summary] = await summaryOf(saved);
      if (!summary) throw new ServerError(serverId, 'failed', `${serverId} is no longer a local server`);
      return summary;
    },
    runWithoutSandbox: async ({ serverId }) => {
      const definition = local(serverId);
      // Saved, not approved: the server waits for the person's look at its definition, the opt-out among its risks.
      await hub.replace(await registry.update({ ...definition, sandbox: false }));
      return null;
    },
  };
}
