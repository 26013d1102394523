// Conversations as the front ends use them: send a message (creating the conversation when needed),
// cancel a turn, list and export history. A turn runs the agent loop with the tools of every ready
// server, the consent gate, and the history store; its events go out on the host's event bus.

import type { ToolsInUse } from '../../shared/domain.ts';
import { ChangeListeners } from '../changeListeners.ts';
import { ModelContexts } from './modelContexts.ts';
import type { HistoryStore } from '../store/historyStore.ts';
import type { TurnEvent, TurnInput, TurnOutcome, TurnStore } from './agentLoop.ts';
import type { HostTools, ToolCalls, TurnTools } from './turnTools.ts';
import { runTurn } from './agentLoop.ts';
import type { ModelResolver } from './modelResolver.ts';
import { defaultProviderId } from './providerSettings.ts';
import type { ProviderChoice, ProviderSettings } from './providerSettings.ts';
import { transcriptForModel } from './transcript.ts';
import type { ChatContent, MessageOrigin } from '../../shared/conversation.ts';
import { sliceMarked } from '../../shared/serverText.ts';

/** A request about a conversation that cannot be met as asked; the message is for the person. */
export class ConversationError extends Error {
  readonly code = 'failed';
}

/** Text a server wrote that a turn gives the model beside tool results: a resource, a prompt, a view's report, a skill. */
export interface ServerContent {
  kind: 'resource' | 'prompt' | 'view' | 'skill';
  serverId: string;
  /** The resource's URI, the prompt's name, the tool whose view reported, or the skill's name. */
  name: string;
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
  /** MCP Apps: what the views open in the conversation told the model, given with every turn, and whose views they are. */
  viewContext?: (conversationId: string) => { note: string; from: readonly ServerContent[] } | undefined;
  /** Told, before the model reads it, of every server's text a turn gives it (the consent step marks what it does not trust). */
  tookIn?: (conversationId: string, content: ServerContent) => void;
  /**
   * Waited for before a turn reads the tools: servers starting (for the first time, or again for new roots)
   * are given a bounded while to be ready. It may tell the person why the turn waits; Stop ends it.
   */
  beforeTurn?: (turn: { notice(message: string): void; signal: AbortSignal }) => Promise<void>;
  /** How much context a model has (its server is asked, for a local one); made here unless given. */
  contexts?: ModelContexts;
  onEvent(conversationId: string, event: TurnEvent): void;
}

/** What every turn a front end starts may say: where, with which model, and who hears that it began. */
export interface TurnRequest extends ProviderChoice {
  conversationId?: string;
  /** Without `conversationId`: the id the new conversation gets (the window's own, so it knows which is its). */
  newConversationId?: string;
  system?: string;
  /** Called once the person's message is saved and the turn begins; a failure after it is the turn's, shown in the conversation. */
  onStarted?(conversationId: string): void;
}

export interface SendRequest extends TurnRequest {
  content: ChatContent[];
  /** Where the content came from when the person did not type it (a server's prompt). */
  origin?: MessageOrigin;
  /** What in the content a server wrote, beside a prompt's (`origin`): the resources the person attached. */
  from?: readonly ServerContent[];
  /** An edit: the person's last message (this id) and what answered it are replaced by this one. */
  replaces?: string;
}

/** Answers the person's last message again: the replies after it are replaced, the message is not sent twice. */
export interface RetryRequest extends TurnRequest {
  conversationId: string;
}

/** A message that came in for the model (a task's result), waiting for a turn running in its conversation. */
interface Arrival {
  content: ChatContent[];
  origin: MessageOrigin;
  followUp: boolean;
  saved(): void;
}

export class ChatService {
  private readonly deps: ChatServiceDeps;
  private readonly running = new Map<string, AbortController>();
  private readonly runningChanges = new ChangeListeners<string>();
  private readonly arrivals = new Map<string, Arrival[]>();
  private readonly contexts: ModelContexts;

  constructor(deps: ChatServiceDeps) {
    this.deps = deps;
    this.contexts = deps.contexts ?? new ModelContexts();
  }

  /** Saves the person's message (in a new conversation without `conversationId`) and runs the turn that answers it. */
  send(request: SendRequest): Promise<{ conversationId: string; outcome: TurnOutcome }> {
    // Checked before a conversation is made: an edit is of a message in one that exists.
    if (request.replaces !== undefined && request.conversationId === undefined) return Promise.reject(new ConversationError('an edit must name the conversation of the message it replaces'));
    return this.runTurnIn(request, (conversationId) => {
      if (request.replaces !== undefined) this.replaceByEdit(conversationId, request.replaces, request.content);
      return { userContent: request.content, ...(request.origin ? { userOrigin: request.origin } : {}) };
    });
  }

  /**
   * An edit: the person's last message and what answered it are replaced. A conversation still titled
   * after the message edited (its first) takes its title from the edit; a title the person gave is theirs.
   * The one message is read, not the conversation: the turn reads that next.
   */
  private replaceByEdit(conversationId: string, messageId: string, content: ChatContent[]): void {
    const { history } = this.deps;
    const edited = history.getMessage(messageId);
    const titledAfterIt = edited !== undefined && history.getConversation(conversationId)?.title === titleFrom(edited.content);
    if (!history.replaceLastMessage(conversationId, messageId)) {
      throw new ConversationError('your last message changed meanwhile (another window wrote one), so the edit was not sent: edit the last message again');
    }
    if (titledAfterIt) history.renameConversation(conversationId, titleFrom(content));
  }

  /**
   * Runs the conversation's last turn again: what answered the person's last message is marked replaced
   * (kept to be read, never given to the model), and the model answers that message, which is not saved
   * again, so the model reads it once.
   */
  retry(request: RetryRequest): Promise<{ conversationId: string; outcome: TurnOutcome }> {
    return this.runTurnIn(request, (conversationId) => {
      if (this.deps.history.replaceRepliesToLastMessage(conversationId) === undefined) throw new ConversationError('there is nothing to answer again: nothing was written in this conversation yet');
      return {};
    });
  }

  /**
   * Resolves the model, makes the conversation when needed, then — once no other turn runs in it —
   * `prepare` says what the person adds (nothing, for a retry) and the turn runs.
   */
  private async runTurnIn(
    request: TurnRequest & Partial<Pick<SendRequest, 'content' | 'origin' | 'from'>>,
    prepare: (conversationId: string) => Pick<TurnInput, 'userContent' | 'userOrigin'>,
  ): Promise<{ conversationId: string; outcome: TurnOutcome }> {
    const { history } = this.deps;
    const existing = request.conversationId ? history.getConversation(request.conversationId) : undefined;
    if (request.conversationId && !existing) throw new ConversationError(`there is no conversation "${request.conversationId}"`);
    if (request.newConversationId !== undefined) {
      if (request.conversationId !== undefined) throw new ConversationError('a message to a conversation that exists takes no id for a new one');
      if (history.getConversation(request.newConversationId)) throw new ConversationError(`there is a conversation "${request.newConversationId}" already: a new one needs an id of its own`);
    }
    // A conversation keeps its provider and model unless the person picks others for this message.
    const choice: ProviderChoice = {
      ...(existing?.providerId ? { provider: existing.providerId } : {}),
      ...(existing?.model && (!request.provider || request.provider === existing.providerId) ? { model: existing.model } : {}),
      ...dropUndefined(request),
    };
    const { config, model } = await this.deps.models.resolveModel(choice);
    const provider = this.deps.models.makeProvider(config);
    const conversation =
      existing ?? history.createConversation({ title: titleFrom(request.content ?? []), providerId: config.id, model, ...(request.newConversationId ? { id: request.newConversationId } : {}) });
    if (this.running.has(conversation.id)) throw new ConversationError('this conversation already has a turn running; cancel it first');
    const added = prepare(conversation.id);
    // What the person picked for this message is the conversation's model from now on.
    if (existing && (existing.providerId !== config.id || existing.model !== model)) history.setConversationModel(conversation.id, config.id, model);
    const controller = new AbortController();
    this.running.set(conversation.id, controller);
    this.runningChanges.tell(conversation.id);
    const views = this.deps.viewContext?.(conversation.id);
    const system = [request.system, views?.note].filter((part) => part !== undefined && part !== '').join('\n\n');
    // Before the model reads a word of it, so that no call of this turn is decided without it.
    // (A task's result is taken in when its task is closed, not here.)
    const fromServers = [...(request.origin?.kind === 'prompt' ? [request.origin] : []), ...(request.from ?? []), ...(views?.from ?? [])];
    for (const content of fromServers) this.deps.tookIn?.(conversation.id, content);
    // Every turn that begins ends with a `done` event, also when it fails, so no front end waits for a turn that is over.
    let ended = false;
    const onEvent = (event: TurnEvent) => {
      if (event.type === 'done') ended = true;
      this.deps.onEvent(conversation.id, event);
    };
    request.onStarted?.(conversation.id);
    try {
      const planTools = async () => {
        await this.deps.beforeTurn?.({ notice: (message) => onEvent({ type: 'notice', message }), signal: controller.signal });
        // Whether the tools are sent whole or searched for depends on how much context this model has.
        return this.deps.tools.plan(conversation.id, await this.contexts.contextOf(config, model));
      };
      const outcome = await runTurn(
        {
          conversationId: conversation.id,
          ...added,
          provider,
          model,
          tools: planTools,
          signal: controller.signal,
          ...(system ? { system } : {}),
        },
        { store: historyTurnStore(history), tools: this.deps.tools, calls: this.deps.calls, ...(this.deps.hostTools ? { hostTools: this.deps.hostTools } : {}), onEvent, arrived: () => this.takeArrivals(conversation.id) },
      );
      return { conversationId: conversation.id, outcome };
    } catch (error) {
      if (!ended) onEvent({ type: 'done', stopReason: 'error', usage: { inputTokens: 0, outputTokens: 0 } });
      throw error;
    } finally {
      this.running.delete(conversation.id);
      this.runningChanges.tell(conversation.id);
      // What came in after the turn's last step is saved now, for the next request.
      this.saveArrivals(conversation.id, this.takeArrivals(conversation.id));
    }
  }

  /**
   * A message for the model at its next request that the person did not write: a task's result that came
   * in after its turn. Saved in the conversation at once, or at the next step of a turn running there (a
   * turn's messages keep their order); `saved` once it is. With `followUp` the model answers it at once.
   */
  deliver(conversationId: string, arrival: Arrival): void {
    if (this.running.has(conversationId)) {
      this.arrivals.set(conversationId, [...(this.arrivals.get(conversationId) ?? []), arrival]);
      return;
    }
    this.saveArrivals(conversationId, [arrival]);
  }

  private takeArrivals(conversationId: string): Arrival[] {
    const waiting = this.arrivals.get(conversationId) ?? [];
    this.arrivals.delete(conversationId);
    return waiting;
  }

  private saveArrivals(conversationId: string, arrivals: Arrival[]): void {
    for (const arrival of arrivals) {
      this.deps.history.appendUserMessage(conversationId, arrival.content, arrival.origin);
      arrival.saved();
    }
    // The person allowed the model to answer at once: it does, unless a turn began meanwhile (it then reads them).
    if (arrivals.some((arrival) => arrival.followUp) && !this.running.has(conversationId)) {
      // The model answers the conversation as it stands: nothing is added in the person's name.
      void this.runTurnIn({ conversationId }, () => ({})).catch(() => undefined);
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
    const config = settings.providers.find((provider) => provider.id === providerId);
    const model = conversation?.model ?? (settings.default?.provider === providerId ? settings.default?.model : undefined) ?? '';
    // What the model's server said at the last turn, if it said; else the usual for its kind (no server is asked here).
    const plan = this.deps.tools.plan(conversationId, config ? this.contexts.known(config, model) : undefined);
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

/** The history store as the agent loop writes to it, for one turn. */
export function historyTurnStore(history: HistoryStore): TurnStore {
  // Once the person's message is saved (on the disk), what the steps save does not wait for the disk commit
  // by commit; it is put there when the turn ends, or by any other write meanwhile.
  let stepping = false;
  const step = <T>(work: () => T): T => (stepping ? history.withoutDiskWait(work) : work());
  return {
    appendUserMessage: (conversationId, content, origin) => step(() => void history.appendUserMessage(conversationId, content, origin)),
    // A reply replaced by Retry (and its tool results) is the person's to read, never the model's.
    loadChatMessages: (conversationId) =>
      transcriptForModel(history.loadMessages(conversationId).flatMap(({ role, content, replacedAt }) => (replacedAt === undefined ? [{ role, content }] : []))),
    beginAssistantMessage: (conversationId) => step(() => history.beginAssistantMessage(conversationId)),
    stepsUnderway: () => {
      stepping = true;
      return () => {
        stepping = false;
        history.syncToDisk();
      };
    },
    appendAssistantText: (messageId, delta) => step(() => history.appendAssistantText(messageId, delta)),
    noteWithheld: (conversationId, withheld) => void history.notes.noteWithheld(conversationId, withheld),
    // What the server sent, as saved; a call that failed has no result to read.
    savedResult: (conversationId, callId) => {
      const result = history.toolCalls.list(conversationId).find((call) => call.id === callId)?.result;
      return result === undefined || result.error !== undefined ? undefined : { ...result };
    },
    setAssistantContent: (messageId, content) => step(() => history.setAssistantContent(messageId, content)),
    finishAssistantMessage: (messageId, content, outcome) =>
      step(() =>
        history.finishAssistantMessage(messageId, {
          status: outcome.status,
          content,
          ...(outcome.usage ? { usage: outcome.usage } : {}),
          ...(outcome.error ? { error: outcome.error } : {}),
        }),
      ),
    noteToolCallUnderway: ({ status, ...declared }) =>
      step(() => {
        if (history.toolCalls.has(declared.conversationId, declared.id)) history.toolCalls.update(declared.conversationId, declared.id, { status });
        else history.toolCalls.record({ ...declared, status });
      }),
    recordToolCall: (call) =>
      step(() => {
        const { status, isError, result, startedAt, ...declared } = call;
        // A call that waited or ran was saved as it began: its record is completed.
        if (!history.toolCalls.has(call.conversationId, call.id)) history.toolCalls.record(declared);
        history.toolCalls.update(call.conversationId, call.id, {
          status,
          isError,
          ...(declared.decision !== undefined ? { decision: declared.decision } : {}),
          ...(declared.decidedBy !== undefined ? { decidedBy: declared.decidedBy } : {}),
          ...(startedAt !== undefined ? { startedAt } : {}),
          ...(result !== undefined ? { result } : {}),
        });
      }),
  };
}

function titleFrom(content: ChatContent[]): string {
  const text = content.find((c) => c.type === 'text');
  const line = text?.type === 'text' ? text.text.replace(/\s+/g, ' ').trim() : '';
  // A prompt's expansion is server text: its cut never falls inside the mark of a hidden character.
  return line.length > 60 ? `${sliceMarked(line, 57)}…` : line || 'New conversation';
}

function dropUndefined(choice: ProviderChoice): ProviderChoice {
  return {
    ...(choice.provider !== undefined ? { provider: choice.provider } : {}),
    ...(choice.model !== undefined ? { model: choice.model } : {}),
    ...(choice.baseUrl !== undefined ? { baseUrl: choice.baseUrl } : {}),
  };
}
