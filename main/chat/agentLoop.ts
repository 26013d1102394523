// One turn of a conversation: the person's message goes to the model with the tools of every ready
// server; each tool call the model makes is validated against the tool's inputSchema, passed through the
// consent gate, run on its server, and its result goes back to the model, until the model answers
// without calling a tool. Everything is saved as it happens, the person's message first.

import type { jsonSchemaValidator } from '@modelcontextprotocol/client';
import type { ChatTurnEvent, LoadedHow, ToolCallOutcome, ToolSummary } from '../../shared/domain.ts';
import { outputSchemaAtCall } from '../../shared/domain.ts';
import type { ChatContent, ChatMessage, FinishedToolCall, MessageOrigin } from '../../shared/conversation.ts';
import { transcriptForModel } from './transcript.ts';
import { PartialToolInputs } from './partialToolInput.ts';
import type { StopReason, TokenUsage } from '../../shared/domain.ts';
import type { LlmProvider, ModelTool } from './llmTypes.ts';
import { toolResultForModel } from './toolResultForModel.ts';
import { mentionsCutResult, READ_RESULT_TOOL_NAME, readPage, readResultToolDefinition } from './resultPages.ts';
import { toolArgumentsProblem } from '../mcp/toolArguments.ts';
import { SEARCH_TOOL_NAME, describeFound, searchToolDefinition, searchTools, shouldSearch } from './toolSearch.ts';

/** Where a turn is saved; HistoryStore satisfies it through a thin adapter. */
export interface TurnStore {
  appendUserMessage(conversationId: string, content: ChatContent[], origin?: MessageOrigin): void;
  loadChatMessages(conversationId: string): ChatMessage[];
  beginAssistantMessage(conversationId: string): string;
  appendAssistantText(messageId: string, delta: string): void;
  /** Saves what the reply holds so far when it gains something that is not text (a generated image). */
  setAssistantContent(messageId: string, content: ChatContent[]): void;
  finishAssistantMessage(messageId: string, content: ChatContent[], outcome: { status: 'complete' | 'incomplete' | 'error'; usage?: TokenUsage; error?: string }): void;
  /** Saves a call once it has ended (arguments that did not fit the tool's schema as an 'error'). */
  recordToolCall(call: FinishedToolCall): void;
  /** A call's saved result, whole: what the model reads in pages when its result was cut. */
  savedResult?(conversationId: string, callId: string): Record<string, unknown> | undefined;
}

/** How a call ended that did not bring a result back: the live outcome, and why (saved as its result). */
type EndedCall = Partial<Pick<FinishedToolCall, 'decision' | 'decidedBy' | 'startedAt'>> & {
  outcome: Exclude<ToolCallOutcome, 'done'>;
  error?: string;
};

export interface GateDecision {
  allowed: boolean;
  decidedBy: 'person' | 'policy' | 'grant' | 'mode';
  /** Nobody answered: the request was withdrawn (the server went away, nobody could be asked). */
  unanswered?: true;
  reason: string;
}

/** The consent layer: which tools the model may see, and whether one call may run (it may ask the person). */
export interface ToolGate {
  /** Why the tool is kept from the model (not offered, and refused if called anyway); undefined when it is not. */
  withheld(tool: ToolSummary, conversationId: string): string | undefined;
  /** The conversation has taken in the tool's result (whatever it says, error included). */
  tookIn(tool: ToolSummary, conversationId: string): void;
  check(call: {
    tool: ToolSummary;
    arguments: Record<string, unknown>;
    conversationId: string;
    signal: AbortSignal;
    /** MCP Apps: the view of this tool asks for the call, not the model. */
    fromView?: { serverId: string; tool: string };
  }): Promise<GateDecision>;
}

export interface ToolRunner {
  call(
    serverId: string,
    tool: string,
    args: Record<string, unknown>,
    options: {
      signal: AbortSignal;
      onProgress: (progress: { progress: number; total?: number; message?: string }) => void;
      /** The conversation the call serves: requests the server makes meanwhile are shown there. */
      conversationId?: string;
    },
  ): Promise<Record<string, unknown>>;
}

export type TurnEvent = ChatTurnEvent;

export interface TurnInput {
  conversationId: string;
  userContent: ChatContent[];
  /** Set when the person's message is a server prompt's expansion rather than their own typing. */
  userOrigin?: MessageOrigin;
  provider: LlmProvider;
  model: string;
  system?: string;
  maxTokens?: number;
  tools: ToolSummary[];
  signal: AbortSignal;
  /** The model's context, in tokens, when known: tool definitions past a tenth of it are searched for instead. */
  contextTokens?: number;
}

/**
 * The tools a conversation loaded through the search or called, kept from one turn to the next so that a
 * model does not search again for what it already found (bounded: the most recent few dozen).
 */
export interface LoadedTools {
  /** Model-facing names, most recently used first. */
  of(conversationId: string): string[];
  /** The search loaded these (`how` says with what words), or the model called one of them. */
  note(conversationId: string, modelNames: readonly string[], how?: LoadedHow): void;
  /** What the person loaded by hand: loaded even for a provider that defers the rest. */
  loadedByHand?(conversationId: string): string[];
}

export interface TurnDeps {
  store: TurnStore;
  gate: ToolGate;
  runner: ToolRunner;
  validator: jsonSchemaValidator;
  onEvent(event: TurnEvent): void;
  /** Model turns allowed in one person's turn, against a model that never stops calling tools. */
  maxSteps?: number;
  resultBudgetChars?: number;
  /** More tools than this, and the model gets the search tool instead of all of them (default 64). */
  toolThreshold?: number;
  /** The share of the model's context tool definitions may take before it searches instead (default a tenth). */
  toolContextShare?: number;
  /** Told of each running call's controller, so the person can cancel that one call; returns its cleanup. */
  registerCall?(callId: string, controller: AbortController): () => void;
  /** What this conversation loaded before, kept loaded; without it, each turn starts with the search tool alone. */
  loadedTools?: LoadedTools;
}

export interface TurnOutcome {
  stopReason: StopReason;
  usage: TokenUsage;
  steps: number;
}

const DEFAULT_MAX_STEPS = 25;

export async function runTurn(input: TurnInput, deps: TurnDeps): Promise<TurnOutcome> {
  const { store, onEvent } = deps;
  // Committed before the model is called: a crash after this point never loses what the person wrote.
  store.appendUserMessage(input.conversationId, input.userContent, input.userOrigin);
  const withheld = new Map<string, { tool: ToolSummary; why: string }>();
  const tools = [...input.tools]
    .filter((tool) => {
      const why = deps.gate.withheld(tool, input.conversationId);
      if (why !== undefined) withheld.set(tool.modelName, { tool, why });
      return why === undefined;
    })
    .sort((a, b) => (a.modelName < b.modelName ? -1 : 1));
  const byModelName = new Map(tools.map((tool) => [tool.modelName, tool]));
  // A tool that changed is said, for the person to review; one declared for its view only is simply not the model's.
  for (const { tool } of withheld.values()) {
    if (tool.changed) onEvent({ type: 'notice', message: `${tool.serverId}/${tool.name} is withheld: it changed since it was approved (review it on the server's Tools tab)` });
  }
  // Past the threshold the model starts with the search tool only and loads what it finds.
  const deferral = shouldSearch(tools, {
    ...(deps.toolThreshold !== undefined ? { threshold: deps.toolThreshold } : {}),
    ...(deps.toolContextShare !== undefined ? { contextShare: deps.toolContextShare } : {}),
    ...(input.contextTokens !== undefined ? { contextTokens: input.contextTokens } : {}),
  });
  const searching = deferral.searching;
  // A provider that defers tools natively is sent every tool, deferred, in the same order every time (its
  // prompt cache keeps the prefix); what a search finds is loaded by its result, and stays loaded through
  // the history. Otherwise only the loaded tools are sent, and the list grows as the model finds more.
  const native = searching && input.provider.defersTools;
  // What the conversation loaded or called in earlier turns stays loaded, if it is still offered.
  const kept = searching && !native ? (deps.loadedTools?.of(input.conversationId) ?? []).filter((name) => byModelName.has(name)) : [];
  // The tools the person chose to be always loaded are, whatever the search; and, in this conversation,
  // those they loaded by hand.
  const byHand = new Set(searching ? (deps.loadedTools?.loadedByHand?.(input.conversationId) ?? []) : []);
  const alwaysLoaded = tools.filter((tool) => tool.alwaysLoaded).map((tool) => tool.modelName);
  const loadedByHand = tools.filter((tool) => !tool.alwaysLoaded && byHand.has(tool.modelName)).map((tool) => tool.modelName);
  const loaded = new Set<string>(searching ? [...alwaysLoaded, ...loadedByHand, ...kept] : tools.map((t) => t.modelName));
  if (kept.length > 0) onEvent({ type: 'notice', message: `kept loaded from earlier in this conversation: ${kept.map((name) => describeTool(byModelName.get(name))).join(', ')}` });
  // The reader of cut results is offered once the conversation has one (this turn or an earlier one); it
  // comes last, so offering it leaves the tools before it as they were.
  let readerOffered = false;
  const definition = (tool: ToolSummary): ModelTool => ({ name: tool.modelName, ...(tool.description ? { description: tool.description } : {}), inputSchema: tool.inputSchema });
  const modelTools = (): ModelTool[] => [
    ...(searching ? [{ ...searchToolDefinition, searchesTools: true }] : []),
    ...(native ? tools.map((tool) => (tool.alwaysLoaded || byHand.has(tool.modelName) ? definition(tool) : { ...definition(tool), deferred: true })) : tools.filter((tool) => loaded.has(tool.modelName)).map(definition)),
    ...(readerOffered ? [readResultToolDefinition] : []),
  ];
  const named = (names: string[]) => names.map((name) => describeTool(byModelName.get(name))).join(', ');
  const given = [...(alwaysLoaded.length > 0 ? [`always loaded: ${named(alwaysLoaded)}`] : []), ...(loadedByHand.length > 0 ? [`loaded by you: ${named(loadedByHand)}`] : [])];
  if (searching) onEvent({ type: 'notice', message: `${deferral.why}; the model gets a search tool and loads what it needs${given.length > 0 ? ` (${given.join('; ')})` : ''}` });
  const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
  const maxSteps = deps.maxSteps ?? DEFAULT_MAX_STEPS;
  // The conversation is read from the store once per turn; each step adds what it saved to this copy, so a
  // long conversation is not read and parsed again at every step. The same repair the store's reading
  // does (transcriptForModel) is applied to what was added.
  let conversation: ChatMessage[] | undefined;

  for (let step = 1; step <= maxSteps; step++) {
    const messageId = store.beginAssistantMessage(input.conversationId);
    onEvent({ type: 'assistant_started', messageId });
    const content: ChatContent[] = [];
    let text = '';
    let stopReason: StopReason = 'other';
    // A tool with a view may draw its arguments as the model writes them.
    const toolNameOf = new Map<string, string>();
    const partialInputs = new PartialToolInputs((callId, soFar) => {
      const tool = byModelName.get(toolNameOf.get(callId) ?? '');
      if (tool) onEvent({ type: 'tool_input', messageId, callId, serverId: tool.serverId, tool: tool.name, arguments: soFar });
    });
    try {
      conversation = conversation === undefined ? store.loadChatMessages(input.conversationId) : transcriptForModel(conversation);
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
          onEvent({ type: 'text', messageId, delta: event.text });
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
    conversation?.push({ role: 'assistant', content: structuredClone(content) });
    if (cancelled || calls.length === 0) {
      onEvent({ type: 'done', stopReason: cancelled ? 'cancelled' : stopReason, usage });
      return { stopReason: cancelled ? 'cancelled' : stopReason, usage, steps: step };
    }
    const results: ChatContent[] = [];
    for (const call of calls) {
      if (searching && call.name === SEARCH_TOOL_NAME) {
        const result = loadTools(call, tools, loaded, onEvent);
        deps.loadedTools?.note(input.conversationId, result.found, { kind: 'search', query: result.query });
        results.push(result.content);
        continue;
      }
      if (readerOffered && call.name === READ_RESULT_TOOL_NAME) {
        results.push(readKeptResult(call, input.conversationId, deps));
        continue;
      }
      if (searching && byModelName.has(call.name)) deps.loadedTools?.note(input.conversationId, [call.name]);
      results.push(await runToolCall(call, messageId, byModelName, withheld, input, deps));
    }
    store.appendUserMessage(input.conversationId, results);
    conversation?.push({ role: 'user', content: results });
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
  tools: readonly ToolSummary[],
  loaded: Set<string>,
  onEvent: (event: TurnEvent) => void,
): { content: ChatContent; found: string[]; query: string } {
  const query = typeof call.input.query === 'string' ? call.input.query : '';
  const limit = typeof call.input.limit === 'number' ? call.input.limit : undefined;
  const found = searchTools(tools, query, limit);
  for (const tool of found) loaded.add(tool.modelName);
  onEvent({ type: 'notice', message: found.length ? `loaded tools for "${query}": ${found.map(describeTool).join(', ')}` : `no tools found for "${query}"` });
  const names = found.map((tool) => tool.modelName);
  // Words for a model without deferral, and the names for a provider that loads them by reference.
  return { content: { type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text: describeFound(found) }], ...(names.length > 0 ? { loadsTools: names } : {}) }, found: names, query };
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

async function runToolCall(
  call: { id: string; name: string; input: Record<string, unknown> },
  messageId: string,
  byModelName: Map<string, ToolSummary>,
  withheld: ReadonlyMap<string, { tool: ToolSummary; why: string }>,
  input: TurnInput,
  deps: TurnDeps,
): Promise<ChatContent> {
  const held = withheld.get(call.name);
  // A model that remembers a withheld tool from earlier in the conversation is told why it cannot call it.
  if (held) {
    deps.store.recordToolCall({ id: call.id, conversationId: input.conversationId, messageId, modelName: call.name, arguments: call.input, serverId: held.tool.serverId, tool: held.tool.name, status: 'denied', isError: true, decidedBy: 'policy', decision: 'deny', result: { error: held.why } });
    deps.onEvent({ type: 'tool_result', callId: call.id, status: 'denied', summary: held.why });
    return { type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text: `This call was not made: ${held.why}.` }], isError: true };
  }
  const tool = byModelName.get(call.name);
  const base = {
    id: call.id,
    conversationId: input.conversationId,
    messageId,
    modelName: call.name,
    arguments: call.input,
    // Kept with the call, so the history shows what the result was checked against then.
    ...(tool ? { outputSchema: outputSchemaAtCall(tool) } : {}),
  };
  const finish = (ended: EndedCall, text: string, isError: boolean): ChatContent => {
    const { outcome, error, ...record } = ended;
    deps.store.recordToolCall({
      ...base,
      serverId: tool?.serverId ?? '',
      tool: tool?.name ?? call.name,
      ...record,
      status: outcome === 'invalid' ? 'error' : outcome,
      isError: true,
      ...(error !== undefined ? { result: { error } } : {}),
    });
    deps.onEvent({ type: 'tool_result', callId: call.id, status: outcome, summary: text.slice(0, 500) });
    return { type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text }], isError };
  };
  if (!tool) return finish({ outcome: 'invalid', error: 'unknown tool' }, `There is no tool named "${call.name}".`, true);

  // A mismatch goes back to the model as an error it can fix; the server never sees it.
  const problem = toolArgumentsProblem(deps.validator, tool.inputSchema, call.input);
  if (problem !== undefined) {
    return finish({ outcome: 'invalid', error: problem }, `The arguments do not match the tool's input schema: ${problem}. Fix them and call the tool again.`, true);
  }

  // One call can be cancelled on its own (the turn goes on), and cancelling the turn cancels it too.
  const callAbort = new AbortController();
  const onTurnAbort = () => callAbort.abort();
  input.signal.addEventListener('abort', onTurnAbort, { once: true });
  const unregister = deps.registerCall?.(call.id, callAbort) ?? (() => undefined);
  try {
    return await approveAndRun(call, tool, base, finish, callAbort.signal, input, deps);
  } finally {
    input.signal.removeEventListener('abort', onTurnAbort);
    unregister();
  }
}

async function approveAndRun(
  call: { id: string; input: Record<string, unknown> },
  tool: ToolSummary,
  base: Omit<FinishedToolCall, 'serverId' | 'tool' | 'status' | 'isError'>,
  finish: (ended: EndedCall, text: string, isError: boolean) => ChatContent,
  signal: AbortSignal,
  input: TurnInput,
  deps: TurnDeps,
): Promise<ChatContent> {
  deps.onEvent({ type: 'tool_call', callId: call.id, serverId: tool.serverId, tool: tool.name, arguments: call.input, status: 'awaiting_approval' });
  const decision = await deps.gate.check({ tool, arguments: call.input, conversationId: input.conversationId, signal });
  const decided = { decidedBy: decision.decidedBy, decision: decision.allowed ? ('allow' as const) : ('deny' as const) };
  if (!decision.allowed) {
    const toModel = decision.unanswered ? `This call was not made: ${decision.reason}.` : `The person did not allow this call (${decision.reason}).`;
    return finish({ ...decided, outcome: 'denied' }, toModel, true);
  }

  deps.onEvent({ type: 'tool_call', callId: call.id, serverId: tool.serverId, tool: tool.name, arguments: call.input, status: 'running' });
  // The duration is the server's time, not the time the person took to approve.
  const startedAt = Date.now();
  
  try {
    const result = await deps.runner.call(tool.serverId, tool.name, call.input, {
      signal,
      conversationId: input.conversationId,
      onProgress: (progress) => deps.onEvent({ type: 'tool_progress', callId: call.id, ...progress }),
    });
    deps.gate.tookIn(tool, input.conversationId);
    const forModel = toolResultForModel(result, deps.resultBudgetChars, call.id);
    deps.store.recordToolCall({ ...base, ...decided, startedAt, serverId: tool.serverId, tool: tool.name, status: result.isError === true ? 'error' : 'done', isError: result.isError === true, result });
    const summary = forModel.content.map((c) => (c.type === 'text' ? c.text : `[image ${c.mimeType}]`)).join('\n');
    deps.onEvent({ type: 'tool_result', callId: call.id, status: result.isError === true ? 'error' : 'done', summary: summary.slice(0, 500) });
    return { type: 'tool_result', toolUseId: call.id, content: forModel.content, ...(forModel.isError ? { isError: true } : {}) };
  } catch (error) {
    // A protocol or transport failure: the person sees the error; the model gets a summary it can act on.
    const message = (error as Error).message;
    const cancelled = signal.aborted;
    // A server's error message is its text too, and it reaches the model.
    if (!cancelled) deps.gate.tookIn(tool, input.conversationId);
    return finish({ ...decided, startedAt, outcome: cancelled ? 'cancelled' : 'error', error: message }, cancelled ? 'The person cancelled this call.' : `The tool call failed: ${message}`, true);
  }
}
