// The pieces the contract's sections build their request schemas from: a server's name, a conversation's
// id, a list of roots, and so on, each with the bounds every request that takes it shares.

import type { ExtendedJSONSchema } from 'json-schema-to-ts';

/**
 * A request's params schema: JSON Schema, plus `patternHint` — what a pattern asks for, in words, so a
 * typed value that does not fit says so in the form's words (main/api/validateRequest.ts).
 */
export type ParamsSchema = ExtendedJSONSchema<{ patternHint: string }>;

export const serverId = { type: 'string', minLength: 1, maxLength: 200 } as const;
// Fields a person types into a form carry their label (`title`) and, for a pattern, what it asks for
// (`patternHint`), so a request that does not fit says so in the form's words (validateRequest.ts).
/** A name typed in the server editor: an empty one is reported by saveServer with the form's other problems. */
export const typedServerName = { type: 'string', maxLength: 200, title: 'Name' } as const;
export const shortText = { type: 'string', maxLength: 10_000 } as const;
export const noParams = { type: 'object', additionalProperties: false, properties: {} } as const;
export const serverFilter = { type: 'object', additionalProperties: false, properties: { serverId } } as const;
export const serverAndUri = {
  type: 'object',
  additionalProperties: false,
  required: ['serverId', 'uri'],
  properties: { serverId, uri: { type: 'string', minLength: 1, maxLength: 65_536 } },
} as const;
export const conversationId = { type: 'string', minLength: 1, maxLength: 100 } as const;
/**
 * The id a conversation a request starts is to get: a UUID the window made, so that of the conversations
 * that appear it knows which is its own (another window may start one at the same moment).
 */
export const newConversationId = { type: 'string', pattern: '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' } as const;
/** One tool of one server (MCP Apps: the tool a view belongs to). */
export const serverAndTool = {
  type: 'object',
  additionalProperties: false,
  required: ['serverId', 'tool'],
  properties: { serverId, tool: { type: 'string', minLength: 1, maxLength: 512 } },
} as const;
export const workspaceId = { type: 'string', minLength: 1, maxLength: 100 } as const;
export const workspaceName = { type: 'string', minLength: 1, maxLength: 100 } as const;
export const rootList = {
  type: 'array',
  maxItems: 256,
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['uri'],
    properties: { uri: { type: 'string', minLength: 1, maxLength: 4096 }, name: { type: 'string', maxLength: 256 } },
  },
} as const;
export const conversationOnly = { type: 'object', additionalProperties: false, required: ['conversationId'], properties: { conversationId } } as const;
export const stringMap = { type: 'object', additionalProperties: { type: 'string', maxLength: 1_000_000 } } as const;
export const pastedText = { type: 'string', maxLength: 1_000_000 } as const;
