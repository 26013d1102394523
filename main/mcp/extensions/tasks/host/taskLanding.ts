// Where a task's end goes in its conversation: its call's saved record takes the result (or why there is
// none), so its card shows it; and the model is told, in a message of its own at its next request, with
// the result as a tool result would carry it (cut to the model's budget, the rest readable by page).

import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ChatContent, MessageOrigin, SavedToolResult } from '../../../../../shared/conversation.ts';
import { toolResultForModel } from '../../../../chat/toolResultForModel.ts';
import type { HistoryStore } from '../../../../store/historyStore.ts';
import type { EndedTask } from './taskTracker.ts';

/** What the model is told of a task that ended, as a message of the conversation. */
export interface TaskResultMessage {
  content: ChatContent[];
  origin: Extract<MessageOrigin, { kind: 'task' }>;
}

/** Saves the end in its call's record; returns what the model is to be told. */
export function settleTaskCall(history: Pick<HistoryStore, 'toolCalls' | 'loadMessages'>, task: EndedTask, resultBudgetChars?: number): TaskResultMessage | undefined {
  const { record, ending } = task;
  if (record.conversationId === undefined) return undefined;
  // Its card names the server and the tool: the failure is saved as the words alone.
  const result: SavedToolResult = ending.kind === 'done' ? (ending.result as SavedToolResult) : { error: ending.reason };
  const failed = ending.kind !== 'done' || ending.result.isError === true;
  if (hasCallRecord(history, task)) {
    history.toolCalls.update(record.conversationId, record.callId, { status: ending.kind === 'cancelled' ? 'cancelled' : failed ? 'error' : 'done', isError: failed, result });
  }
  const origin: TaskResultMessage['origin'] = {
    kind: 'task',
    serverId: record.serverId,
    tool: record.tool.name,
    callId: record.callId,
    taskId: record.taskId,
    ended: record.status === 'completed' ? 'completed' : (record.status as 'failed' | 'cancelled' | 'lost'),
    ...(ending.kind === 'failed' ? { reason: ending.reason } : {}),
  };
  return { content: contentFor(task, resultBudgetChars), origin };
}

/**
 * Whether the call has its record, made now when it has not: a host killed between the task's start and
 * the call's saving (the task is kept first) left the reply that made the call, but not the call.
 */
function hasCallRecord(history: Pick<HistoryStore, 'toolCalls' | 'loadMessages'>, { record }: EndedTask): boolean {
  const conversationId = record.conversationId ?? '';
  if (history.toolCalls.list(conversationId).some((call) => call.id === record.callId)) return true;
  const reply = history.loadMessages(conversationId).find((message) => message.role === 'assistant' && message.content.some((block) => block.type === 'tool_use' && block.id === record.callId));
  if (!reply) return false;
  history.toolCalls.record({ conversationId, messageId: reply.id, id: record.callId, serverId: record.serverId, tool: record.tool.name, modelName: record.tool.modelName, arguments: record.arguments, status: 'running', decision: 'allow', decidedBy: record.decision.decidedBy });
  return true;
}

function contentFor({ record, ending }: EndedTask, resultBudgetChars: number | undefined): ChatContent[] {
  const call = `your call of ${record.serverId}/${record.tool.name} (call ${record.callId}, task ${record.taskId})`;
  if (ending.kind === 'done') {
    const forModel = toolResultForModel(ending.result as CallToolResult, resultBudgetChars, record.callId);
    const said = forModel.isError ? `The task of ${call} ended; the tool reported an error:` : `The task of ${call} finished. Its result:`;
    return [{ type: 'text', text: said }, ...forModel.content];
  }
  if (ending.kind === 'cancelled') return [{ type: 'text', text: `The task of ${call} was cancelled before it finished${record.reason ? ` (${record.reason})` : ''}: it has no result.` }];
  const lost = record.status === 'lost';
  return [{ type: 'text', text: `The task of ${call} ${lost ? 'was lost' : 'failed'}: ${ending.reason}. It has no result.` }];
}
