import type { SavedToolResult, ToolCallRecord } from '../../../../../shared/conversation.ts';
import type { LiveToolCall } from '../../../../../renderer/store/chatSlice.ts';

/**
 * A tool call as its MCP Apps view may know it. The view is shown from the moment the model starts
 * writing the call, but it learns the call's arguments only once the call was allowed (it went to its
 * server): a view is the server's code with a network of its own, and arguments it saw while the model
 * wrote them, or while the person was still deciding, it could send out before they said no. Nothing of
 * the arguments as the model writes them reaches it: whether a call will be asked about is decided only
 * when the call is made (a grant can be revoked, an untrusted result read earlier in the turn raises the
 * bar), so there is no moment before that when telling it would be safe.
 */
export interface ViewedCall {
  id: string;
  conversationId: string;
  /** The reply that made the call. */
  messageId: string;
  serverId: string;
  tool: string;
  /** The whole arguments, once the call was allowed; absent before, and for a call that never ran. */
  arguments?: Record<string, unknown>;
  /** Cancelled after it started. */
  cancelled: boolean;
  /** The call ended without running (denied, not valid, cancelled or refused before it ran): why, for the view. */
  notRun?: string;
  /** Once the call ended after running: the server's result, or why it failed. */
  result?: SavedToolResult;
}

const ended = new Set(['done', 'error', 'denied', 'invalid', 'cancelled']);

const whyNotRun: Record<string, string> = {
  denied: 'The call was not allowed.',
  invalid: 'The call was not made: its arguments were not valid.',
  cancelled: 'The call was cancelled before it ran.',
  error: 'The call was not made.',
};

/** The call as its view may see it now, from the live turn and what was saved; undefined until it is placed. */
export function viewedCall(saved: ToolCallRecord | undefined, live: LiveToolCall | undefined, conversationId: string | undefined, messageId: string | undefined): ViewedCall | undefined {
  const id = saved?.id ?? live?.callId;
  const conversation = saved?.conversationId ?? conversationId;
  const message = saved?.messageId ?? messageId;
  if (id === undefined || conversation === undefined || message === undefined) return undefined;
  const status = live?.status ?? saved?.status ?? 'pending';
  const isEnded = ended.has(status);
  // Allowed: this window saw it start, or, once it ended, its record says it started or was allowed. While a
  // call is live and not ended, only the live turn speaks for it (a record of an earlier run does not).
  const liveSays = live !== undefined && (live.status === 'running' || live.startedAt !== undefined);
  const savedSays = saved?.startedAt !== undefined || saved?.decision === 'allow';
  const allowed = liveSays || (savedSays && (live === undefined || isEnded));
  const base = { id, conversationId: conversation, messageId: message, serverId: saved?.serverId ?? live?.serverId ?? '', tool: saved?.tool ?? live?.tool ?? '' };
  if (!allowed) return { ...base, cancelled: false, ...(isEnded ? { notRun: whyNotRun[status] ?? 'The call was not made.' } : {}) };
  return {
    ...base,
    arguments: saved?.arguments ?? live?.arguments ?? {},
    cancelled: status === 'cancelled',
    // A result is taken from what was saved only once the call ended: a call run again is not shown its old one.
    ...(isEnded && saved?.result !== undefined ? { result: saved.result } : {}),
  };
}
