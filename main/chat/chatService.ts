// Conversations as the front ends use them: send a message (creating the conversation when needed),
// cancel a turn, list and export history. A turn runs the agent loop with the tools of every ready
// server, the consent gate, and the history store; its events go out on the host's event bus.

import type { jsonSchemaValidator } from '@modelcontextprotocol/client';
import type { LoadedToolView, ToolSearchHit, ToolSummary, ToolsInUse } from '../../shared/domain.ts';
import { CONTEXT_TOKENS_BY_KIND, rankTools, shouldSearch } from './toolSearch.ts';
import type { HistoryStore } from '../store/historyStore.ts';
import type { LoadedToolStore } from '../store/loadedToolStore.ts';
import type { ToolGate, ToolRunner, TurnEvent, TurnOutcome, TurnStore } from './agentLoop.ts';
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
  gate: ToolGate;
  runner: ToolRunner;
  validator: jsonSchemaValidator;
  settings: () => ProviderSettings;
  /** Which provider and model a message goes to (shared with servers' sampling requests). */
  models: ModelResolver;
  /** The tools of every ready server, in a stable order. */
  tools: () => ToolSummary[];
  /** MCP Apps: what the views open in the conversation told the model, given with every turn. */
  viewContext?: (conversationId: string) => string | undefined;
  /** What each conversation loaded through the tool search, called or was given by hand, kept loaded in its later turns. */
  loadedTools?: LoadedToolStore;
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
  private readonly calls = new Map<string, AbortController>();

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
          tools: this.deps.tools(),
          signal: controller.signal,
          contextTokens: CONTEXT_TOKENS_BY_KIND[config.kind],
          ...(system ? { system } : {}),
        },
        {
          store: historyTurnStore(history),
          gate: this.deps.gate,
          runner: this.deps.runner,
          validator: this.deps.validator,
          onEvent,
          registerCall: (callId, callController) => {
            this.calls.set(callId, callController);
            return () => this.calls.delete(callId);
          },
          ...(this.deps.settings().toolThreshold ? { toolThreshold: this.deps.settings().toolThreshold } : {}),
          ...(this.deps.settings().toolContextPercent ? { toolContextShare: (this.deps.settings().toolContextPercent ?? 10) / 100 } : {}),
          ...(this.deps.loadedTools ? { loadedTools: this.deps.loadedTools } : {}),
        },
      );
      return { conversationId: conversation.id, outcome };
    } catch (error) {
      if (!ended) onEvent({ type: 'done', stopReason: 'error', usage: { inputTokens: 0, outputTokens: 0 } });
      throw error;
    } finally {
      this.running.delete(conversation.id);
    }
  }

  /** Cancels one running tool call; the model is told and the turn goes on. */
  cancelToolCall(callId: string): boolean {
    const controller = this.calls.get(callId);
    controller?.abort();
    return controller !== undefined;
  }

  /**
   * What the model's tool search finds for a query now, ranked as the model gets it: over the tools a turn
   * may offer (none withheld: changed since approved, or for a view only).
   */
  searchTools(query: string, limit: number): ToolSearchHit[] {
    return rankTools(this.offeredTools(), query, limit);
  }

  /**
   * What the model gets of the tools in a conversation (a new one without `conversationId`): all of them,
   * or, past the count or the share of its context, the search and what it has without searching — the
   * tools the person keeps always loaded, then what the conversation loaded, each with why.
   */
  toolsInUse(conversationId?: string): ToolsInUse {
    const offered = this.offeredTools();
    const conversation = conversationId === undefined ? undefined : this.deps.history.getConversation(conversationId);
    if (conversationId !== undefined && !conversation) throw new ConversationError(`there is no conversation "${conversationId}"`);
    const settings = this.deps.settings();
    const providerId = conversation?.providerId ?? defaultProviderId(settings);
    const kind = settings.providers.find((provider) => provider.id === providerId)?.kind;
    const verdict = shouldSearch(offered, {
      ...(settings.toolThreshold ? { threshold: settings.toolThreshold } : {}),
      ...(settings.toolContextPercent ? { contextShare: settings.toolContextPercent / 100 } : {}),
      ...(kind ? { contextTokens: CONTEXT_TOKENS_BY_KIND[kind] } : {}),
    });
    if (!verdict.searching) return { offered: offered.length, loaded: [] };
    const byName = new Map(offered.map((tool) => [tool.modelName, tool]));
    const view = (tool: ToolSummary, how: LoadedToolView['how']): LoadedToolView => ({ modelName: tool.modelName, serverId: tool.serverId, tool: tool.name, how });
    const always = offered.filter((tool) => tool.alwaysLoaded).map((tool) => view(tool, { kind: 'always' }));
    const kept = (conversationId === undefined ? [] : (this.deps.loadedTools?.entries(conversationId) ?? [])).flatMap((entry) => {
      const tool = byName.get(entry.modelName);
      return tool && !tool.alwaysLoaded ? [view(tool, entry.how)] : [];
    });
    return { offered: offered.length, ...(verdict.why ? { searching: verdict.why } : {}), loaded: [...always, ...kept] };
  }

  /** The person loads a tool into a conversation by hand (or unloads one): the model has it without searching. */
  setToolLoaded(conversationId: string, modelName: string, loaded: boolean): void {
    if (!this.deps.history.getConversation(conversationId)) throw new ConversationError(`there is no conversation "${conversationId}"`);
    if (!this.offeredTools().some((tool) => tool.modelName === modelName)) throw new ConversationError(`no tool the model may use is named "${modelName}"`);
    if (loaded) this.deps.loadedTools?.note(conversationId, [modelName], { kind: 'by-hand' });
    else this.deps.loadedTools?.forget(conversationId, modelName);
  }

  /** The tools a turn may offer: none withheld (changed since approved, or for a view only). */
  private offeredTools(): ToolSummary[] {
    // Withholding depends on the tool alone (changed, or for a view only), not on a conversation.
    return this.deps.tools().filter((tool) => this.deps.gate.withheld(tool, '') === undefined);
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
