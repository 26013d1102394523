// Conversations as the front ends use them: send a message (creating the conversation when needed),
// cancel a turn, list and export history. A turn runs the agent loop with the tools of every ready
// server, the consent gate, and the history store; its events go out on the host's event bus.

import type { ToolsInUse } from '../../shared/domain.ts';
import { ChangeListeners } from '../changeListeners.ts';
import { CONTEXT_TOKENS_BY_KIND } from './toolSearch.ts';
import type { HistoryStore } from '../store/historyStore.ts';
import type { TurnEvent, TurnOutcome, TurnStore } from './agentLoop.ts';
import type { HostTools, ToolCalls, TurnTools } from './turnTools.ts';
import { runTurn } from './agentLoop.ts';
import type { ModelResolver } from './modelResolver.ts';
import { defaultProviderId } from './providerSettings.ts';
import type { ProviderChoice, ProviderSettings } from './providerSettings.ts';
import { transcriptForModel } from './transcript.ts';
import type { ChatContent, MessageOrigin } from '../../shared/conversation.ts';

/** A request about a conversation that cannot be met as asked; the message is for the person. */
export class ConversationError extends Error {
  readonly code = 'failed';
}

export interface ChatServiceDeps {
  history: HistoryStore;
  settings: () => ProviderSettings;
  /** Which provider and model a message goes to (shared with servers' sampling requests). */
  models: ModelResolver;
  /** The tool catalog: what a turn offers, the search, what a conversation keeps loaded. */
  tools: TurnTools;
  /** The one tool-call pipeline every call of the model goes through. */
  calls: ToolCalls;
  /** Atrium's own tools an extension adds to every turn (Skills). */
  hostTools?: HostTools;
  /** MCP Apps: what the views open in the conversation told the model, given with every turn. */
  viewContext?: (conversationId: string) => string | undefined;
  onEvent(conversationId: string, event: TurnEvent): void;
}

export interface SendRequest extends ProviderChoice {
  conversationId?: string;
  content: ChatContent[];
  /** Where the content came from when the person did not type it (a server's prompt). */
  origin?: MessageOrigin;
  system?: string;
  /** Called once the person's message is saved and the turn begins; a failure after it is the turn's, shown in the conversation. */
  onStarted?(conversationId: string): void;
}

export class ChatService {
  private readonly deps: ChatServiceDeps;
  private readonly running = new Map<string, AbortController>();
  private readonly runningChanges = new ChangeListeners<string>();

  constructor(deps: ChatServiceDeps) {
    this.deps = deps;
  }

  async send(request: SendRequest): Promise<{ conversationId: string; outcome: TurnOutcome }> {
    const { history } = this.deps;
    const existing = request.conversationId ? history.getConversation(request.conversationId) : undefined;
    if (request.conversationId && !existing) throw new ConversationError(`there is no conversation "${request.conversationId}"`);
    // A conversation keeps its provider and model unless the person picks others for this message.
    const choice: ProviderChoice = {
      ...(existing?.providerId ? { provider: existing.providerId } : {}),
      ...(existing?.model && (!request.provider || request.provider === existing.providerId) ? { model: existing.model } : {}),
      ...dropUndefined(request),
    };
    const { config, model } = await this.deps.models.resolveModel(choice);
    const provider = this.deps.models.makeProvider(config);
    const conversation = existing ?? history.createConversation({ title: titleFrom(request.content), providerId: config.id, model });
    if (this.running.has(conversation.id)) throw new ConversationError('this conversation already has a turn running; cancel it first');
    // What the person picked for this message is the conversation's model from now on.
    if (existing && (existing.providerId !== config.id || existing.model !== model)) history.setConversationModel(conversation.id, config.id, model);
    const controller = new AbortController();
    this.running.set(conversation.id, controller);
    this.runningChanges.tell(conversation.id);
    const system = [request.system, this.deps.viewContext?.(conversation.id)].filter((part) => part !== undefined && part !== '').join('\n\n');
    // Every turn that begins ends with a `done` event, also when it fails, so no front end waits for a turn that is over.
    let ended = false;
    const onEvent = (event: TurnEvent) => {
      if (event.type === 'done') ended = true;
      this.deps.onEvent(conversation.id, event);
    };
    request.onStarted?.(conversation.id);
    try {
      const outcome = await runTurn(
        {
          conversationId: conversation.id,
          userContent: request.content,
          ...(request.origin ? { userOrigin: request.origin } : {}),
          provider,
          model,
          tools: this.deps.tools.plan(conversation.id, CONTEXT_TOKENS_BY_KIND[config.kind]),
          signal: controller.signal,
          ...(system ? { system } : {}),
        },
        { store: historyTurnStore(history), tools: this.deps.tools, calls: this.deps.calls, ...(this.deps.hostTools ? { hostTools: this.deps.hostTools } : {}), onEvent },
      );
      return { conversationId: conversation.id, outcome };
    } catch (error) {
      if (!ended) onEvent({ type: 'done', stopReason: 'error', usage: { inputTokens: 0, outputTokens: 0 } });
      throw error;
    } finally {
      this.running.delete(conversation.id);
      this.runningChanges.tell(conversation.id);
    }
  }

  /**
   * What the model gets of the tools in a conversation (a new one without `conversationId`): all of them,
   * or, past the count or the share of its context, the search and what it has without searching — the
   * tools the person keeps always loaded, then what the conversation loaded, each with why. The same plan
   * a turn gets.
   */
  toolsInUse(conversationId?: string): ToolsInUse {
    const conversation = conversationId === undefined ? undefined : this.deps.history.getConversation(conversationId);
    if (conversationId !== undefined && !conversation) throw new ConversationError(`there is no conversation "${conversationId}"`);
    const settings = this.deps.settings();
    const providerId = conversation?.providerId ?? defaultProviderId(settings);
    const kind = settings.providers.find((provider) => provider.id === providerId)?.kind;
    const plan = this.deps.tools.plan(conversationId, kind ? CONTEXT_TOKENS_BY_KIND[kind] : undefined);
    return { offered: plan.offered.length, ...(plan.searching ? { searching: plan.searching } : {}), loaded: plan.loaded };
  }

  /** Told with a conversation's id when a turn begins or ends in it (`isRunning` says which). */
  onRunningChange(listener: (conversationId: string) => void): () => void {
    return this.runningChanges.add(listener);
  }

  /** Whether a turn runs in the conversation now. */
  isRunning(conversationId: string): boolean {
    return this.running.has(conversationId);
  }

  /** Stops the running turn of a conversation: the stream ends, a running tool call is cancelled. */
  cancel(conversationId: string): boolean {
    const controller = this.running.get(conversationId);
    controller?.abort();
    return controller !== undefined;
  }
}

/** The history store as the agent loop writes to it. */
export function historyTurnStore(history: HistoryStore): TurnStore {
  return {
    appendUserMessage: (conversationId, content, origin) => void history.appendUserMessage(conversationId, content, origin),
    loadChatMessages: (conversationId) => transcriptForModel(history.loadMessages(conversationId).map(({ role, content }) => ({ role, content }))),
    beginAssistantMessage: (conversationId) => history.beginAssistantMessage(conversationId),
    appendAssistantText: (messageId, delta) => history.appendAssistantText(messageId, delta),
    // What the server sent, as saved; a call that failed has no result to read.
    savedResult: (conversationId, callId) => {
      const result = history.toolCalls.list(conversationId).find((call) => call.id === callId)?.result;
      return result === undefined || result.error !== undefined ? undefined : { ...result };
    },
    setAssistantContent: (messageId, content) => history.setAssistantContent(messageId, content),
    finishAssistantMessage: (messageId, content, outcome) => {
      history.finishAssistantMessage(messageId, {
        status: outcome.status,
        content,
        ...(outcome.usage ? { usage: outcome.usage } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
      });
    },
    recordToolCall: (call) => {
      const { status, isError, result, startedAt, ...declared } = call;
      history.toolCalls.record(declared);
      history.toolCalls.update(call.conversationId, call.id, {
        status,
        isError,
        ...(startedAt !== undefined ? { startedAt } : {}),
        ...(result !== undefined ? { result } : {}),
      });
    },
  };
}

function titleFrom(content: ChatContent[]): string {
  const text = content.find((c) => c.type === 'text');
  const line = text?.type === 'text' ? text.text.replace(/\s+/g, ' ').trim() : '';
  return line.length > 60 ? `${line.slice(0, 57)}…` : line || 'New conversation';
}

function dropUndefined(choice: ProviderChoice): ProviderChoice {
  return {
    ...(choice.provider !== undefined ? { provider: choice.provider } : {}),
    ...(choice.model !== undefined ? { model: choice.model } : {}),
    ...(choice.baseUrl !== undefined ? { baseUrl: choice.baseUrl } : {}),
  };
}
