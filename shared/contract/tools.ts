// The contract's section for tools: the tool catalog (listed, offered, loaded, searched, chosen) and calls the person makes or cancels.
// Assembled with the other sections (and the extensions') in shared/contract.ts.

import type { ProgressUpdate, ServerId, ToolSearchHit, ToolsInUse, ToolSummary } from '../domain.ts';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ParamsSchema } from './schemaParts.ts';
import { serverId, serverFilter, conversationId } from './schemaParts.ts';

/** What each request of this section resolves with; its params are its schema's (`toolsRequests`). */
export interface ToolsResults {
  listTools: ToolSummary[];
  /**
   * The tools the model's tool search finds for a query, ranked exactly as the model would get them (over the
   * tools it may be offered: not withheld, not for a view only), best first.
   */
  searchTools: ToolSearchHit[];
  /**
   * What the model gets of the tools in a conversation (a new one without `conversationId`): all of them,
   * or the search and what it has without searching (always loaded, loaded by a search, a call or by hand), each with why.
   */
  toolsInUse: ToolsInUse;
  /** Loads a tool into a conversation by hand, so the model has it without searching; or unloads it. */
  setToolLoaded: null;
  /**
   * Approves a tool's changed definition, the one whose fingerprint (`changed.fingerprint` from listTools)
   * the person saw beside the old one: the tool is offered to the model again. Fails when the tool changed
   * again meanwhile.
   */
  approveToolChange: null;
  /** Turns one tool (or, without `tool`, all of a server's tools) on or off for the model. */
  setToolEnabled: null;
  /** Keeps one tool (or, without `tool`, all of a server's tools) always sent to the model, even when it searches for the rest; or lets it go. */
  setToolAlwaysLoaded: null;
  callTool: CallToolResult;
  cancelCall: null;
}

export interface ToolsEvents {
  progress: ProgressUpdate;
  /** A server's tools as Atrium shows them changed (listed again, turned on or off, a change approved): list them again. */
  toolsChanged: { serverId: ServerId };
  /** What a conversation has loaded without searching changed (found, called, loaded or unloaded by hand): read it again (`toolsInUse`). */
  toolsLoadedChanged: { conversationId: string };
}

/** The JSON Schema of each request's params: the runtime half of this section. */
export const toolsRequests = {
  listTools: serverFilter,
  searchTools: {
    type: 'object',
    additionalProperties: false,
    required: ['query'],
    properties: { query: { type: 'string', minLength: 1, maxLength: 2_000 }, limit: { type: 'integer', minimum: 1, maximum: 20 } },
  },
  toolsInUse: { type: 'object', additionalProperties: false, properties: { conversationId } },
  setToolLoaded: {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'modelName', 'loaded'],
    properties: { conversationId, modelName: { type: 'string', minLength: 1, maxLength: 200 }, loaded: { type: 'boolean' } },
  },
  approveToolChange: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'tool', 'fingerprint'],
    properties: { serverId, tool: { type: 'string', minLength: 1, maxLength: 512 }, fingerprint: { type: 'string', pattern: '^[0-9a-f]{64}$' } },
  },
  setToolEnabled: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'enabled'],
    properties: { serverId, tool: { type: 'string', minLength: 1, maxLength: 512 }, enabled: { type: 'boolean' } },
  },
  setToolAlwaysLoaded: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'alwaysLoaded'],
    properties: { serverId, tool: { type: 'string', minLength: 1, maxLength: 512 }, alwaysLoaded: { type: 'boolean' } },
  },
  callTool: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'tool'],
    properties: {
      serverId,
      tool: { type: 'string', minLength: 1, maxLength: 512 },
      arguments: { type: 'object' },
      callId: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
  cancelCall: {
    type: 'object',
    additionalProperties: false,
    required: ['callId'],
    properties: { callId: { type: 'string', minLength: 1, maxLength: 200 } },
  },
} as const satisfies { readonly [K in keyof ToolsResults]: ParamsSchema };

/** A record rather than a list, so an event added to ToolsEvents but not here fails the type-check. */
export const toolsEvents: { readonly [K in keyof ToolsEvents]: true } = {
  progress: true,
  toolsChanged: true,
  toolsLoadedChanged: true,
};
