// A server's tools as the window and the model's tool list see them: annotations, summaries, what a
// conversation has loaded and why, a tool's definition as approved and what changed in it.

import type { ServerId } from './serverId.ts';

export interface ToolAnnotationsView {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** One tool the model's tool search finds for a query, with its score (higher ranks first). */
/** How a tool came to be loaded in a conversation (the model searching for tools): what the window says of it. */
export type LoadedHow = { kind: 'search'; query: string } | { kind: 'called' } | { kind: 'by-hand' };

/** A tool the model has without searching for it, in one conversation, and why. */
export interface LoadedToolView {
  modelName: string;
  serverId: ServerId;
  tool: string;
  /** `always`: the person keeps it always loaded (every conversation). */
  how: LoadedHow | { kind: 'always' };
}

/** What the model gets of the tools in a conversation: all of them, or a search and what it loaded. */
export interface ToolsInUse {
  /** The tools the model may use (on, not withheld). */
  offered: number;
  /** Why the model searches for tools instead of getting them all; absent when it gets them all. */
  searching?: string;
  /** While it searches: what it has without searching, most recently used first (the always loaded first). */
  loaded: LoadedToolView[];
}

export interface ToolSearchHit {
  tool: ToolSummary;
  score: number;
}

export interface ToolSummary {
  serverId: ServerId;
  name: string;
  /** Unique across all servers and valid for both Anthropic and OpenAI tool names. */
  modelName: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotationsView;
  /** Off when the person turned this tool (or its server's tools) off for the model. */
  enabled: boolean;
  /** The person chose it to be sent to the model always, even when the model searches for the others. */
  alwaysLoaded?: true;
  /** MCP Apps: the view its results show, a `ui://` resource of the same server. */
  view?: { resourceUri: string };
  /** MCP Apps: who may call it (absent: both). A tool for its view only ('app') is never offered to the model. */
  visibility?: ('model' | 'app')[];
  /**
   * Set when the server changed the tool since Atrium pinned it: the tool is withheld (not offered to the
   * model, not callable) until the person approves the new definition.
   */
  changed?: ToolChangeView;
}

/** Everything a server says about one tool that a person approves: what the model reads and what it may do. */
export interface ToolDefinitionView {
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotationsView;
}

export interface ToolChangeView {
  /** The definition the person approved (or the one Atrium saw first). */
  previous: ToolDefinitionView;
  /** When that definition was pinned. */
  pinnedAt: number;
  /** The new definition's fingerprint: approving names it, so a tool that changed again is not approved unseen. */
  fingerprint: string;
}

/**
 * A tool's output schema as it was when Atrium called the tool, kept with the call. The connection fails
 * a successful call whose structuredContent does not match a declared schema, so a saved result's
 * structuredContent either matched `schema` or came from a tool that declared none.
 */
export type OutputSchemaAtCall = { declared: true; schema: Record<string, unknown> } | { declared: false };

export function outputSchemaAtCall(tool: Pick<ToolSummary, 'outputSchema'>): OutputSchemaAtCall {
  return tool.outputSchema ? { declared: true, schema: tool.outputSchema } : { declared: false };
}
