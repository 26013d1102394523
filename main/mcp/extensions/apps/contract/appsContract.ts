// MCP Apps' section of the contract: a tool's view, the calls and context a view sends, and what the
// person chose for servers' views. Registered with the other sections in shared/contract.ts.

import type { CallToolResult } from '@modelcontextprotocol/client';
import type { ToolViewDocument, ViewContextEntry, ViewTrust } from './viewSandbox.ts';
import { viewPermissions } from './viewSandbox.ts';
import type { ParamsSchema } from '../../../../../shared/contract/schemaParts.ts';
import { serverId, serverFilter, conversationId, serverAndTool } from '../../../../../shared/contract/schemaParts.ts';

/** What each request of this section resolves with; its params are its schema's (`appsRequests`). */
export interface AppsResults {
  /**
   * MCP Apps: a tool's view, read from its server (the `ui://` resource its `_meta.ui.resourceUri` names)
   * with what it declares it may reach, cleaned, for the window to show in the view sandbox.
   */
  openToolView: ToolViewDocument;
  /**
   * MCP Apps: a view asks to call a tool of its own server. It goes through the consent gate as a model's
   * call does (the dialog says the view asks); only the view's own server, and only tools declared for the
   * view (visibility "app", or no visibility). Its result goes back to the view, not to the model.
   */
  callToolFromView: CallToolResult;
  /**
   * MCP Apps: a view tells the model something (`ui/update-model-context`): it replaces what that view said
   * before and goes to the model with every turn of the conversation, said to be the view's word. The
   * text as kept (cleaned, capped) comes back.
   */
  setViewContext: { kept: string };
  /** What the views of a conversation told the model, each view's latest. */
  listViewContext: ViewContextEntry[];
  /** What the person chose for servers' views: shown without asking, permissions (one server's, with `serverId`). */
  listViewTrust: ViewTrust[];
  /** "Always show views from this server", or its revocation. */
  setViewTrust: null;
  /** Lets a server's views use a browser permission they ask for (camera, microphone, …), or stops it. */
  setViewPermission: null;
}

export interface AppsEvents {
  /** MCP Apps: what the person chose for servers' views (shown without asking, permissions), as it is now. */
  viewTrustChanged: ViewTrust[];
}

/** The JSON Schema of each request's params: the runtime half of this section. */
export const appsRequests = {
  openToolView: serverAndTool,
  callToolFromView: {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'viewOf', 'tool'],
    properties: {
      conversationId,
      /** The tool whose view asks (its server is the only one the view may call). */
      viewOf: serverAndTool,
      tool: { type: 'string', minLength: 1, maxLength: 512 },
      arguments: { type: 'object' },
      callId: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
  setViewContext: {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'callId', 'viewOf', 'text'],
    properties: {
      conversationId,
      callId: { type: 'string', minLength: 1, maxLength: 200 },
      viewOf: serverAndTool,
      text: { type: 'string', maxLength: 1_000_000 },
    },
  },
  listViewContext: { type: 'object', additionalProperties: false, required: ['conversationId'], properties: { conversationId } },
  listViewTrust: serverFilter,
  setViewTrust: { type: 'object', additionalProperties: false, required: ['serverId', 'trusted'], properties: { serverId, trusted: { type: 'boolean' } } },
  setViewPermission: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'permission', 'allowed'],
    properties: { serverId, permission: { enum: viewPermissions }, allowed: { type: 'boolean' } },
  },
} as const satisfies { readonly [K in keyof AppsResults]: ParamsSchema };

/** A record rather than a list, so an event added to AppsEvents but not here fails the type-check. */
export const appsEvents: { readonly [K in keyof AppsEvents]: true } = {
  viewTrustChanged: true,
};
