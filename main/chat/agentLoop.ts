// One turn of a conversation: the person's message goes to the model with the tools of every ready
// server; each tool call the model makes is validated against the tool's inputSchema, passed through the
// consent gate, run on its server, and its result goes back to the model, until the model answers
// without calling a tool. Everything is saved as it happens, the person's message first (a retry adds
// none: it answers the conversation as it stands).

import type { ChatTurnEvent, ToolSummary } from '../../shared/domain.ts';
import type { ChatContent, ChatMessage, FinishedToolCall, MessageOrigin, ToolCallUnderway } from '../../shared/conversation.ts';
import { continueTranscript } from './transcript.ts';
import { PartialToolInputs } from './partialToolInput.ts';
import type { StopReason, TokenUsage } from '../../shared/domain.ts';
import type { LlmProvider, ModelTool } from './llmTypes.ts';
import { toolResultForModel } from './toolResultForModel.ts';
import { mentionsCutResult, READ_RESULT_TOOL_NAME, readPage, readResultToolDefinition } from './resultPages.ts';
import { SEARCH_TOOL_NAME, describeFound, resultCount, searchToolDefinition } from './toolSearch.ts';
import type { HostTools, StepCall, ToolCalls, TurnToolPlan, TurnTools } from './turnTools.ts';
import { runModelToolCall } from './modelToolCall.ts';

/** Where a turn is saved; HistoryStore satisfies it through a thin adapter. */
export interface TurnStore {
  appendUserMessage(conversationId: string, content: ChatContent[], origin?: MessageOrigin): void;
  loadChatMessages(conversationId: string): ChatMessage[];
  beginAssistantMessage(conversationId: string): string;
  appendAssistantText(messageId: string, delta: string): void;
  /** Saves what the reply holds so far when it gains something that is not text (a generated image). */
  setAssistantContent(messageId: string, content: ChatContent[]): void;
  finishAssistantMessage(messageId: string, content: ChatContent[], outcome: { status: 'complete' | 'incomplete' | 'error'; usage?: TokenUsage; error?: string }): void;
  /**
   * Saves a call as it waits for the person and as it starts running, so that a window joining the turn
   * midway (a reload) shows it with its server, tool and Cancel; `recordToolCall` completes the record.
   */
  noteToolCallUnderway?(call: ToolCallUnderway): void;
  /** Saves a call once it has ended (arguments that did not fit the tool's schema as an 'error'). */
  recordToolCall(call: FinishedToolCall): void;
  /** Saves the line that a tool was withheld because it changed (once per conversation and definition). */
  noteWithheld?(conversationId: string, withheld: { serverId: string; tool: string; fingerprint: string }): void;
  /** A call's saved result, whole: what the model reads in pages when its result was cut. */
  savedResult?(conversationId: string, callId: string): Record<string, unknown> | undefined;
  /**
   * Called once the person's message is saved: until the turn calls the returned function (as it ends),
   * what its steps save need not wait for the disk commit by commit, as long as a kill loses none of it;
   * the function puts it there.
   */
  stepsUnderway?(): () => void;
}

export type TurnEvent = ChatTurnEvent;

export interface TurnInput {
  conversationId: string;
  /** The person's new message; absent when the turn answers the conversation as it stands (Retry, a task's result that came in). */
  userContent?: ChatContent[];
  /** Set when the person's message is a server prompt's expansion rather than their own typing. */
  userOrigin?: MessageOrigin;
  provider: LlmProvider;
  model: string;
  system?: string;
  maxTokens?: number;
  /**
   * The turn's tools as the catalog planned them: offered, withheld, searched for or not, loaded. Or how to
   * plan them, called once the person's message is saved: planning may wait (for servers still starting).
   */
  tools: TurnToolPlan | (() => Promise<TurnToolPlan>);
  signal: AbortSignal;
}

export interface TurnDeps {
  store: TurnStore;
  /** The tool catalog: the search, and what a conversation keeps loaded. */
  tools: TurnTools;
  /** The one tool-call pipeline. */
  calls: ToolCalls;
  /** Atrium's own tools an extension adds (Skills), beside the servers'. */
  hostTools?: HostTools;
  onEvent(event: TurnEvent): void;
  /** Messages that came in meanwhile (a task's result), for the model's next request: each is saved, then `saved()`. */
  arrived?(): { content: ChatContent[]; origin?: MessageOrigin; saved?(): void }[];
  /** Model turns allowed in one person's turn, against a model that never stops calling tools. */
  maxSteps?: number;
  resultBudgetChars?: number;
}

export interface TurnOutcome {
  stopReason: StopReason;
  usage: TokenUsage;
  steps: number;
}

const DEFAULT_MAX_STEPS = 25;

export async function runTurn(input: TurnInput, deps: TurnDeps): Promise<TurnOutcome> {
  // Committed before the model is called: a crash after this point never loses what the person wrote.
  if (input.userContent) deps.store.appendUserMessage(input.conversationId, input.userContent, input.userOrigin);
  const tools = typeof input.tools === 'function' ? await input.tools() : input.tools;
  // What the steps save from here is on the disk when the turn ends, however it ends.
  const stepsEnd = deps.store.stepsUnderway?.();
  try {
    return await runSteps({ ...input, tools }, deps);
  } finally {
    stepsEnd?.();
  }
}

async function runSteps(input: TurnInput & { tools: TurnToolPlan }, deps: TurnDeps): Promise<TurnOutcome> {
  const { store, onEvent } = deps;
  const plan = input.tools;
  const tools = plan.offered;
  // The names the model may use this turn; a tool found by a search is added as it is found.
  const byModelName = new Map(tools.map((tool) => [tool.modelName, tool]));
  // A tool that changed is said, for the person to review; one declared for its view only is simply not the model's.
  // It is saved with the conversation, so the line is still there after a reload.
  for (const { tool } of plan.withheld) {
    if (!tool.changed) continue;
    store.noteWithheld?.(input.conversationId, { serverId: tool.serverId, tool: tool.name, fingerprint: tool.changed.fingerprint });
    onEvent({ type: 'notice', message: `${tool.serverId}/${tool.name} is withheld: it changed since it was approved (review it on the server's Tools tab)`, withheld: { serverId: tool.serverId, tool: tool.name } });
  }
  // A model that remembers a withheld tool from earlier in the conversation reaches the pipeline, which says why it cannot call it.
  const withheldByName = new Map(plan.withheld.map(({ tool }) => [tool.modelName, tool]));
  // Past the threshold the model starts with the search tool only and loads what it finds.
  const searching = plan.searching !== undefined;
  // A provider that defers tools natively is sent every tool, deferred, in the same order every time (its
  // prompt cache keeps the prefix); what a search finds is loaded by its result, and stays loaded through
  // the history. Otherwise only the loaded tools are sent, and the list grows as the model finds more.
  const native = searching && input.provider.defersTools;
  // The tools the person chose to be always loaded are, whatever the search; and, in this conversation,
  // those they loaded by hand and (without native deferral) what it found or called in earlier turns.
  const namesOf = (kinds: string[]) => plan.loaded.filter((entry) => kinds.includes(entry.how.kind)).map((entry) => entry.modelName);
  const alwaysLoaded = namesOf(['always']);
  const loadedByHand = namesOf(['by-hand']);
  const byHand = new Set(loadedByHand);
  const kept = native ? [] : namesOf(['by-hand', 'search', 'called']);
  const loaded = new Set<string>(searching ? [...alwaysLoaded, ...kept] : tools.map((t) => t.modelName));
  if (kept.length > 0) onEvent({ type: 'notice', message: `kept loaded from earlier in this conversation: ${kept.map((name) => describeTool(byModelName.get(name))).join(', ')}` });
  // The reader of cut results is offered once the conversation has one (this turn or an earlier one); it
  // comes last, so offering it leaves the tools before it as they were.
  let readerOffered = false;
  // An extension's own tools come after the servers' and stay the same for the whole turn.
  const hostTools = (await deps.hostTools?.definitions(input.conversationId, { searching })) ?? [];
  const definition = (tool: ToolSummary): ModelTool => ({ name: tool.modelName, ...(tool.description ? { description: tool.description } : {}), inputSchema: tool.inputSchema });
  const modelTools = (): ModelTool[] => [
    ...(searching ? [{ ...searchToolDefinition, searchesTools: true }] : []),
    ...(native ? tools.map((tool) => (tool.alwaysLoaded || byHand.has(tool.modelName) ? definition(tool) : { ...definition(tool), deferred: true })) : [...byModelName.values()].filter((tool) => loaded.has(tool.modelName)).map(definition)),
    ...hostTools,
    ...(readerOffered ? [readResultToolDefinition] : []),
  ];
  const named = (names: string[]) => names.map((name) => describeTool(byModelName.get(name))).join(', ');
  const given = [...(alwaysLoaded.length > 0 ? [`always loaded: ${named(alwaysLoaded)}`] : []), ...(loadedByHand.length > 0 ? [`loaded by you: ${named(loadedByHand)}`] : [])];
  if (searching) onEvent({ type: 'notice', message: `${plan.searching}; the model gets a search tool and loads what it needs${given.length > 0 ? ` (${given.join('; ')})` : ''}` });
  const modelCalls = { calls: deps.calls, record: (call: FinishedToolCall) => store.recordToolCall(call), underway: (call: ToolCallUnderway) => store.noteToolCallUnderway?.(call), onEvent, ...(deps.resultBudgetChars !== undefined ? { resultBudgetChars: deps.resultBudgetChars } : {}) };
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  const maxSteps = deps.maxSteps ?? DEFAULT_MAX_STEPS;
  // The conversation is read from the store once per turn; each step adds what it saved to this copy, so a
  // long conversation is not read and parsed again at every step. The same repair the store's reading
  // does is applied to what was added, and only to that (continueTranscript): the messages sent before
  // stay the same objects, so a provider converts to its wire format only what is new.
  let conversation: ChatMessage[] | undefined;

  for (let step = 1; step <= maxSteps; step++) {
    const messageId = store.beginAssistantMessage(input.conversationId);
    onEvent({ type: 'assistant_started', messageId });
    const content: ChatContent[] = [];
    let text = '';
    // Every character of text this step streamed, across its text blocks: where the next delta goes.
    let streamed = 0;
    let stopReason: StopReason = 'other';
    // A tool with a view may draw its arguments as the model writes them.
    const toolNameOf = new Map<string, string>();
    const partialInputs = new PartialToolInputs((callId, soFar) => {
      const tool = byModelName.get(toolNameOf.get(callId) ?? '');
      if (tool) onEvent({ type: 'tool_input', messageId, callId, serverId: tool.serverId, tool: tool.name, arguments: soFar });
    });
    try {
      conversation ??= store.loadChatMessages(input.conversationId);
      const messages = conversation;
      // The whole conversation is read for a cut result once; after that, only what each step adds.
      if (step === 1) readerOffered = mentionsCutResult(resultTexts(messages));
      for await (const event of input.provider.stream({
        model: input.model,
        messages,
        tools: modelTools(),
        maxTokens: input.maxTokens ?? 4096,
        signal: input.signal,
        ...(input.system ? { system: input.system } : {}),
      })) {
        if (event.type === 'text_delta') {
          text += event.text;
          store.appendAssistantText(messageId, event.text);
          onEvent({ type: 'text', messageId, delta: event.text, at: streamed });
          streamed += event.text.length;
        } else if (event.type === 'image') {
          if (text) content.push({ type: 'text', text });
          text = '';
          content.push({ type: 'image', mimeType: event.mimeType, data: event.data });
          store.setAssistantContent(messageId, content);
          onEvent({ type: 'image', messageId, mimeType: event.mimeType, data: event.data });
        } else if (event.type === 'tool_call_delta') {
          if (byModelName.get(event.name)?.view) {
            toolNameOf.set(event.id, event.name);
            partialInputs.add(event.id, event.partialJson);
          }
        } else if (event.type === 'tool_call') {
          partialInputs.end(event.id);
          if (text) content.push({ type: 'text', text });
          text = '';
          content.push({ type: 'tool_use', id: event.id, name: event.name, input: event.input });
        } else if (event.type === 'done') {
          stopReason = event.stopReason;
          usage.inputTokens += event.usage.inputTokens;
          usage.outputTokens += event.usage.outputTokens;
        } else if (event.type === 'notice') {
          onEvent({ type: 'notice', message: event.message });
        }
      }
    } catch (error) {
      if (text) content.push({ type: 'text', text });
      store.finishAssistantMessage(messageId, content, { status: 'error', usage, error: (error as Error).message });
      throw error;
    } finally {
      partialInputs.endAll();
    }
    if (text) content.push({ type: 'text', text });
    const calls = content.filter((c): c is Extract<ChatContent, { type: 'tool_use' }> => c.type === 'tool_use');
    const cancelled = stopReason === 'cancelled' || input.signal.aborted;
    store.finishAssistantMessage(messageId, content, { status: cancelled ? 'incomplete' : 'complete', usage });
    const reply: ChatMessage = { role: 'assistant', content: structuredClone(content) };
    if (cancelled || calls.length === 0) {
      onEvent({ type: 'done', stopReason: cancelled ? 'cancelled' : stopReason, usage });
      return { stopReason: cancelled ? 'cancelled' : stopReason, usage, steps: step };
    }
    const results: ChatContent[] = [];
    // The step's calls of tools, so that each call's question can list those still to come.
    const stepCalls = calls.flatMap((call): StepCall[] => {
      const tool = byModelName.get(call.name) ?? withheldByName.get(call.name);
      return tool ? [{ callId: call.id, serverId: tool.serverId, tool: tool.name, arguments: call.input }] : [];
    });
    // Said at once, every call of the step in the order the model wrote them: one that waits behind another
    // (one that hangs, one that asks) shows as waiting, rather than not at all until its turn comes.
    for (const waiting of stepCalls) onEvent({ type: 'tool_call', callId: waiting.callId, serverId: waiting.serverId, tool: waiting.tool, arguments: waiting.arguments, status: 'waiting' });
    for (const call of calls) {
      if (searching && call.name === SEARCH_TOOL_NAME) {
        const result = loadTools(call, deps, byModelName, loaded, onEvent);
        deps.tools.noteLoaded(input.conversationId, result.found, { kind: 'search', query: result.query });
        results.push(result.content);
        continue;
      }
      if (readerOffered && call.name === READ_RESULT_TOOL_NAME) {
        results.push(readKeptResult(call, input.conversationId, deps));
        continue;
      }
      const ownResult = deps.hostTools?.run({ conversationId: input.conversationId, id: call.id, name: call.name, input: call.input, signal: input.signal, notice: (message) => onEvent({ type: 'notice', message }) });
      if (ownResult) {
        results.push(await ownResult);
        continue;
      }
      if (searching && byModelName.has(call.name)) deps.tools.noteLoaded(input.conversationId, [call.name]);
      const tool = byModelName.get(call.name) ?? withheldByName.get(call.name);
      const later = stepCalls.slice(stepCalls.findIndex((stepCall) => stepCall.callId === call.id) + 1);
      results.push(await runModelToolCall(call, tool, { conversationId: input.conversationId, messageId, signal: input.signal, step: { id: messageId, later }, toolNames: [...byModelName.keys()] }, modelCalls));
    }
    store.appendUserMessage(input.conversationId, results);
    // What came in while the tools ran (a task's result) goes to the model with its next request. Its
    // `saved` is a write that waits for the disk, which puts the message (committed before it) there too.
    const arrived: ChatMessage[] = [];
    for (const message of deps.arrived?.() ?? []) {
      store.appendUserMessage(input.conversationId, message.content, message.origin);
      arrived.push({ role: 'user', content: message.content });
      message.saved?.();
    }
    // Every call of the step has its result: the step answers only its own calls, as continueTranscript wants.
    if (conversation) continueTranscript(conversation, [reply, { role: 'user', content: results }, ...arrived]);
    readerOffered ||= mentionsCutResult(resultTexts([{ role: 'user', content: results }]));
    if (input.signal.aborted) {
      onEvent({ type: 'done', stopReason: 'cancelled', usage });
      return { stopReason: 'cancelled', usage, steps: step };
    }
  }
  onEvent({ type: 'notice', message: `stopped after ${maxSteps} model turns in a row that called tools` });
  onEvent({ type: 'done', stopReason: 'other', usage });
  return { stopReason: 'other', usage, steps: maxSteps };
}

function loadTools(
  call: { id: string; input: Record<string, unknown> },
  { tools: catalog, hostTools }: Pick<TurnDeps, 'tools' | 'hostTools'>,
  byModelName: Map<string, ToolSummary>,
  loaded: Set<string>,
  onEvent: (event: TurnEvent) => void,
): { content: ChatContent; found: string[]; query: string } {
  const query = typeof call.input.query === 'string' ? call.input.query : '';
  const limit = typeof call.input.limit === 'number' ? call.input.limit : undefined;
  const found = catalog.search(query, resultCount(limit));
  for (const tool of found) {
    loaded.add(tool.modelName);
    byModelName.set(tool.modelName, tool);
  }
  onEvent({ type: 'notice', message: found.length ? `loaded tools for "${query}": ${found.map(describeTool).join(', ')}` : `no tools found for "${query}"` });
  const names = found.map((tool) => tool.modelName);
  // What an extension's own search finds (servers' skills) follows the tools, in its own words.
  const alsoFound = hostTools?.found?.(query, resultCount(limit));
  const text = alsoFound === undefined ? describeFound(found) : `${describeFound(found)}\n\n${alsoFound}`;
  // Words for a model without deferral, and the names for a provider that loads them by reference.
  return {
    content: { type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text }], ...(names.length > 0 ? { loadsTools: names } : {}), ...(alsoFound !== undefined ? { alsoFound } : {}) },
    found: names,
    query,
  };
}

/** One page of a cut result, read from what was saved with its call (never from the server again). */
function readKeptResult(call: { id: string; input: Record<string, unknown> }, conversationId: string, deps: TurnDeps): ChatContent {
  const callId = typeof call.input.callId === 'string' ? call.input.callId : '';
  const offset = typeof call.input.offset === 'number' && call.input.offset >= 0 ? Math.floor(call.input.offset) : 0;
  const length = typeof call.input.length === 'number' ? Math.floor(call.input.length) : undefined;
  const saved = deps.store.savedResult?.(conversationId, callId);
  const text = saved === undefined ? undefined : toolResultForModel(saved, Number.POSITIVE_INFINITY).fullText;
  deps.onEvent({ type: 'notice', message: `the model read characters ${offset}${length ? `–${offset + length}` : ' on'} of a kept result (${callId})` });
  return { type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text: readPage(text, callId, offset, length) }] };
}

/** The text of every tool result in a conversation's messages. */
function* resultTexts(messages: readonly ChatMessage[]): Iterable<string> {
  for (const message of messages) {
    for (const block of message.content) {
      if (block.type !== 'tool_result') continue;
      for (const part of block.content) if (part.type === 'text') yield part.text;
    }
  }
}

function describeTool(tool: ToolSummary | undefined): string {
  return tool ? `${tool.serverId}/${tool.name}` : '';
}
