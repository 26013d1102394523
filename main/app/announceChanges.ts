// Where the owners of state are heard: each announces its own changes (the servers file, history, drafts,
// the turns running, grants, view trust, workspaces, tasks), and here they become the contract's events, so every window mirrors them as they are now.
// Nothing else emits these: the API only asks the owners to change.

import type { ChatService } from '../chat/chatService.ts';
import { conversationSummary } from '../api/conversationApi.ts';
import type { EventBus } from '../api/eventBus.ts';
import type { GrantLedger } from '../host/approval/grantLedger.ts';
import type { ViewTrustStore } from '../mcp/extensions/apps/host/viewTrust.ts';
import type { TaskTracker } from '../mcp/extensions/tasks/host/taskTracker.ts';
import type { Workspaces } from '../host/workspaces.ts';
import type { ServerRegistry } from '../mcp/ServerRegistry.ts';
import type { HistoryStore } from '../store/historyStore.ts';
import type { DraftStore } from '../store/draftStore.ts';

export interface Owners {
  events: EventBus;
  registry: ServerRegistry;
  history: HistoryStore;
  drafts: DraftStore;
  ledger: GrantLedger;
  viewTrust: ViewTrustStore;
  workspaces: Workspaces;
  chat: ChatService;
  tasks: TaskTracker;
}

export function announceOwnersChanges({ events, registry, history, drafts, ledger, viewTrust, workspaces, chat, tasks }: Owners): void {
  registry.onProblemsChange((problems) => events.emit('configProblems', [...problems]));
  history.onConversationChange((change) => {
    if (change.kind === 'deleted') events.emit('conversationsChanged', { removed: change.conversationId });
    else events.emit('conversationsChanged', { conversation: conversationSummary(change.conversation, chat) });
  });
  chat.onRunningChange((conversationId) => {
    const conversation = history.getConversation(conversationId);
    if (conversation) events.emit('conversationsChanged', { conversation: conversationSummary(conversation, chat) });
  });
  drafts.onChange((change) => events.emit('draftChanged', change));
  ledger.onChange(() => events.emit('grantsChanged', ledger.list()));
  viewTrust.onChange((trust) => events.emit('viewTrustChanged', trust));
  workspaces.onChange((list) => events.emit('workspacesChanged', list));
  tasks.onChange((task) => events.emit('taskChanged', task));
}
