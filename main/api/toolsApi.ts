// The tool requests of the contract, thin over the tool catalog (what is listed, offered, loaded and how it
// is found) and the one tool-call pipeline (a call the person makes, and cancelling any call by its id).

import { randomUUID } from 'node:crypto';
import type { AtriumApi } from '../../shared/contract.ts';
import type { ChatService } from '../chat/chatService.ts';
import { resultCount } from '../chat/toolSearch.ts';
import type { ToolCallPipeline } from '../host/tools/toolCallPipeline.ts';
import type { ToolCatalog } from '../host/tools/toolCatalog.ts';
import { endedOutcome, resultForPerson } from '../host/tools/personsCall.ts';
import type { HistoryStore } from '../store/historyStore.ts';
import { NotFoundError } from './conversationApi.ts';

type ToolRequests = Pick<
  AtriumApi,
  'listTools' | 'searchTools' | 'toolsInUse' | 'setToolLoaded' | 'approveToolChange' | 'setToolEnabled' | 'setToolAlwaysLoaded' | 'callTool' | 'cancelCall'
>;

export interface ToolsApiDeps {
  catalog: ToolCatalog;
  calls: ToolCallPipeline;
  chat: Pick<ChatService, 'toolsInUse'>;
  history: Pick<HistoryStore, 'getConversation'>;
}

export function createToolsApi({ catalog, calls, chat, history }: ToolsApiDeps): ToolRequests {
  return {
    listTools: async ({ serverId }) => catalog.list(serverId),
    searchTools: async ({ query, limit }) => catalog.rank(query, resultCount(limit)),
    toolsInUse: async ({ conversationId }) => chat.toolsInUse(conversationId),
    setToolLoaded: async ({ conversationId, modelName, loaded }) => {
      if (!history.getConversation(conversationId)) throw new NotFoundError(`there is no conversation "${conversationId}"`);
      if (!catalog.offered().some((tool) => tool.modelName === modelName)) throw new NotFoundError(`no tool the model may use is named "${modelName}"`);
      catalog.setLoadedByHand(conversationId, modelName, loaded);
      return null;
    },
    approveToolChange: async ({ serverId, tool, fingerprint }) => {
      catalog.approveChange(serverId, tool, fingerprint);
      return null;
    },
    setToolEnabled: async ({ serverId, tool, enabled }) => {
      await catalog.setEnabled(serverId, tool, enabled);
      return null;
    },
    setToolAlwaysLoaded: async ({ serverId, tool, alwaysLoaded }) => {
      await catalog.setAlwaysLoaded(serverId, tool, alwaysLoaded);
      return null;
    },
    callTool: async ({ serverId, tool, arguments: args, callId = randomUUID() }) => {
      const outcome = await calls.call({ serverId, tool, arguments: args ?? {}, origin: { by: 'person' }, callId });
      // A call that runs as a task is answered once the task ends (its status meanwhile: the tasks events).
      return resultForPerson(await endedOutcome(outcome), serverId, tool, () => catalog.list(serverId).map((known) => known.name));
    },
    // A direct call from the person or a view, or one tool call inside a conversation's turn.
    cancelCall: async ({ callId }) => {
      calls.cancel(callId);
      return null;
    },
  };
}
