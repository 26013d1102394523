import type { SavedToolResult } from '../../../../../shared/conversation.ts';

/**
 * A tool call as its MCP Apps view follows it: first the arguments as the model writes them, then the
 * whole arguments, then its result (or that it was cancelled). The same view is kept through all of it.
 */
export interface ViewedCall {
  id: string;
  conversationId: string;
  /** The reply that made the call. */
  messageId: string;
  serverId: string;
  tool: string;
  /** As far as the model has written them, while it writes them. */
  partialArguments?: Record<string, unknown>;
  /** The whole arguments, once written. */
  arguments?: Record<string, unknown>;
  cancelled: boolean;
  /** Once the call ended: the server's result, or why it failed or was not made. */
  result?: SavedToolResult;
}
