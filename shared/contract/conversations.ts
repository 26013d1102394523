// The contract's section for conversations and their turns, the requests waiting for the person, grants and the audit log.
// Assembled with the other sections (and the extensions') in shared/contract.ts.

import type { ChatTurnEvent, AuditEntry, Grant } from '../domain.ts';
import type { Conversation, ConversationNote, StoredMessage, ToolCallRecord } from '../conversation.ts';
import type { PendingRequestView } from '../pendingPayloads.ts';
import { pendingAnswerSchema } from '../pendingPayloads.ts';
import type { ParamsSchema } from './schemaParts.ts';
import { serverId, noParams, serverFilter, conversationId, conversationOnly, newConversationId, stringMap } from './schemaParts.ts';

export interface ConversationSummary extends Conversation {
  /** A turn runs in it now: a window that missed a turn's end while its link was down learns it here. */
  running?: true;
  /**
   * Found by a search in what was said, its title not holding the words: a few words around the first
   * place its messages hold them, with … where the message goes on. Text from the conversation, so
   * possibly from a server: untrusted.
   */
  excerpt?: string;
}

/** A conversation with its messages and tool calls, as saved; server-provided text in it is untrusted. */
export interface ConversationDetail {
  conversation: ConversationSummary;
  messages: StoredMessage[];
  toolCalls: ToolCallRecord[];
  /** Atrium's own lines, each shown after the message its `afterSeq` names. */
  notes: ConversationNote[];
}

/** What each request of this section resolves with; its params are its schema's (`conversationsRequests`). */
/** What is in a conversation's message box and not sent. */
export interface Draft {
  text: string;
  /** The id of the person's last message these words are an edit of: sent, they take its place. */
  replaces?: string;
}

export interface ConversationsResults {
  listConversations: ConversationSummary[];
  getConversation: ConversationDetail;
  renameConversation: null;
  deleteConversation: null;
  exportConversation: string;
  /**
   * Sends the person's message (with any resources they attached, read when sent) and resolves when the turn
   * ends. With `replaces`, an edit: the person's last message and what answered it are kept, replaced.
   */
  sendMessage: { conversationId: string; stopReason: string };
  /** Runs a server's prompt as a slash command: its expansion is sent as the person's message, marked as from that prompt. */
  runPrompt: { conversationId: string; stopReason: string };
  /**
   * Answers the person's last message again (Retry): the replies after it are kept, marked as replaced,
   * and never given to the model; the message itself is not sent a second time. Resolves when the turn ends.
   */
  retryTurn: { conversationId: string; stopReason: string };
  cancelTurn: null;
  /** The words typed in each conversation's message box and not sent, by conversation key ("new": the one not started yet). */
  listDrafts: Record<string, Draft>;
  /**
   * Keeps a conversation's unsent words (empty: none), and which message they are an edit of; a draft for
   * a conversation that is gone is dropped.
   */
  saveDraft: null;
  listPending: PendingRequestView[];
  respondPending: null;
  /**
   * Takes a pending request back unanswered, for a front end that cannot ask anyone (a terminal without
   * input): the model or the server hears that no one could be asked, which is not a person's "no".
   */
  withdrawPending: null;
  listGrants: Grant[];
  /**
   * A rule the person sets in Servers › Permissions: always allow or always deny one tool, the server's
   * read-only tools or every tool, as the server lists them now. It replaces an earlier "always" answer
   * for the same target.
   */
  addGrant: Grant;
  revokeGrant: null;
  listAudit: AuditEntry[];
}

export interface ConversationsEvents {
  chatEvent: { conversationId: string; event: ChatTurnEvent };
  pendingOpened: PendingRequestView;
  pendingClosed: { id: string; how: 'settled' | 'withdrawn'; reason?: string };
  /** A conversation was made, renamed, written in, given another model, began or ended a turn (as listed now), or was deleted. */
  conversationsChanged: { conversation: ConversationSummary } | { removed: string };
  /** The grants (answers that decide later tool calls) as they are now, after one was given, spent or revoked. */
  grantsChanged: Grant[];
  /** A conversation's unsent words as they are now (empty: none, also when it was deleted). */
  draftChanged: Draft & { conversationKey: string };
}

/** The JSON Schema of each request's params: the runtime half of this section. */
export const conversationsRequests = {
  listConversations: {
    type: 'object',
    additionalProperties: false,
    properties: { search: { type: 'string', maxLength: 1000 }, limit: { type: 'integer', minimum: 1, maximum: 10_000 } },
  },
  getConversation: conversationOnly,
  renameConversation: {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'title'],
    properties: { conversationId, title: { type: 'string', minLength: 1, maxLength: 500 } },
  },
  deleteConversation: conversationOnly,
  exportConversation: {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId', 'format'],
    properties: { conversationId, format: { enum: ['markdown', 'json'] } },
  },
  sendMessage: {
    type: 'object',
    additionalProperties: false,
    required: ['text'],
    properties: {
      conversationId,
      newConversationId,
      text: { type: 'string', minLength: 1, maxLength: 1_000_000 },
      // An edit of the person's last message: its id (with conversationId).
      replaces: { type: 'string', minLength: 1, maxLength: 200 },
      provider: { type: 'string', minLength: 1, maxLength: 100 },
      model: { type: 'string', minLength: 1, maxLength: 200 },
      files: {
        type: 'array',
        maxItems: 10,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['name', 'mimeType', 'data'],
          properties: {
            name: { type: 'string', minLength: 1, maxLength: 255 },
            mimeType: { type: 'string', maxLength: 100 },
            // Base64 of at most 10 MB.
            data: { type: 'string', maxLength: 14_000_000, pattern: '^[A-Za-z0-9+/]*={0,2}$' },
          },
        },
      },
      resources: {
        type: 'array',
        maxItems: 20,
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['serverId', 'uri'],
          properties: { serverId, uri: { type: 'string', minLength: 1, maxLength: 65_536 } },
        },
      },
    },
  },
  runPrompt: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'name'],
    properties: {
      conversationId,
      newConversationId,
      serverId,
      name: { type: 'string', minLength: 1, maxLength: 512 },
      arguments: stringMap,
      provider: { type: 'string', minLength: 1, maxLength: 100 },
      model: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
  retryTurn: {
    type: 'object',
    additionalProperties: false,
    required: ['conversationId'],
    properties: {
      conversationId,
      provider: { type: 'string', minLength: 1, maxLength: 100 },
      model: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
  cancelTurn: conversationOnly,
  listDrafts: noParams,
  saveDraft: {
    type: 'object',
    additionalProperties: false,
    required: ['conversationKey', 'text'],
    properties: {
      // "new", or a conversation's id.
      conversationKey: { type: 'string', minLength: 1, maxLength: 200 },
      text: { type: 'string', maxLength: 1_000_000 },
      // The id of the person's message these words are an edit of (the window's "editing" mark).
      replaces: { type: 'string', minLength: 1, maxLength: 200 },
    },
  },
  listPending: noParams,
  respondPending: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'outcome'],
    properties: { id: { type: 'string', minLength: 1, maxLength: 100 }, outcome: pendingAnswerSchema },
  },
  withdrawPending: {
    type: 'object',
    additionalProperties: false,
    required: ['id', 'reason'],
    properties: { id: { type: 'string', minLength: 1, maxLength: 100 }, reason: { type: 'string', minLength: 1, maxLength: 500 } },
  },
  listGrants: serverFilter,
  addGrant: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId', 'effect'],
    properties: {
      serverId,
      /** Absent: a server-wide rule, for every tool or (`only`) its read-only tools. */
      tool: { type: 'string', minLength: 1, maxLength: 512 },
      only: { const: 'read-only' },
      effect: { enum: ['allow', 'deny'] },
    },
  },
  revokeGrant: { type: 'object', additionalProperties: false, required: ['id'], properties: { id: { type: 'string', minLength: 1, maxLength: 100 } } },
  listAudit: {
    type: 'object',
    additionalProperties: false,
    properties: { serverId, limit: { type: 'integer', minimum: 1, maximum: 10_000 } },
  },
} as const satisfies { readonly [K in keyof ConversationsResults]: ParamsSchema };

/** A record rather than a list, so an event added to ConversationsEvents but not here fails the type-check. */
export const conversationsEvents: { readonly [K in keyof ConversationsEvents]: true } = {
  chatEvent: true,
  pendingOpened: true,
  pendingClosed: true,
  conversationsChanged: true,
  grantsChanged: true,
  draftChanged: true,
};
