// The agent loop's rules with a scripted in-process model, gate and runner; the end-to-end version with
// real SDK clients, fake LLM HTTP servers and real MCP servers is chatTurn.int.test.ts.

import { memoryTurnStore } from '../../e2e/fixtures/memoryTurnStore.ts';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolSummary } from '../../shared/domain.ts';
import type { GateDecision } from '../host/consentGate.ts';
import type { TurnEvent, TurnStore } from './agentLoop.ts';
import { scriptedTools } from './testKits/scriptedTools.ts';
import { runTurn } from './agentLoop.ts';
import { transcriptForModel } from './transcript.ts';
import type { ChatMessage } from '../../shared/conversation.ts';
import type { LlmProvider, ModelRequest, ModelStreamEvent } from './llmTypes.ts';

type Step = { text?: string; calls?: { name: string; input: Record<string, unknown> }[] };

function scriptedProvider(steps: Step[], defersTools = false): LlmProvider & { requests: ModelRequest[] } {
  const requests: ModelRequest[] = [];
  return {
    id: 'scripted',
    kind: 'openai-compatible',
    defersTools,
    requests,
    listModels: async () => ['m'],
    async *stream(request): AsyncIterable<ModelStreamEvent> {
      requests.push(structuredClone({ ...request, signal: undefined }));
      const step = steps.shift() ?? { text: 'done' };
      if (step.text) yield { type: 'text_delta', text: step.text };
      for (const [i, call] of (step.calls ?? []).entries()) yield { type: 'tool_call', id: `call-${requests.length}-${i}`, name: call.name, input: call.input };
      yield { type: 'done', stopReason: step.calls?.length ? 'tool_use' : 'end_turn', usage: { inputTokens: 10, outputTokens: 5 } };
    },
  };
}

const memoryStore = memoryTurnStore;

const addTool: ToolSummary = {
  serverId: 'calc',
  name: 'add',
  modelName: 'calc__add',
  inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  enabled: true,
};

function run(steps: Step[], options: { gate?: (tool: ToolSummary) => GateDecision; withheld?: string; signal?: AbortSignal } = {}) {
  const provider = scriptedProvider(steps);
  const store = memoryStore();
  const events: TurnEvent[] = [];
  const kit = scriptedTools([addTool], options);
  const outcome = runTurn(
    { conversationId: 'c1', userContent: [{ type: 'text', text: 'add 2 and 3' }], provider, model: 'm', tools: kit.plan(), signal: options.signal ?? new AbortController().signal },
    { store, tools: kit.tools, calls: kit.calls, onEvent: (e) => events.push(e) },
  );
  return { outcome, provider, store, events, served: kit.served, tookIn: kit.tookIn };
}

test('a tool call goes to its server and its result back to the model, until the model answers', async () => {
  const { outcome, provider, store, served } = run([{ calls: [{ name: 'calc__add', input: { a: 2, b: 3 } }] }, { text: 'It is 5.' }]);
  assert.deepEqual((await outcome).stopReason, 'end_turn');
  assert.deepEqual(served, [{ a: 2, b: 3 }]);
  assert.deepEqual(provider.requests[0]?.tools.map((t) => t.name), ['calc__add']);
  const toolResult = provider.requests[1]?.messages.at(-1)?.content[0];
  assert.deepEqual(toolResult, { type: 'tool_result', toolUseId: 'call-1-0', content: [{ type: 'text', text: '5' }] });
  assert.equal(store.calls[0]?.status, 'done');
});

test('the calls of one step run one after another; those behind the first are shown waiting at once, not only when their turn comes', async () => {
  const { outcome, events, served } = run([{ calls: [{ name: 'calc__add', input: { a: 1, b: 1 } }, { name: 'calc__add', input: { a: 2, b: 2 } }, { name: 'calc__add', input: { a: 3, b: 3 } }] }, { text: 'done' }]);
  await outcome;
  assert.deepEqual(served, [{ a: 1, b: 1 }, { a: 2, b: 2 }, { a: 3, b: 3 }]);
  const calls = events.flatMap((event) => (event.type === 'tool_call' ? [`${event.callId} ${event.status}`] : []));
  assert.deepEqual(calls.slice(0, 3), ['call-1-0 waiting', 'call-1-1 waiting', 'call-1-2 waiting'], 'all three said at once, in order, before the first is asked or run');
  assert.ok(calls.indexOf('call-1-1 running') > calls.indexOf('call-1-0 running'), 'and run after it');
});

test('spec 003 (inputSchema): arguments that do not match the inputSchema go back to the model as an error; the server never sees them', async () => {
  const { outcome, provider, served, store } = run([{ calls: [{ name: 'calc__add', input: { a: 'two' } }] }, { text: 'sorry' }]);
  await outcome;
  assert.deepEqual(served, []);
  const result = provider.requests[1]?.messages.at(-1)?.content[0];
  assert.ok(result?.type === 'tool_result' && result.isError === true);
  assert.match(JSON.stringify(result), /do not match the tool's input schema/);
  assert.deepEqual([store.calls[0]?.status, store.calls[0]?.isError], ['error', true], 'arguments that do not fit are saved as an error');
});

test('a denied call is not run; the model is told the person did not allow it', async () => {
  const { outcome, provider, served, store } = run([{ calls: [{ name: 'calc__add', input: { a: 1, b: 1 } }] }, { text: 'ok' }], {
    gate: () => ({ allowed: false, decidedBy: 'person', reason: 'denied once' }),
  });
  await outcome;
  assert.deepEqual(served, []);
  assert.match(JSON.stringify(provider.requests[1]?.messages.at(-1)), /did not allow this call \(denied once\)/);
  assert.equal(store.calls[0]?.decidedBy, 'person');
});

test('a tool withheld by the gate is not offered to the model', async () => {
  const { outcome, provider } = run([{ text: 'no tools' }], { withheld: 'it changed' });
  await outcome;
  assert.deepEqual(provider.requests[0]?.tools, []);
});

test('a withheld tool called anyway (the model remembers it) is refused with the reason, and never runs', async () => {
  const { outcome, provider, served, store } = run([{ calls: [{ name: 'calc__add', input: { a: 2, b: 3 } }] }, { text: 'ok' }], { withheld: 'calc changed the tool "add"' });
  await outcome;
  assert.deepEqual(served, []);
  assert.match(JSON.stringify(provider.requests[1]?.messages.at(-1)), /This call was not made: calc changed the tool \\"add\\"/);
  assert.deepEqual([store.calls[0]?.status, store.calls[0]?.tool], ['denied', 'add']);
});

test('a tool the model names but was not offered (its server is off) runs nothing, and its saved line says so in words', async () => {
  const { outcome, provider, served, store } = run([{ calls: [{ name: 'notes__add_note', input: { title: 'x' } }] }, { text: 'ok' }]);
  await outcome;
  assert.deepEqual(served, []);
  assert.match(JSON.stringify(provider.requests[1]?.messages.at(-1)), /There is no tool named \\"notes__add_note\\"/);
  assert.deepEqual(store.calls[0]?.result, { error: 'the model asked for a tool it was not offered (its server is off or removed, or the name is made up), so nothing ran' });
});

test('a tool name the model got slightly wrong is answered with the one it was given, and nothing runs', async () => {
  const { outcome, provider, served } = run([{ calls: [{ name: 'calc__addd', input: { a: 2, b: 3 } }] }, { text: 'ok' }]);
  await outcome;
  assert.deepEqual(served, []);
  assert.match(JSON.stringify(provider.requests[1]?.messages.at(-1)), /There is no tool named \\"calc__addd\\". Did you mean \\"calc__add\\"\?/);
});

test('the gate hears of every result the conversation takes in', async () => {
  const { outcome, tookIn } = run([{ calls: [{ name: 'calc__add', input: { a: 2, b: 3 } }] }, { text: 'ok' }]);
  await outcome;
  assert.deepEqual(tookIn, ['add']);
});

test('the person\'s message is saved before the model is called', async () => {
  const { outcome, store, provider } = run([{ text: 'hi' }]);
  await outcome;
  assert.deepEqual(provider.requests[0]?.messages[0], { role: 'user', content: [{ type: 'text', text: 'add 2 and 3' }] });
  assert.deepEqual(store.statuses, ['complete']);
});

test('a model that never stops calling tools is stopped after maxSteps', async () => {
  const forever = Array.from({ length: 30 }, () => ({ calls: [{ name: 'calc__add', input: { a: 1, b: 1 } }] }));
  const { outcome, events } = run(forever);
  const result = await outcome;
  assert.equal(result.steps, 25);
  assert.ok(events.some((e) => e.type === 'notice' && /stopped after 25 model turns/.test(e.message)));
});

test('past the threshold the model gets a search tool, and what it finds becomes callable (100 tools)', async () => {
  const many: ToolSummary[] = Array.from({ length: 100 }, (_, i) => ({
    serverId: i < 50 ? 'a' : 'b',
    name: `tool_${i}`,
    modelName: `${i < 50 ? 'a' : 'b'}__tool_${i}`,
    description: i === 77 ? 'Converts currencies' : `Does thing number ${i}`,
    inputSchema: { type: 'object' },
    enabled: true,
  }));
  const provider = scriptedProvider([{ calls: [{ name: 'atrium_search_tools', input: { query: 'currency converts' } }] }, { calls: [{ name: 'b__tool_77', input: {} }] }, { text: 'done' }]);
  const events: TurnEvent[] = [];
  const kit = scriptedTools(many, { run: () => ({ content: [{ type: 'text', text: 'ok' }] }) });
  const served = kit.servedNames;
  await runTurn(
    { conversationId: 'c', userContent: [{ type: 'text', text: 'convert 5 EUR' }], provider, model: 'm', tools: kit.plan('c'), signal: new AbortController().signal },
    { store: memoryStore(), tools: kit.tools, calls: kit.calls, onEvent: (e) => events.push(e) },
  );
  assert.deepEqual(provider.requests[0]?.tools.map((t) => t.name), ['atrium_search_tools']);
  assert.deepEqual(provider.requests[1]?.tools.map((t) => t.name), ['atrium_search_tools', 'b__tool_77']);
  assert.deepEqual(served, ['b/tool_77']);
  assert.ok(events.some((e) => e.type === 'notice' && /loaded tools for "currency converts": b\/tool_77/.test(e.message)), 'the person sees what was loaded');
});

test('what a conversation loaded stays loaded in its next turn, so the model calls it without searching again', async () => {
  const many: ToolSummary[] = Array.from({ length: 100 }, (_, i) => ({
    serverId: 'b',
    name: `tool_${i}`,
    modelName: `b__tool_${i}`,
    description: i === 77 ? 'Converts currencies' : `Does thing number ${i}`,
    inputSchema: { type: 'object' },
    enabled: true,
  }));
  const kit = scriptedTools(many, { run: () => ({ content: [{ type: 'text', text: 'ok' }] }) });
  const turn = async (steps: Step[], conversationId = 'c') => {
    const provider = scriptedProvider(steps);
    const events: TurnEvent[] = [];
    await runTurn(
      { conversationId, userContent: [{ type: 'text', text: 'convert' }], provider, model: 'm', tools: kit.plan(conversationId), signal: new AbortController().signal },
      { store: memoryStore(), tools: kit.tools, calls: kit.calls, onEvent: (e) => events.push(e) },
    );
    return { provider, events };
  };
  await turn([{ calls: [{ name: 'atrium_search_tools', input: { query: 'convert currency' } }] }, { calls: [{ name: 'b__tool_77', input: {} }] }, { text: 'done' }]);
  const second = await turn([{ calls: [{ name: 'b__tool_77', input: {} }] }, { text: 'done again' }]);
  assert.deepEqual(second.provider.requests[0]?.tools.map((t) => t.name), ['atrium_search_tools', 'b__tool_77']);
  assert.ok(second.events.some((e) => e.type === 'notice' && e.message === 'kept loaded from earlier in this conversation: b/tool_77'), 'the person sees what stays loaded');
  const other = await turn([{ text: 'hi' }], 'another');
  assert.deepEqual(other.provider.requests[0]?.tools.map((t) => t.name), ['atrium_search_tools'], 'another conversation starts with the search tool alone');
});

test('a result larger than the budget is not lost: the model gets what fits and reads the rest of the kept result in pages', async () => {
  // 250,000 characters, each 10,000 marked with where it starts, so a page shows which part it is.
  const big = Array.from({ length: 25 }, (_, i) => `<${String(i * 10_000).padStart(7, '0')}>`.padEnd(10_000, '.')).join('');
  const provider = scriptedProvider([
    { calls: [{ name: 'calc__add', input: { a: 1, b: 2 } }] },
    { calls: [{ name: 'atrium_read_result', input: { callId: 'call-1-0', offset: 100_000 } }] },
    { calls: [{ name: 'atrium_read_result', input: { callId: 'call-1-0', offset: 240_000 } }] },
    { text: 'I read it all.' },
  ]);
  const store = memoryStore();
  const withSaved: TurnStore = { ...store, savedResult: (_c, callId) => store.calls.find((call) => call.id === callId)?.result as Record<string, unknown> | undefined };
  const kit = scriptedTools([addTool], { run: () => ({ content: [{ type: 'text', text: big }] }) });
  await runTurn(
    { conversationId: 'c', userContent: [{ type: 'text', text: 'get the big thing' }], provider, model: 'm', tools: kit.plan('c'), signal: new AbortController().signal },
    { store: withSaved, tools: kit.tools, calls: kit.calls, onEvent: () => undefined },
  );
  const served = kit.served.length;
  const textOfResult = (request: number) => JSON.stringify(provider.requests[request]?.messages.at(-1)?.content);
  assert.match(textOfResult(1), /read the rest with atrium_read_result \{\\"callId\\": \\"call-1-0\\", \\"offset\\": 100000\}/);
  assert.deepEqual(provider.requests[1]?.tools.map((t) => t.name), ['calc__add', 'atrium_read_result'], 'the reader is offered once a result was cut');
  assert.match(textOfResult(2), /<0100000>/);
  assert.match(textOfResult(2), /characters 100000–150000 of 250000\. 100000 more: call atrium_read_result \{\\"callId\\": \\"call-1-0\\", \\"offset\\": 150000\}/);
  assert.match(textOfResult(3), /<0240000>/);
  assert.match(textOfResult(3), /characters 240000–250000 of 250000\. That is the end of the result\./);
  assert.equal(served, 1, 'the pages come from the kept result, not the server again');
});

test('a few tools whose definitions would fill a small model’s context are searched for, and the person is told why', async () => {
  const large: ToolSummary[] = Array.from({ length: 12 }, (_, i) => ({
    serverId: 'l',
    name: `tool_${i}`,
    modelName: `l__tool_${i}`,
    description: 'Does one big thing. '.repeat(60),
    inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'x'.repeat(400) } } },
    enabled: true,
  }));
  const runWith = async (contextTokens: number, reported = false) => {
    const provider = scriptedProvider([{ text: 'ok' }]);
    const events: TurnEvent[] = [];
    const kit = scriptedTools(large, { run: () => ({ content: [] }) });
    await runTurn(
      { conversationId: 'c', userContent: [{ type: 'text', text: 'hi' }], provider, model: 'm', tools: kit.plan('c', contextTokens, reported), signal: new AbortController().signal },
      { store: memoryStore(), tools: kit.tools, calls: kit.calls, onEvent: (e) => events.push(e) },
    );
    return { offered: provider.requests[0]?.tools.map((t) => t.name) ?? [], events };
  };
  const local = await runWith(8_192, true);
  assert.deepEqual(local.offered, ['atrium_search_tools']);
  assert.ok(local.events.some((e) => e.type === 'notice' && /would take more than a quarter of the model's context \(8,192 tokens, as its server reports\); the model gets a search tool/.test(e.message)));
  assert.equal((await runWith(32_000)).offered.length, 12, 'a 32k context takes them all');
});

test('in a later turn of a conversation that has a cut result, the reader is offered from the start', async () => {
  const store = memoryStore();
  const withSaved: TurnStore = { ...store, savedResult: (_c, callId) => store.calls.find((call) => call.id === callId)?.result as Record<string, unknown> | undefined };
  const kit = scriptedTools([addTool], { run: () => ({ content: [{ type: 'text', text: 'y'.repeat(150_000) }] }) });
  const turn = async (steps: Step[]) => {
    const provider = scriptedProvider(steps);
    await runTurn(
      { conversationId: 'c', userContent: [{ type: 'text', text: 'go' }], provider, model: 'm', tools: kit.plan('c'), signal: new AbortController().signal },
      { store: withSaved, tools: kit.tools, calls: kit.calls, onEvent: () => undefined },
    );
    return provider;
  };
  const first = await turn([{ text: 'nothing cut yet' }]);
  assert.deepEqual(first.requests[0]?.tools.map((t) => t.name), ['calc__add']);
  await turn([{ calls: [{ name: 'calc__add', input: { a: 1, b: 2 } }] }, { text: 'cut' }]);
  const later = await turn([{ text: 'reading on' }]);
  assert.deepEqual(later.requests[0]?.tools.map((t) => t.name), ['calc__add', 'atrium_read_result']);
});

test('a tool the person keeps always loaded is sent from the start when the model searches: loaded without deferral, and not deferred with it', async () => {
  const many: ToolSummary[] = Array.from({ length: 100 }, (_, i) => ({
    serverId: 'b',
    name: `tool_${i}`,
    modelName: `b__tool_${i}`,
    inputSchema: { type: 'object' },
    enabled: true,
    ...(i === 5 ? { alwaysLoaded: true as const } : {}),
  }));
  for (const defersTools of [false, true]) {
    const provider = scriptedProvider([{ calls: [{ name: 'b__tool_5', input: {} }] }, { text: 'done' }], defersTools);
    const events: TurnEvent[] = [];
    const kit = scriptedTools(many, { run: () => ({ content: [{ type: 'text', text: 'ok' }] }) });
    await runTurn(
      { conversationId: 'c', userContent: [{ type: 'text', text: 'go' }], provider, model: 'm', tools: kit.plan('c'), signal: new AbortController().signal },
      { store: memoryStore(), tools: kit.tools, calls: kit.calls, onEvent: (e) => events.push(e) },
    );
    const sent = provider.requests[0]?.tools ?? [];
    if (defersTools) {
      assert.equal(sent.length, 101, 'every tool, with the search tool');
      assert.deepEqual(sent.filter((t) => !t.deferred).map((t) => t.name), ['atrium_search_tools', 'b__tool_5']);
    } else {
      assert.deepEqual(sent.map((t) => t.name), ['atrium_search_tools', 'b__tool_5']);
    }
    assert.ok(events.some((e) => e.type === 'notice' && /\(always loaded: b\/tool_5\)/.test(e.message)), 'the person sees what is always loaded');
  }
});

test('the conversation is read once a turn, not at every step, and each step sends what the store holds then', async () => {
  const store = memoryStore();
  let reads = 0;
  const counted = { ...store, loadChatMessages: (id: string) => (reads++, store.loadChatMessages(id)) };
  const provider = scriptedProvider([{ calls: [{ name: 'calc__add', input: { a: 1, b: 2 } }] }, { text: 'And again.', calls: [{ name: 'calc__add', input: { a: 3, b: 4 } }] }, { text: 'Done.' }]);
  const held: ChatMessage[][] = [];
  const watching: typeof provider = { ...provider, stream: (request) => (held.push(transcriptForModel(structuredClone(store.messages))), provider.stream(request)) };
  const kit = scriptedTools([addTool]);
  await runTurn(
    { conversationId: 'c', userContent: [{ type: 'text', text: 'add' }], provider: watching, model: 'm', tools: kit.plan('c'), signal: new AbortController().signal },
    { store: counted, tools: kit.tools, calls: kit.calls, onEvent: () => undefined },
  );
  assert.equal(reads, 1);
  assert.equal(provider.requests.length, 3);
  provider.requests.forEach((request, i) => assert.deepEqual(request.messages, held[i], `step ${i + 1} sends what the store holds`));
});

test("a task's result that came in while the turn's tools ran is saved after their results and goes with the model's next request, once", async () => {
  const provider = scriptedProvider([{ calls: [{ name: 'calc__add', input: { a: 2, b: 3 } }] }, { text: 'It is 5, and the survey is in.' }]);
  const store = memoryStore();
  const kit = scriptedTools([addTool]);
  const saved: string[] = [];
  let arrivals = [{ content: [{ type: 'text' as const, text: 'The task of your call of survey/run finished: 12 sites' }], origin: { kind: 'task' as const, serverId: 'survey', tool: 'run', callId: 'c0', taskId: 't1', ended: 'completed' as const }, saved: () => saved.push('t1') }];
  await runTurn(
    { conversationId: 'c1', userContent: [{ type: 'text', text: 'add 2 and 3' }], provider, model: 'm', tools: kit.plan(), signal: new AbortController().signal },
    {
      store,
      tools: kit.tools,
      calls: kit.calls,
      onEvent: () => undefined,
      arrived: () => {
        const taken = arrivals;
        arrivals = [];
        return taken;
      },
    },
  );
  const last = provider.requests[1]?.messages.at(-1);
  assert.equal(last?.role, 'user');
  assert.deepEqual(last?.content.map((block) => block.type), ['tool_result', 'text'], 'the tool result first, then what came in');
  assert.match(JSON.stringify(last?.content[1]), /12 sites/);
  assert.deepEqual(saved, ['t1']);
  assert.deepEqual(
    store.messages.map((message) => `${message.role}:${message.content.map((block) => block.type).join('+')}`),
    ['user:text', 'assistant:tool_use', 'user:tool_result', 'user:text', 'assistant:text'],
    'saved in its own message, after the results',
  );
});
