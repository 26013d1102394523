// A server's question (elicitation, sampling) asked for one of its tasks carries the task's id
// (`_meta["io.modelcontextprotocol/related-task"]`, both revisions): its dialog names the task, and it is
// shown in the task's conversation, however long after its turn it comes.

/** The SDK's RELATED_TASK_META_KEY, written out: the brokers load with the host, the SDK with the first server. */
const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';

/** The id of the task a request is tied to, when it says. */
export function relatedTaskOf(params: unknown): string | undefined {
  const meta = (params as { _meta?: Record<string, unknown> } | undefined)?._meta;
  const related = meta?.[RELATED_TASK_META_KEY] as { taskId?: unknown } | undefined;
  return typeof related?.taskId === 'string' && related.taskId.length > 0 ? related.taskId : undefined;
}

/** Where a server's question is asked: for one of Atrium's tasks, in that task's conversation, named. */
export interface TaskOfQuestion {
  taskOf?(serverId: string, taskId: string): { tool: string; conversationId?: string } | undefined;
}

/** The task a request is tied to (its id and tool), and its conversation, when Atrium follows it. */
export function questionTask(deps: TaskOfQuestion, serverId: string, params: unknown): { task?: { taskId: string; tool: string }; conversationId?: string } {
  const taskId = relatedTaskOf(params);
  const found = taskId === undefined ? undefined : deps.taskOf?.(serverId, taskId);
  if (!found || taskId === undefined) return {};
  return { task: { taskId, tool: found.tool }, ...(found.conversationId ? { conversationId: found.conversationId } : {}) };
}
