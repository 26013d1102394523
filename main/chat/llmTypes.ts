// What a model provider is to the agent loop: a request of the conversation model (shared/conversation.ts)
// and a stream of events back. Each provider (Anthropic Messages, OpenAI Chat Completions and Responses,
// OpenAI-compatible servers) translates to and from its own wire format; nothing outside
// main/chat/providers/ knows those formats.

import type { ChatMessage } from '../../shared/conversation.ts';
import type { ProviderKind } from '../../shared/contract.ts';
import type { ProviderConfig } from '../store/settingsStore.ts';

export type { ProviderConfig };
import type { StopReason, TokenUsage } from '../../shared/domain.ts';

/** A tool as a model sees it: its model-facing name and its JSON Schema, kept intact where possible. */
export interface ModelTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  /**
   * Sent but not loaded (only to a provider that `defersTools`): the model sees it once a tool search's
   * result names it (`loadsTools`). The list of tools then stays the same from request to request.
   */
  deferred?: boolean;
  /** Atrium's tool search: a provider whose API has a kind of tool for searching sends it as that kind. */
  searchesTools?: boolean;
}

export interface ModelRequest {
  model: string;
  system?: string;
  messages: ChatMessage[];
  tools: ModelTool[];
  maxTokens: number;
  /** Aborting stops the stream mid-way; the provider then ends with stopReason 'cancelled'. */
  signal?: AbortSignal;
}


export type ModelStreamEvent =
  | { type: 'text_delta'; text: string }
  /** A tool call's arguments as they stream in (for showing progress); `tool_call` follows with the whole call. */
  | { type: 'tool_call_delta'; id: string; name: string; partialJson: string }
  | { type: 'tool_call'; id: string; name: string; input: Record<string, unknown> }
  /** `model`: the model the API says answered, when that is not the one asked for (a server that serves whatever it has loaded). */
  | { type: 'done'; stopReason: StopReason; usage: TokenUsage; model?: string }
  /** An image the model produced (the Responses API's image generation), whole. */
  | { type: 'image'; mimeType: string; data: string }
  /** Something the provider adapted (e.g. a schema keyword a provider refuses), for the log. */
  | { type: 'notice'; message: string };

export interface LlmProvider {
  readonly id: string;
  readonly kind: ProviderKind;
  /**
   * Whether its API takes deferred tools (Anthropic's `defer_loading` with tool references, OpenAI
   * Responses' client tool search): when the model searches for tools, every tool is sent deferred and the
   * search's results load them. Otherwise the found tools are added to the list sent.
   */
  readonly defersTools: boolean;
  /** The models this provider offers: fetched where the API lists them, else the configured ones. */
  listModels(): Promise<string[]>;
  /** Streams one model turn. Errors a person can act on (bad key, unknown model, no network) reject with LlmError. */
  stream(request: ModelRequest): AsyncIterable<ModelStreamEvent>;
}


export class LlmError extends Error {
  readonly code = 'failed';
  readonly providerId: string;
  readonly status: number | undefined;

  constructor(providerId: string, message: string, options?: { status?: number; cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'LlmError';
    this.providerId = providerId;
    this.status = options?.status;
  }
}
