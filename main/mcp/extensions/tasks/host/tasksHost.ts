// The task tracker as the host builds it: over the hub (a kept task is followed again on its server's live
// session; a stdio server's tasks end with its process), the pipeline's closing of a call (what the
// conversation took in, the audit log), the history (its call's record) and the chat (the model is told).

import type { ChatService } from '../../../../chat/chatService.ts';
import type { AuditLog } from '../../../../host/approval/auditLog.ts';
import type { ConsentGate } from '../../../../host/consentGate.ts';
import { closeTask } from '../../../../host/tools/toolCallPipeline.ts';
import type { Database } from '../../../../store/database.ts';
import { transaction } from '../../../../store/database.ts';
import type { HistoryStore } from '../../../../store/historyStore.ts';
import type { McpHub } from '../../../McpHub.ts';
import type { TaskStore } from '../store/taskStore.ts';
import type { TaskResultMessage } from './taskLanding.ts';
import { settleTaskCall } from './taskLanding.ts';
import { TaskTracker } from './taskTracker.ts';

export interface TasksHostDeps {
  db: Database;
  store: TaskStore;
  hub: Pick<McpHub, 'get' | 'has'>;
  history: HistoryStore;
  consent: Pick<ConsentGate, 'tookIn'>;
  audit: Pick<AuditLog, 'append'>;
  /** Told what a task that failed on its server said, as the pipeline tells of a call (the sandbox's hint). */
  onCallFailed?(serverId: string, said: string): void;
  /** The chat, built after the pipeline this tracker serves; asked only when a task ends. */
  chat(): Pick<ChatService, 'deliver'>;
}

export function createTaskTracker(deps: TasksHostDeps): TaskTracker {
  const { hub } = deps;
  const connection = (serverId: string) => (hub.has(serverId) ? hub.get(serverId) : undefined);
  return new TaskTracker({
    store: deps.store,
    resume: (serverId, reference, tool) => hub.get(serverId).resumeTask(reference, tool),
    outlivesAtrium: (serverId) => connection(serverId)?.definition.transport !== 'stdio',
    isConnected: (serverId) => connection(serverId)?.snapshot.status.kind === 'ready',
    close: (call, finish) => closeTask({ consent: deps.consent, audit: deps.audit, ...(deps.onCallFailed ? { onCallFailed: deps.onCallFailed } : {}) }, call, finish),
    settle: (task) => settleTaskCall(deps.history, task) as Record<string, unknown> | undefined,
    deliver: (conversationId, message, followUp, saved) => deps.chat().deliver(conversationId, { ...(message as unknown as TaskResultMessage), followUp, saved }),
    transaction: (work) => transaction(deps.db, work),
    log: (serverId, text) => connection(serverId)?.log.add('info', 'host', text),
  });
}
