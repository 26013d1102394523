// The conversation model, on the ground floor: what a conversation, its messages and its tool calls are.
// The agent loop speaks it, the history store saves it, the contract carries it and the window shows it;
// each provider (main/chat/providers/) translates it to and from its own wire format. Text and results
// in it that came from a model or a server are untrusted.

import type { OutputSchemaAtCall, TokenUsage } from './domain.ts';

export type ChatRole = 'user' | 'assistant';

export type ChatContent =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  /**
   * `loadsTools`: a tool search's result, naming the tools it loads (model-facing names), for providers that
   * defer tools. `alsoFound`: what the search found besides tools (servers' skills), in words; its
   * `content` says it too, and a provider that loads the tools by reference sends these words with them.
   */
  | { type: 'tool_result'; toolUseId: string; content: ToolResultContent[]; isError?: boolean; loadsTools?: string[]; alsoFound?: string };

/** What a tool result may carry back to a model: text and images (other MCP content is summarised as text). */
export type ToolResultContent = { type: 'text'; text: string } | { type: 'image'; mimeType: string; data: string };

export interface ChatMessage {
  role: ChatRole;
  content: ChatContent[];
}

export interface Conversation {
  id: string;
  title: string;
  createdAt: number;
  updatedAt: number;
  providerId?: string;
  model?: string;
}

/** 'streaming' while a reply arrives; 'incomplete' when it was cut short (cancelled, or the process died). */
export type MessageStatus = 'complete' | 'streaming' | 'incomplete' | 'error';

/**
 * A message the person did not type: the expansion of a server's prompt or a server's skill they picked
 * (slash commands), or the end of a task a call started (MCP Tasks), which came in after its turn and is
 * given to the model at its next request.
 */
export type MessageOrigin =
  | { kind: 'prompt'; serverId: string; name: string }
  | { kind: 'skill'; serverId: string; name: string; uri: string }
  | { kind: 'task'; serverId: string; tool: string; callId: string; taskId: string; ended: 'completed' | 'failed' | 'cancelled' | 'lost'; reason?: string };

/** A message as saved, and as the window shows it. */
export interface StoredMessage extends ChatMessage {
  id: string;
  origin?: MessageOrigin;
  conversationId: string;
  seq: number;
  status: MessageStatus;
  error?: string;
  usage?: TokenUsage;
  /** When Retry replaced this message (a reply, or a tool result of one): kept to be read, never given to a model again. */
  replacedAt?: number;
  createdAt: number;
  updatedAt: number;
}

/** A call's state as saved: arguments that did not fit the tool's schema are saved as 'error'. */
export type ToolCallStatus = 'pending' | 'running' | 'done' | 'error' | 'denied' | 'cancelled';
export type ToolDecision = 'allow' | 'deny';

/** One MCP content block of a result as saved: a server's text, so every field is untrusted. */
export interface SavedContentBlock {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  name?: string;
  title?: string;
  resource?: { uri: string; mimeType?: string; text?: string; blob?: string };
}

/** A tool's result as saved: the MCP content blocks, structuredContent, or the failure that stopped the call. */
export interface SavedToolResult {
  content?: SavedContentBlock[];
  isError?: boolean;
  structuredContent?: unknown;
  /** A protocol or transport failure, or why the call was not made (not the tool's own isError result). */
  error?: string;
}

/** A tool call the model made, as saved and as the window shows it. */
export interface ToolCallRecord {
  /** The model's tool_use id; unique within its conversation. */
  id: string;
  conversationId: string;
  /** The assistant message whose tool_use this call answers. */
  messageId: string;
  serverId: string;
  tool: string;
  /** The name the model saw (prefixed, shortened), which may differ from the server's tool name. */
  modelName: string;
  arguments: Record<string, unknown>;
  decision?: ToolDecision;
  /** Who decided: e.g. "person", "policy:always", "policy:session". */
  decidedBy?: string;
  status: ToolCallStatus;
  /** The server's result, or `{ error }` with why the call failed or was not made. */
  result?: SavedToolResult;
  isError: boolean;
  /** The tool's output schema when it was called; absent for calls saved before Atrium kept it. */
  outputSchema?: OutputSchemaAtCall;
  createdAt: number;
  /** When the call went to its server; absent for a call that never ran (invalid, denied). */
  startedAt?: number;
  finishedAt?: number;
  durationMs?: number;
}

/** A call the agent loop reports once it has ended: the record less what the store stamps itself. */
export type FinishedToolCall = Omit<ToolCallRecord, 'createdAt' | 'finishedAt'>;

/** A call the agent loop reports as it waits for the person (`pending`) or starts running. */
export type ToolCallUnderway = Pick<ToolCallRecord, 'id' | 'conversationId' | 'messageId' | 'serverId' | 'tool' | 'modelName' | 'arguments' | 'outputSchema'> & { status: 'pending' | 'running' };

/**
 * A line Atrium adds to a conversation, saved with it and shown where it happened: a tool the model was
 * not given because its server changed it since the person approved it.
 */
export interface ConversationNote {
  id: number;
  conversationId: string;
  /** Shown after the message with this `seq` (the person's message of the turn it happened in). */
  afterSeq: number;
  kind: 'tool_withheld';
  serverId: string;
  tool: string;
  createdAt: number;
}

/** How a reply that did not finish (stopped, or cut off when Atrium quit) is said, in the window and in an export alike. */
export const UNFINISHED_REPLY = 'Stopped before it finished';
