// The Skills extension's host part, built for the composition root over the parts it already has, and
// wired to what it follows: a server that becomes ready has its skills listed (nothing of them read), one
// that stops has them forgotten, one that says its resources changed is listed again, and one removed
// takes its approvals, cached files and conversations' use of its skills with it. What the registry and
// the loader announce becomes the contract's events.

import type { EventBus } from '../api/eventBus.ts';
import type { TakenIn } from '../host/approval/conversationTaint.ts';
import type { GrantLedger } from '../host/approval/grantLedger.ts';
import type { PendingRequests } from '../host/pendingRequests.ts';
import type { ToolCatalog } from '../host/tools/toolCatalog.ts';
import type { McpHub } from '../mcp/McpHub.ts';
import { createSkillsHost } from '../mcp/extensions/skills/host/skillsHost.ts';
import type { SkillsHost } from '../mcp/extensions/skills/host/skillsHost.ts';
import type { ConversationStores } from './conversationStores.ts';

export interface SkillsWiring {
  home: string;
  events: EventBus;
  hub: McpHub;
  catalog: ToolCatalog;
  pending: PendingRequests;
  ledger: GrantLedger;
  tookIn(conversationId: string, content: TakenIn): void;
  stores: ConversationStores;
}

export function wireSkills({ home, events, hub, catalog, pending, ledger, tookIn, stores }: SkillsWiring): SkillsHost {
  const skills: SkillsHost = createSkillsHost({
    home,
    readyConnection: (serverId) => {
      const connection = hub.has(serverId) ? hub.get(serverId) : undefined;
      return connection?.snapshot.status.kind === 'ready' ? connection : undefined;
    },
    toolsOf: (serverId) => catalog.list(serverId),
    pending,
    ledger,
    tookIn,
    stores,
    onInUseChanged: (conversationId) => events.emit('skillsInUseChanged', { conversationId, skills: skills.loader.inUse(conversationId) }),
  });
  skills.registry.onChange((serverId) => events.emit('skillsChanged', skills.registry.current(serverId)[0] ?? { serverId, offered: false, skills: [], refusedEntries: [] }));
  events.on('serverChanged', (snapshot) => skills.registry.serverState(snapshot.id, snapshot.status.kind === 'ready'));
  events.on('listChanged', ({ serverId, list }) => {
    if (list === 'resources') void skills.registry.refresh(serverId);
  });
  events.on('serverRemoved', ({ serverId }) => void skills.serverRemoved(serverId));
  return skills;
}
