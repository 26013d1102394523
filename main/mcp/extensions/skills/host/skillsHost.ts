// Skills' host part, put together for the composition root: the registry of servers' skills, the
// person's consent, the one loading path with its cache, the tools the model gets, and what follows
// from a server becoming ready, going away or being removed. Everything here is built over parts the
// root already has; nothing is started until a server is ready.

import type { ReadResourceResult } from '@modelcontextprotocol/client';
import type { ToolSummary } from '../../../../../shared/domain.ts';
import type { HostTools } from '../../../../chat/turnTools.ts';
import type { TakenIn } from '../../../../host/approval/conversationTaint.ts';
import type { GrantLedger } from '../../../../host/approval/grantLedger.ts';
import type { PendingRequests } from '../../../../host/pendingRequests.ts';
import { connectionSkills } from '../connectionSkills.ts';
import type { ConnectionSkills, SkillsOnConnection } from '../connectionSkills.ts';
import { SkillCache } from '../store/skillCache.ts';
import type { SkillApprovalStore } from '../store/skillApprovalStore.ts';
import type { SkillsInUseStore } from '../store/skillsInUseStore.ts';
import { createSkillConsent } from './skillConsent.ts';
import { skillHostTools } from './skillHostTools.ts';
import { SkillLoader } from './skillLoader.ts';
import { SkillRegistry } from './skillRegistry.ts';

export interface SkillsHostDeps {
  /** Atrium's data folder: the cache of verified files lives in it. */
  home: string;
  /** A ready server's connection; undefined when the server is not there or not ready. */
  readyConnection(serverId: string): (SkillsOnConnection & { readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> }) | undefined;
  /** A server's tools as the catalog lists them. */
  toolsOf(serverId: string): readonly ToolSummary[];
  pending: Pick<PendingRequests, 'request'>;
  ledger: GrantLedger;
  /** The conversation took in a server's text (the consent gate decides whether it raises the bar). */
  tookIn(conversationId: string, content: TakenIn): void;
  stores: { skillApprovals: SkillApprovalStore; skillsInUse: SkillsInUseStore };
  onInUseChanged(conversationId: string): void;
}

export interface SkillsHost {
  registry: SkillRegistry;
  loader: SkillLoader;
  approvals: SkillApprovalStore;
  /** What a turn gets of skills: the model's tools and what its tool search finds. */
  hostTools: HostTools;
  /** The server was removed: its approvals, its cached files and the conversations' use of its skills go with it. */
  serverRemoved(serverId: string): Promise<void>;
}

export function createSkillsHost(deps: SkillsHostDeps): SkillsHost {
  const approvals = deps.stores.skillApprovals;
  const inUse = deps.stores.skillsInUse;
  const cache = new SkillCache(deps.home);
  const connectionOf = (serverId: string): ConnectionSkills | undefined => {
    const connection = deps.readyConnection(serverId);
    return connection ? connectionSkills(connection) : undefined;
  };
  const registry = new SkillRegistry({ connectionOf, approvals });
  const consent = createSkillConsent({ pending: deps.pending, approvals, toolsOf: deps.toolsOf, onApprovalsChanged: (serverId) => registry.approvalsChanged(serverId) });
  const loader = new SkillLoader({
    registry,
    connectionOf,
    consent,
    cache,
    inUse,
    readResource: async (serverId, uri, signal) => {
      const connection = deps.readyConnection(serverId);
      if (!connection) throw new Error(`${serverId} is not connected`);
      return connection.readResource(uri, signal);
    },
    tookIn: deps.tookIn,
    grantTools: (conversationId, serverId, names) => {
      const granted = deps.ledger.list({ serverId, conversationId }).filter((grant) => grant.conversationId === conversationId);
      for (const tool of deps.toolsOf(serverId).filter((candidate) => names.includes(candidate.name))) {
        // A choice the person made for the tool in this conversation (allow or deny) stands.
        if (granted.some((grant) => grant.target.tool === tool.name)) continue;
        deps.ledger.grant({ scope: 'conversation', effect: 'allow', subject: { tool }, conversationId });
      }
    },
    onInUseChanged: deps.onInUseChanged,
  });
  return {
    registry,
    loader,
    approvals,
    hostTools: skillHostTools(registry, loader),
    serverRemoved: async (serverId) => {
      approvals.forgetServer(serverId);
      for (const conversationId of inUse.forgetServer(serverId)) deps.onInUseChanged(conversationId);
      await cache.forgetServer(serverId);
      // Said once everything of it is gone, the cached files included.
      registry.serverGone(serverId);
    },
  };
}
