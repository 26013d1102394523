// The conversation half of the typed contract: history, sending and cancelling turns, pending requests,
// the grant ledger and the audit log.

import type { AtriumApi, ConversationSummary } from '../../shared/contract.ts';
import type { ConversationServices } from './conversationServices.ts';
import { GrantError } from '../host/approval/grantLedger.ts';
import { exportJson, exportMarkdown } from '../store/conversationExport.ts';
import type { ChatService, SendRequest } from '../chat/chatService.ts';
import type { TurnOutcome } from '../chat/agentLoop.ts';
import { resourceToContent } from '../chat/resourceAttachments.ts';
import { fileToContent } from '../chat/fileAttachments.ts';
import type { ChatContent, Conversation } from '../../shared/conversation.ts';
import type { ListedConversation } from '../store/historyStore.ts';

type ConversationRequests = Pick<
  AtriumApi,
  | 'listConversations'
  | 'getConversation'
  | 'renameConversation'
  | 'deleteConversation'
  | 'exportConversation'
  | 'sendMessage'
  | 'retryTurn'
  | 'cancelTurn'
  | 'listDrafts'
  | 'saveDraft'
  | 'listPending'
  | 'respondPending'
  | 'withdrawPending'
  | 'listProviders'
  | 'listGrants'
  | 'addGrant'
  | 'revokeGrant'
  | 'listAudit'
>;

export class NotFoundError extends Error {
  readonly code = 'not_found';
}

/** Reads a resource the person attached; the MCP side is reached only through this. */
export type ResourceReader = (serverId: string, uri: string) => Promise<{ contents: { uri: string; mimeType?: string; text?: string; blob?: string }[] }>;

export function createConversationApi({ history, drafts, chat, models, pending, ledger, audit, catalog }: ConversationServices, readResource: ResourceReader): ConversationRequests {
  const conversation = (id: string): Conversation => {
    const found = history.getConversation(id);
    if (!found) throw new NotFoundError(`there is no conversation "${id}"`);
    return found;
  };
  return {
    listConversations: async ({ search, limit }) => history.listConversations({ ...(search ? { search } : {}), ...(limit ? { limit } : {}) }).map((c) => conversationSummary(c, chat)),
    getConversation: async ({ conversationId }) => ({
      conversation: conversationSummary(conversation(conversationId), chat),
      messages: history.loadMessages(conversationId),
      toolCalls: history.toolCalls.list(conversationId),
      notes: history.notes.list(conversationId),
    }),
    renameConversation: async ({ conversationId, title }) => {
      if (!history.renameConversation(conversationId, title)) throw new NotFoundError(`there is no conversation "${conversationId}"`);
      return null;
    },
    deleteConversation: async ({ conversationId }) => {
      chat.cancel(conversationId);
      ledger.forgetConversation(conversationId);
      if (!history.deleteConversation(conversationId)) throw new NotFoundError(`there is no conversation "${conversationId}"`);
      return null;
    },
    exportConversation: async ({ conversationId, format }) => {
      const found = conversation(conversationId);
      const args = [found, history.loadMessages(conversationId), history.toolCalls.list(conversationId)] as const;
      return format === 'markdown' ? exportMarkdown(...args) : exportJson(...args);
    },
    sendMessage: async ({ conversationId, newConversationId, text, provider, model, resources, files, replaces }) => {
      // Read before anything is saved: a resource that cannot be read fails the send and loses nothing.
      const attached: ChatContent[] = [];
      for (const file of files ?? []) attached.push(...fileToContent(file));
      for (const { serverId, uri } of resources ?? []) attached.push(...resourceToContent(uri, (await readResource(serverId, uri)).contents));
      return sendTurn(chat, {
        content: [{ type: 'text', text }, ...attached],
        ...(resources?.length ? { from: resources.map(({ serverId, uri }) => ({ kind: 'resource' as const, serverId, name: uri })) } : {}),
        ...(conversationId ? { conversationId } : {}),
        ...(newConversationId ? { newConversationId } : {}),
        ...(provider ? { provider } : {}),
        ...(model ? { model } : {}),
        ...(replaces ? { replaces } : {}),
      });
    },
    retryTurn: async ({ conversationId, provider, model }) =>
      startedTurn((onStarted) => chat.retry({ conversationId, ...(provider ? { provider } : {}), ...(model ? { model } : {}), onStarted })),
    listProviders: async () => models.listProviders(),
    cancelTurn: async ({ conversationId }) => {
      chat.cancel(conversationId);
      return null;
    },
    listDrafts: async () => drafts.list(),
    saveDraft: async ({ conversationKey, text, replaces }) => {
      drafts.save(conversationKey, text, replaces);
      return null;
    },
    listPending: async () => pending.list(),
    withdrawPending: async ({ id, reason }) => {
      pending.withdraw(id, reason);
      return null;
    },
    respondPending: async ({ id, outcome }) => {
      if (!pending.respond(id, outcome)) throw new NotFoundError('that request is no longer waiting (it was answered or withdrawn)');
      return null;
    },
    listGrants: async ({ serverId }) => ledger.list(serverId ? { serverId } : {}),
    addGrant: async ({ serverId, tool: name, only, effect }) => {
      if (name !== undefined && only !== undefined) throw new GrantError('a rule is for one tool, or for the server’s read-only tools, not both');
      if (name === undefined) return ledger.grant({ scope: 'always', effect, subject: { serverId, tools: catalog.list(serverId).filter((t) => t.enabled), ...(only ? { only } : {}) } });
      const tool = await catalog.resolve(serverId, name);
      if (!tool) throw new NotFoundError(`${serverId} does not offer a tool named "${name}" now`);
      return ledger.grant({ scope: 'always', effect, subject: { tool } });
    },
    revokeGrant: async ({ id }) => {
      if (!ledger.revoke(id)) throw new NotFoundError(`there is no grant "${id}"`);
      return null;
    },
    listAudit: async ({ limit, serverId }) => audit.list({ limit: limit ?? 100, ...(serverId ? { serverId } : {}) }),
  };
}

/**
 * Runs a turn for a window. A failure before the turn begins (no model, a busy conversation) fails the
 * request, so the words come back to the composer; a failure after it is the turn's: saved with the
 * reply, announced by its `done` event and shown in the conversation, so the request succeeds.
 */
export function sendTurn(chat: ChatService, request: SendRequest): Promise<{ conversationId: string; stopReason: string }> {
  return startedTurn((onStarted) =>
    chat.send({
      ...request,
      onStarted: (id) => {
        onStarted(id);
        request.onStarted?.(id);
      },
    }),
  );
}

/** A turn run for a window (a message, a prompt, a retry), failing the request only when it could not begin. */
async function startedTurn(
  run: (onStarted: (conversationId: string) => void) => Promise<{ conversationId: string; outcome: TurnOutcome }>,
): Promise<{ conversationId: string; stopReason: string }> {
  let started: string | undefined;
  try {
    const { conversationId, outcome } = await run((id) => (started = id));
    return { conversationId, stopReason: outcome.stopReason };
  } catch (error) {
    if (started === undefined) throw error;
    return { conversationId: started, stopReason: 'error' };
  }
}

/** A conversation as the window lists it: with whether a turn runs in it now, and where a search found it. */
export function conversationSummary(c: ListedConversation, chat: Pick<ChatService, 'isRunning'>): ConversationSummary {
  return {
    ...(chat.isRunning(c.id) ? { running: true as const } : {}),
    id: c.id,
    title: c.title,
    createdAt: c.createdAt,
    updatedAt: c.updatedAt,
    ...(c.providerId ? { providerId: c.providerId } : {}),
    ...(c.model ? { model: c.model } : {}),
    ...(c.excerpt !== undefined ? { excerpt: c.excerpt } : {}),
  };
}
