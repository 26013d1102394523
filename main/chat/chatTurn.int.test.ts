// Conversations end to end: the real @anthropic-ai/sdk and openai clients against scripted fake LLM
// servers, real MCP servers as child processes, the host core's consent gate, and the SQLite history.

import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, test } from 'node:test';
import type { ProviderKind } from '../../shared/contract.ts';
import type { PendingAnswer, PendingRequestView } from '../../shared/pendingPayloads.ts';
import type { FakeLlmServer, FakeTurn } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeOpenAi } from '../../e2e/fixtures/llm/fakeOpenAiServer.ts';
import { startFakeOpenAiResponses } from '../../e2e/fixtures/llm/fakeOpenAiResponsesServer.ts';
import type { TestHost } from '../../e2e/fixtures/hostHarness.ts';
import { everythingServerPath, nextEvent, startTestHost, waitForLog } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';
import type { ApprovalMode } from '../host/approval/grantLedger.ts';
import type { SamplingPolicy } from '../host/sampling/samplingBroker.ts';
import type { HostCoreOptions } from '../app/hostCore.ts';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

interface HostChoices {
  approvalMode?: ApprovalMode;
  samplingPolicy?: SamplingPolicy;
  /** The provider's default model; without it the provider is as one added in Settings is (no default, no models). */
  defaultModel?: string;
  imageGeneration?: true;
}

/** A host whose one provider is the scripted fake `llm` speaks for, with its servers settled; closed after the test. */
async function hostOver(llm: FakeLlmServer, kind: ProviderKind, servers: Record<string, unknown>, choices: HostChoices): Promise<{ host: TestHost; llm: FakeLlmServer }> {
  const host = await startTestHost(servers, {
    approvalMode: choices.approvalMode ?? 'ask',
    samplingPolicy: choices.samplingPolicy ?? 'deny',
    providerSettings: {
      providers: [{ id: 'fake', kind, baseUrl: llm.url, apiKeySecret: 'fake', ...(choices.imageGeneration ? { imageGeneration: true } : {}) }],
      ...(choices.defaultModel ? { default: { provider: 'fake', model: choices.defaultModel } } : {}),
    },
    secrets: { get: async () => 'sk-test-key-not-real' },
  });
  cleanups.push(async () => {
    await host.close();
    await llm.close();
  });
  await host.core.hub.whenSettled();
  return { host, llm };
}

async function chatHost(
  kind: 'anthropic' | 'openai',
  script: FakeTurn[],
  servers: Record<string, unknown>,
  options: { approvalMode?: ApprovalMode; samplingPolicy?: SamplingPolicy } = {},
): Promise<{ host: TestHost; llm: FakeLlmServer }> {
  const llm = kind === 'anthropic' ? await startFakeAnthropic(script) : await startFakeOpenAi(script);
  return hostOver(llm, kind, servers, { ...options, defaultModel: 'test-model' });
}

/** Answers every tool approval the person is asked for, and records what was asked. */
function answerApprovals(host: TestHost, effect: 'allow' | 'deny'): PendingRequestView[] {
  const asked: PendingRequestView[] = [];
  host.core.events.on('pendingOpened', (record) => {
    asked.push(record);
    void host.core.api.respondPending({ id: record.id, outcome: { effect, scope: 'once', target: 'tool' } });
  });
  return asked;
}

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const bodyOf = (llm: FakeLlmServer, index: number) => JSON.stringify(llm.requests.filter((r) => r.method === 'POST')[index]?.body ?? null);

describe('conversations with tools', () => {
  test('multi-step tool use across two servers (Anthropic): each result goes back to the model, and the history keeps it all', async () => {
    const { host, llm } = await chatHost(
      'anthropic',
      [
        { toolCalls: [{ name: 'echo__echo', input: { text: 'first step' } }] },
        { toolCalls: [{ name: 'everything__get-sum', input: { a: 20, b: 22 } }] },
        { text: 'The sum is 42.' },
      ],
      { echo: fixtureCommand('echoServer'), everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'] } },
      { approvalMode: 'all' },
    );
    const reply = await host.core.api.sendMessage({ text: 'echo, then add 20 and 22' });
    assert.equal(reply.stopReason, 'end_turn');
    assert.match(bodyOf(llm, 1), /first step/);
    assert.match(bodyOf(llm, 2), /42/);
    const tools = JSON.parse(bodyOf(llm, 0)).tools.map((t: { name: string }) => t.name);
    assert.ok(tools.includes('echo__echo') && tools.includes('everything__get-sum'), tools.join(', '));
    const { messages, toolCalls } = await host.core.api.getConversation({ conversationId: reply.conversationId });
    assert.deepEqual(toolCalls.map((c) => [c.serverId, c.tool, c.status]), [['echo', 'echo', 'done'], ['everything', 'get-sum', 'done']]);
    assert.match(JSON.stringify(messages.at(-1)), /The sum is 42\./);
    assert.equal(messages.at(-1)?.status, 'complete');
    const markdown = await host.core.api.exportConversation({ conversationId: reply.conversationId, format: 'markdown' });
    assert.match(markdown, /get-sum/);
  });

  test('a destructive tool is asked for and denied (OpenAI): it never runs, and the model is told', async () => {
    const { host, llm } = await chatHost(
      'openai',
      [{ toolCalls: [{ name: 'files__crash', input: {} }] }, { text: 'Understood, I will not.' }],
      { files: { ...fixtureCommand('crashServer'), trusted: true } },
    );
    const asked = answerApprovals(host, 'deny');
    const reply = await host.core.api.sendMessage({ text: 'crash the server' });
    assert.equal(asked.length, 1);
    assert.equal(asked[0]?.kind, 'tool_approval');
    assert.match(bodyOf(llm, 1), /did not allow this call/);
    const [server] = await host.core.api.listServers({});
    assert.equal(server?.status.kind, 'ready', 'the crash tool never ran');
    const audit = await host.core.api.listAudit({ limit: 10 });
    assert.deepEqual(audit.map((a) => [a.tool, a.decision, a.decidedBy]), [['crash', 'deny', 'person']]);
    assert.equal(reply.stopReason, 'end_turn');
  });

  test("spec 003 (annotations are untrusted unless the server is): a trusted read-only tool runs without asking; an untrusted server's read-only claim is not believed", async () => {
    const { host } = await chatHost(
      'anthropic',
      [
        { toolCalls: [{ name: 'trusted__add', input: { a: 1, b: 2 } }] },
        { text: 'ok' },
        { toolCalls: [{ name: 'untrusted__add', input: { a: 1, b: 2 } }] },
        { text: 'ok' },
      ],
      { trusted: { ...fixtureCommand('echoServer'), trusted: true }, untrusted: fixtureCommand('echoServer') },
    );
    const asked = answerApprovals(host, 'allow');
    await host.core.api.sendMessage({ text: 'add with the trusted one' });
    assert.equal(asked.length, 0, 'no question for a read-only tool of a trusted server');
    await host.core.api.sendMessage({ text: 'add with the untrusted one' });
    assert.deepEqual(asked.map((a) => a.serverId), ['untrusted']);
  });

  test("a trusted server's sampling request runs without asking under the approve policy", async () => {
    const { host, llm } = await chatHost(
      'anthropic',
      [{ toolCalls: [{ name: 'echo__sample', input: { prompt: 'say hi' } }] }, { text: 'sampled reply text' }, { text: 'done' }],
      { echo: { ...fixtureCommand('echoServer'), trusted: true } },
      { approvalMode: 'all', samplingPolicy: 'approve' },
    );
    const asked = answerApprovals(host, 'allow');
    await host.core.api.sendMessage({ text: 'use sampling' });
    assert.equal(asked.length, 0);
    assert.match(bodyOf(llm, 1), /say hi/, 'the server\'s sampling request reached the model');
    assert.match(bodyOf(llm, 2), /sampled reply text/, 'the sampled text went back through the tool result');
  });

  test('the person approves a sampling request with an edit, reviews the reply, and the history keeps both decisions', async () => {
    const { host, llm } = await chatHost(
      'openai',
      [{ toolCalls: [{ name: 'echo__sample', input: { prompt: 'say hi' } }] }, { text: 'sampled reply text' }, { text: 'done' }],
      { echo: fixtureCommand('echoServer') },
      { approvalMode: 'all', samplingPolicy: 'approve' },
    );
    const seen: PendingRequestView[] = [];
    host.core.events.on('pendingOpened', (record) => {
      seen.push(record);
      if (record.kind !== 'sampling') return;
      const outcome: PendingAnswer =
        record.payload.stage === 'request' ? { action: 'approve', messages: [{ role: 'user', text: 'say hello politely' }] } : { action: 'send', text: 'reviewed reply' };
      void host.core.api.respondPending({ id: record.id, outcome });
    });
    const { conversationId } = await host.core.api.sendMessage({ text: 'use sampling' });
    assert.deepEqual(seen.map((r) => [r.kind, (r.payload as { stage: string }).stage, r.serverId, r.conversationId]), [
      ['sampling', 'request', 'echo', conversationId],
      ['sampling', 'result', 'echo', conversationId],
    ]);
    assert.match(bodyOf(llm, 1), /say hello politely/, 'the edited message reached the model');
    assert.doesNotMatch(bodyOf(llm, 1), /say hi/);
    assert.match(bodyOf(llm, 2), /reviewed reply/, 'the reviewed text, not the raw one, went back to the server');
    assert.doesNotMatch(bodyOf(llm, 2), /sampled reply text/);
    const stored = seen.map((r) => host.core.conversations.history.requests.get(r.id));
    assert.deepEqual(stored.map((r) => [r?.status, r?.conversationId]), [['settled', conversationId], ['settled', conversationId]]);
  });

  test('MCP 2024-11-05 Sampling (a human may reject it): a sampling request the person rejects runs no model, and the server is told', async () => {
    const { host, llm } = await chatHost('anthropic', [{ toolCalls: [{ name: 'echo__sample', input: { prompt: 'say hi' } }] }, { text: 'done' }], { echo: fixtureCommand('echoServer') }, { approvalMode: 'all', samplingPolicy: 'ask' });
    host.core.events.on('pendingOpened', (record) => void host.core.api.respondPending({ id: record.id, outcome: { action: 'reject' } }));
    await host.core.api.sendMessage({ text: 'use sampling' });
    assert.equal(llm.requests.filter((r) => r.method === 'POST').length, 2, 'only the two turns of the conversation, no sampling call');
    assert.match(bodyOf(llm, 1), /rejected by the person/);
  });

  test('a sampling request is refused by default', async () => {
    const { host, llm } = await chatHost('anthropic', [{ toolCalls: [{ name: 'echo__sample', input: { prompt: 'say hi' } }] }, { text: 'done' }], { echo: fixtureCommand('echoServer') }, { approvalMode: 'all' });
    await host.core.api.sendMessage({ text: 'use sampling' });
    assert.match(bodyOf(llm, 1), /declined/);
  });
});

describe('MCP Apps (tool visibility)', () => {
  test('the extension is declared to servers of both eras by a host whose window shows views, and not by one without a window', async () => {
    const declared = async (frontEnd: HostCoreOptions['frontEnd'], args: string[] = []) => {
      const host = await startTestHost({ views: fixtureCommand('appViewServer', args) }, frontEnd ? { frontEnd } : {});
      cleanups.push(() => host.close());
      // The server says it when the tools are listed, on its stderr, which reaches the log in its own time.
      await waitForLog(host.core, 'views', /client declares MCP Apps/);
      const lines = await host.core.api.getServerLog({ serverId: 'views' });
      return lines.map((line) => line.text).find((text) => text.includes('client declares MCP Apps')) ?? '';
    };
    assert.match(await declared({ kind: 'browser', viewSandbox: 'http://127.0.0.1:9/view' }), /client declares MCP Apps: \{"mimeTypes":\["text\/html;profile=mcp-app"\]\}/);
    assert.match(await declared({ kind: 'browser', viewSandbox: 'http://127.0.0.1:9/view' }, ['--legacy']), /client declares MCP Apps: \{"mimeTypes":\["text\/html;profile=mcp-app"\]\}/, 'a 2025-era server hears it at initialize');
    assert.match(await declared(undefined), /client declares MCP Apps: no/);
  });

  test('a tool declared for its view only is never offered to the model, and a call the model makes to it anyway is refused', async () => {
    const { host, llm } = await chatHost(
      'anthropic',
      [{ toolCalls: [{ name: 'views__refresh_chart', input: {} }] }, { text: 'I could not refresh it.' }],
      { views: { ...fixtureCommand('appViewServer'), trusted: true } },
      { approvalMode: 'all' },
    );
    const notices: string[] = [];
    host.core.events.on('chatEvent', ({ event }) => event.type === 'notice' && notices.push(event.message));
    const reply = await host.core.api.sendMessage({ text: 'refresh the chart' });
    assert.equal(reply.stopReason, 'end_turn');
    // Not offered by design, so not said to have changed: a false alarm would teach people to ignore the real one.
    assert.deepEqual(notices.filter((notice) => notice.includes('withheld')), []);
    const offered = (llm.requests.find((r) => r.method === 'POST')?.body as { tools: { name: string }[] }).tools.map((t) => t.name);
    assert.deepEqual(offered.sort(), ['views__inspect', 'views__plain_sum', 'views__show_chart', 'views__show_map']);
    const { toolCalls } = await host.core.api.getConversation({ conversationId: reply.conversationId });
    assert.deepEqual([toolCalls[0]?.status, toolCalls[0]?.result?.error], ['denied', 'views declares the tool "refresh_chart" for its own view only, not for the model']);
    assert.match(bodyOf(llm, 1), /This call was not made: views declares the tool \\"refresh_chart\\" for its own view only/);
  });

  test('a view gets its page with what it may reach, and calls only its own server’s tools for views, through the gate, audited as the view’s', async () => {
    const { host } = await chatHost('anthropic', [{ text: 'Here it is.' }], { views: fixtureCommand('appViewServer'), echo: fixtureCommand('echoServer') }, { approvalMode: 'all' });
    const inspector = await host.core.api.openToolView({ serverId: 'views', tool: 'inspect' });
    assert.equal(inspector.resourceUri, 'ui://charts/hostile.html');
    assert.match(inspector.html, /<h1>Hostile<\/h1>/);
    assert.deepEqual(inspector.csp.connectDomains, ['https://api.example.org']);
    assert.deepEqual(inspector.dropped, ['connectDomains: "ftp://files.example.org" is not an https origin']);
    await assert.rejects(host.core.api.openToolView({ serverId: 'views', tool: 'plain_sum' }), /has no view/);

    const viewOf = { serverId: 'views', tool: 'show_chart' };
    await assert.rejects(host.core.api.callToolFromView({ conversationId: 'no-such', viewOf, tool: 'refresh_chart' }), /There is no conversation "no-such"/);
    const { conversationId } = await host.core.api.sendMessage({ text: 'show the chart' });
    const result = await host.core.api.callToolFromView({ conversationId, viewOf, tool: 'refresh_chart', arguments: {} });
    assert.deepEqual(result.content, [{ type: 'text', text: 'refreshed' }]);
    const audited = host.core.conversations.audit.list({ limit: 10 }).find((entry) => entry.tool === 'refresh_chart');
    assert.match(audited?.detail ?? '', /asked by the view of views\/show_chart/);
    await assert.rejects(host.core.api.callToolFromView({ conversationId, viewOf, tool: 'echo', arguments: { text: 'x' } }), /views does not offer/);
    await assert.rejects(host.core.api.callToolFromView({ conversationId, viewOf, tool: 'plain_sum', arguments: {} }), /for the model only, not for its views/);
  });

  test('the permissions a view asks for are allowed per server, told to the window, and forgotten with the server', async () => {
    const { host } = await chatHost('anthropic', [{ text: 'Here it is.' }], { views: fixtureCommand('appViewServer') }, { approvalMode: 'all' });
    const map = await host.core.api.openToolView({ serverId: 'views', tool: 'show_map' });
    assert.deepEqual(map.permissions, ['geolocation', 'clipboardWrite']);
    const told: unknown[] = [];
    host.core.events.on('viewTrustChanged', (trust) => told.push(trust));
    await host.core.api.setViewPermission({ serverId: 'views', permission: 'geolocation', allowed: true });
    assert.deepEqual(
      (await host.core.api.listViewTrust({ serverId: 'views' })).map((trust) => trust.permissions.map((grant) => grant.permission)),
      [['geolocation']],
    );
    await host.core.api.removeServer({ serverId: 'views' });
    assert.deepEqual(await host.core.api.listViewTrust({}), [], 'a removed server keeps nothing of what was allowed');
    assert.deepEqual(told.map((trust) => (trust as unknown[]).length), [1, 0]);
  });

  test('a view that goes while its call waits for the person takes its question back', async () => {
    const { host } = await chatHost('anthropic', [{ text: 'Here it is.' }], { views: fixtureCommand('appViewServer') }, { approvalMode: 'ask' });
    const { conversationId } = await host.core.api.sendMessage({ text: 'show the chart' });
    const asked = nextEvent(host.core, 'pendingOpened');
    const call = host.core.api.callToolFromView({ conversationId, viewOf: { serverId: 'views', tool: 'show_chart' }, tool: 'refresh_chart', arguments: {}, callId: 'view-call-1' });
    const question = await asked;
    assert.equal(question.kind === 'tool_approval' ? question.payload.fromView?.tool : undefined, 'show_chart');
    await host.core.api.cancelCall({ callId: 'view-call-1' });
    await assert.rejects(call, /^Error: The view of views\/show_chart asked to call "refresh_chart": the request was cancelled\.$/);
    assert.deepEqual(await host.core.api.listPending({}), []);
  });
});

describe('the Responses API', () => {
  test('a tool call runs on a real server and its result goes back; a generated image is shown, saved and exported', async () => {
    const llm = await startFakeOpenAiResponses([
      { toolCalls: [{ name: 'echo__add', input: { a: 20, b: 22 } }] },
      { text: 'The answer is 42; here it is drawn.', images: [{ format: 'png', data: PNG }] },
    ]);
    const { host } = await hostOver(llm, 'openai-responses', { echo: { ...fixtureCommand('echoServer'), trusted: true } }, { defaultModel: 'gpt-image-test', imageGeneration: true });
    const images: { mimeType: string; data: string }[] = [];
    host.core.events.on('chatEvent', ({ event }) => {
      if (event.type === 'image') images.push({ mimeType: event.mimeType, data: event.data });
    });
    const { conversationId, stopReason } = await host.core.api.sendMessage({ text: 'add 20 and 22, then draw it' });
    assert.equal(stopReason, 'end_turn');
    const second = llm.requests.filter((r) => r.method === 'POST')[1]?.body as { input: { type?: string; output?: unknown }[] };
    assert.deepEqual(second.input.find((item) => item.type === 'function_call_output')?.output, [{ type: 'input_text', text: '42' }]);
    assert.deepEqual(images, [{ mimeType: 'image/png', data: PNG }]);
    const { messages } = await host.core.api.getConversation({ conversationId });
    assert.deepEqual((messages.at(-1) as { content: unknown }).content, [
      { type: 'text', text: 'The answer is 42; here it is drawn.' },
      { type: 'image', mimeType: 'image/png', data: PNG },
    ]);
    assert.match(await host.core.api.exportConversation({ conversationId, format: 'markdown' }), /\*\[image, image\/png\]\*/);
    assert.ok((await host.core.api.exportConversation({ conversationId, format: 'json' })).includes(PNG));
  });
});

describe('many tools: the model searches once and keeps using what it loaded, on every provider', () => {
  const fiftyTools = { command: process.execPath, args: [fileURLToPath(new URL('../../bench/servers/outputSchemaServer.ts', import.meta.url))] };
  // Two turns of one conversation: the first searches, loads two tools and calls one; the second calls the
  // other straight away, without searching again.
  const script = (): FakeTurn[] => [
    { toolCalls: [{ name: 'atrium_search_tools', input: { query: 'tool_42', limit: 2 } }] },
    { toolCalls: [{ name: 'second__tool_42', input: {} }] },
    { text: 'done' },
    { toolCalls: [{ name: 'first__tool_42', input: {} }] },
    { text: 'again' },
  ];
  async function twoTurns(kind: ProviderKind, llm: FakeLlmServer) {
    const { host } = await hostOver(llm, kind, { first: fiftyTools, second: fiftyTools }, { approvalMode: 'all', defaultModel: 'test-model' });
    assert.ok((await host.core.api.listTools({})).length > 100);
    const notices: string[] = [];
    host.core.events.on('chatEvent', ({ event }) => event.type === 'notice' && notices.push(event.message));
    const { conversationId } = await host.core.api.sendMessage({ text: 'use tool 42' });
    await host.core.api.sendMessage({ conversationId, text: 'and the other one' });
    const { toolCalls } = await host.core.api.getConversation({ conversationId });
    assert.deepEqual(toolCalls.map((c) => [c.serverId, c.tool, c.status]), [['second', 'tool_42', 'done'], ['first', 'tool_42', 'done']]);
    // The turns' requests (a local server is also asked, once, how much context its model has).
    const bodies = llm.requests.filter((r) => r.method === 'POST' && !r.path.startsWith('/api/')).map((r) => r.body as Record<string, unknown>);
    assert.equal(bodies.length, 5, 'one search in all: the second turn needed none');
    return { bodies, notices };
  }
  const namesOf = (tools: unknown) => ((tools ?? []) as { name?: string; type?: string; function?: { name: string } }[]).map((t) => t.name ?? t.function?.name ?? t.type);

  test('Anthropic: every tool is sent deferred, the search’s result loads the found ones by reference, and the tools sent never change', async () => {
    const llm = await startFakeAnthropic(script());
    const { bodies, notices } = await twoTurns('anthropic', llm);
    const tools = bodies[0]?.['tools'] as { name: string; defer_loading?: boolean }[];
    assert.equal(tools[0]?.name, 'atrium_search_tools');
    assert.equal(tools[0]?.defer_loading, undefined, 'the search tool itself is loaded');
    assert.ok(tools.length > 100 && tools.slice(1).every((tool) => tool.defer_loading === true));
    // Byte for byte the same in every request, both turns: the prompt cache keeps the prefix.
    for (const body of bodies) assert.equal(JSON.stringify(body['tools']), JSON.stringify(bodies[0]?.['tools']));
    assert.deepEqual(bodies.map((body) => body['cache_control']), bodies.map(() => ({ type: 'ephemeral' })));
    const results = (bodies[1]?.['messages'] as { content: { type: string; content?: unknown }[] }[]).at(-1)?.content.find((block) => block.type === 'tool_result');
    assert.deepEqual(results?.content, [
      { type: 'tool_reference', tool_name: 'first__tool_42' },
      { type: 'tool_reference', tool_name: 'second__tool_42' },
    ]);
    assert.ok(!notices.some((notice) => notice.startsWith('kept loaded')), 'nothing needs keeping: the history loads them');
  });

  test('OpenAI Responses: the search is the API’s client tool search, its output loads the definitions found, and the tools sent never change', async () => {
    const llm = await startFakeOpenAiResponses(script());
    const { bodies } = await twoTurns('openai-responses', llm);
    const tools = bodies[0]?.['tools'] as { type: string; name?: string; execution?: string; defer_loading?: boolean; parameters?: unknown }[];
    assert.deepEqual({ ...tools[0], description: undefined }, { type: 'tool_search', execution: 'client', parameters: tools[0]?.parameters, description: undefined });
    assert.ok(tools.length > 100 && tools.slice(1).every((tool) => tool.type === 'function' && tool.defer_loading === true));
    for (const body of bodies) assert.equal(JSON.stringify(body['tools']), JSON.stringify(bodies[0]?.['tools']));
    const input = bodies[1]?.['input'] as { type?: string; call_id?: string; arguments?: unknown; tools?: { name: string; defer_loading?: boolean }[] }[];
    const call = input.find((item) => item.type === 'tool_search_call');
    assert.deepEqual(call?.arguments, { query: 'tool_42', limit: 2 });
    const output = input.find((item) => item.type === 'tool_search_output');
    assert.equal(output?.call_id, call?.call_id);
    assert.deepEqual(output?.tools?.map((tool) => [tool.name, tool.defer_loading]), [['first__tool_42', undefined], ['second__tool_42', undefined]]);
  });

  for (const kind of ['openai', 'openai-compatible'] as const) {
    test(`${kind === 'openai' ? 'OpenAI Chat Completions' : 'An OpenAI-compatible server'}: the search tool alone, then the found tools added; the next turn starts with them loaded`, async () => {
      const llm = await startFakeOpenAi(script());
      const { bodies, notices } = await twoTurns(kind, llm);
      const offered = (index: number) => namesOf(bodies[index]?.['tools']);
      assert.deepEqual(offered(0), ['atrium_search_tools']);
      assert.deepEqual(offered(1), ['atrium_search_tools', 'first__tool_42', 'second__tool_42']);
      assert.deepEqual(offered(3), ['atrium_search_tools', 'first__tool_42', 'second__tool_42'], 'kept loaded in the next turn');
      assert.ok(notices.some((notice) => /^kept loaded from earlier in this conversation: (second\/tool_42, first\/tool_42|first\/tool_42, second\/tool_42)$/.test(notice)), notices.join('\n'));
      assert.ok(!JSON.stringify(bodies).includes('defer_loading'));
    });
  }

  test('the person sees which tools the model has without searching and why, keeps one always loaded, and loads one by hand', async () => {
    const llm = await startFakeAnthropic([...script().slice(0, 3), { text: 'ready' }]);
    const { host } = await hostOver(llm, 'anthropic', { first: fiftyTools, second: fiftyTools }, { approvalMode: 'all', defaultModel: 'test-model' });
    const before = await host.core.api.toolsInUse({});
    assert.deepEqual([before.offered > 100, before.searching, before.loaded], [true, `${before.offered} tools are available`, []]);
    await host.core.api.setToolAlwaysLoaded({ serverId: 'first', tool: 'tool_7', alwaysLoaded: true });
    assert.deepEqual((await host.core.api.toolsInUse({})).loaded, [{ modelName: 'first__tool_7', serverId: 'first', tool: 'tool_7', how: { kind: 'always' } }]);

    const { conversationId } = await host.core.api.sendMessage({ text: 'use tool 42' });
    const inUse = await host.core.api.toolsInUse({ conversationId });
    assert.deepEqual(
      inUse.loaded.map((tool) => [tool.modelName, tool.how]),
      [
        ['first__tool_7', { kind: 'always' }],
        ['second__tool_42', { kind: 'search', query: 'tool_42' }],
        ['first__tool_42', { kind: 'search', query: 'tool_42' }],
      ],
      'a found tool stays "found by the search" after it is called',
    );
    const told = nextEvent(host.core, 'toolsLoadedChanged', (event) => event.conversationId === conversationId);
    await host.core.api.setToolLoaded({ conversationId, modelName: 'second__tool_9', loaded: true });
    await told;
    await assert.rejects(host.core.api.setToolLoaded({ conversationId, modelName: 'nobody__nothing', loaded: true }), /no tool the model may use is named "nobody__nothing"/);
    await host.core.api.sendMessage({ conversationId, text: 'ready?' });
    const last = llm.requests.filter((r) => r.method === 'POST').at(-1)?.body as { tools: { name: string; defer_loading?: boolean }[] };
    assert.deepEqual(last.tools.filter((tool) => !tool.defer_loading).map((tool) => tool.name), ['atrium_search_tools', 'first__tool_7', 'second__tool_9'], 'always loaded and loaded by hand go undeferred');
    assert.deepEqual((await host.core.api.toolsInUse({ conversationId })).loaded[1], { modelName: 'second__tool_9', serverId: 'second', tool: 'tool_9', how: { kind: 'by-hand' } });
  });

  test('a server that copies the Anthropic API without deferred tools: the turn is sent again without them, and later ones go without', async () => {
    const llm = await startFakeAnthropic([{ error: { status: 400, message: 'tools.1.defer_loading: Extra inputs are not permitted' } }, ...script()]);
    const { host } = await hostOver(llm, 'anthropic', { first: fiftyTools, second: fiftyTools }, { approvalMode: 'all', defaultModel: 'test-model' });
    const notices: string[] = [];
    host.core.events.on('chatEvent', ({ event }) => event.type === 'notice' && notices.push(event.message));
    const { conversationId } = await host.core.api.sendMessage({ text: 'use tool 42' });
    assert.equal((await host.core.api.getConversation({ conversationId })).toolCalls[0]?.status, 'done');
    const bodies = llm.requests.filter((r) => r.method === 'POST').map((r) => r.body as Record<string, unknown>);
    assert.equal(bodies.length, 4, 'the refused request, then the turn without deferral');
    assert.ok(JSON.stringify(bodies[0]).includes('defer_loading'));
    assert.deepEqual(namesOf(bodies[1]?.['tools']), ['atrium_search_tools']);
    assert.deepEqual(namesOf(bodies[2]?.['tools']), ['atrium_search_tools', 'first__tool_42', 'second__tool_42']);
    assert.ok(!JSON.stringify(bodies.slice(1)).includes('defer_loading') && !JSON.stringify(bodies.slice(1)).includes('tool_reference'));
    assert.ok(notices.some((notice) => /does not take deferred tools/.test(notice)), notices.join('\n'));
  });
});

describe('tools the person turned off', () => {
  test('a tool turned off is not offered to the model; turning a whole server off hides all its tools; the choice is saved', async () => {
    const { host, llm } = await chatHost('anthropic', [{ text: 'one' }, { text: 'two' }], { echo: fixtureCommand('echoServer') });
    await host.core.api.setToolEnabled({ serverId: 'echo', tool: 'env', enabled: false });
    await host.core.api.sendMessage({ text: 'hi' });
    const offered = (index: number) => (JSON.parse(bodyOf(llm, index)).tools ?? []).map((t: { name: string }) => t.name) as string[];
    assert.ok(offered(0).includes('echo__echo') && !offered(0).includes('echo__env'), offered(0).join(', '));
    assert.equal((await host.core.api.listTools({ serverId: 'echo' })).find((t) => t.name === 'env')?.enabled, false);
    await host.core.api.setToolEnabled({ serverId: 'echo', enabled: false });
    await host.core.api.sendMessage({ text: 'again' });
    assert.deepEqual(offered(1), []);
    const saved = JSON.parse(await readFile(join(host.home, 'servers.json'), 'utf8')) as { mcpServers: { echo: { disabledTools: unknown } } };
    assert.equal(saved.mcpServers.echo.disabledTools, 'all');
  });
});

describe('cancelling', () => {
  test('MCP 2024-11-05 Cancellation: cancel one tool call: the server hears notifications/cancelled, the model is told, and the turn goes on', async () => {
    const { host, llm } = await chatHost('anthropic', [{ toolCalls: [{ name: 'slow__hang', input: {} }] }, { text: 'Fine, skipped it.' }], { slow: fixtureCommand('hangServer') }, { approvalMode: 'all' });
    const running = nextEvent(host.core, 'chatEvent', (e) => e.event.type === 'tool_call' && e.event.status === 'running');
    const sending = host.core.api.sendMessage({ text: 'run the slow tool' });
    const { event } = await running;
    await waitForLog(host.core, 'slow', /hang called/);
    const heard = waitForLog(host.core, 'slow', /cancelled/);
    await host.core.api.cancelCall({ callId: event.type === 'tool_call' ? event.callId : '' });
    assert.equal((await sending).stopReason, 'end_turn');
    await heard;
    assert.match(bodyOf(llm, 1), /The person cancelled this call\./);
  });

  test('cancel mid-stream: the turn ends as cancelled, the partial reply is kept and marked incomplete', async () => {
    const { host } = await chatHost('openai', [{ hang: true, text: 'I was saying' }], {});
    const firstText = nextEvent(host.core, 'chatEvent', (e) => e.event.type === 'text');
    const sending = host.core.api.sendMessage({ text: 'talk forever' });
    const { conversationId } = await firstText;
    await host.core.api.cancelTurn({ conversationId });
    assert.equal((await sending).stopReason, 'cancelled');
    const { messages } = await host.core.api.getConversation({ conversationId });
    assert.equal(messages.at(-1)?.status, 'incomplete');
    assert.match(JSON.stringify(messages.at(-1)), /I was saying/);
    assert.equal(messages[0]?.role, 'user');
  });

  test('MCP 2024-11-05 Cancellation: cancel mid-tool: the server gets notifications/cancelled and the turn ends', async () => {
    const { host } = await chatHost('anthropic', [{ toolCalls: [{ name: 'slow__hang', input: {} }] }, { text: 'unused' }], { slow: fixtureCommand('hangServer') }, { approvalMode: 'all' });
    const running = nextEvent(host.core, 'chatEvent', (e) => e.event.type === 'tool_call' && e.event.status === 'running');
    const sending = host.core.api.sendMessage({ text: 'run the slow tool' });
    const { conversationId } = await running;
    // Cancelled only once the server has the call: a call cancelled before it was sent needs no notice.
    await waitForLog(host.core, 'slow', /hang called/);
    const heard = waitForLog(host.core, 'slow', /cancelled/);
    await host.core.api.cancelTurn({ conversationId });
    assert.equal((await sending).stopReason, 'cancelled');
    await heard;
    const { toolCalls } = await host.core.api.getConversation({ conversationId });
    assert.equal(toolCalls[0]?.status, 'cancelled');
  });
});

for (const era of ['2025', '2026-07-28'] as const) {
  describe(`structured content and the tool's output schema (${era} server)`, () => {
    test('spec 003 (outputSchema and structuredContent): each call keeps the output schema it was checked against; content that breaks it is a failed call that says so', async () => {
      const { host, llm } = await chatHost(
        'anthropic',
        [
          {
            toolCalls: [
              { id: 'call_kept', name: 'weather__forecast', input: { city: 'Lisbon' } },
              { id: 'call_broken', name: 'weather__wrong_forecast', input: { city: 'Lisbon' } },
              { id: 'call_plain', name: 'weather__plain_forecast', input: { city: 'Lisbon' } },
            ],
          },
          { text: 'Checked.' },
        ],
        { weather: fixtureCommand('structuredWeatherServer', era === '2025' ? ['--legacy'] : []) },
        { approvalMode: 'all' },
      );
      assert.equal(host.core.hub.get('weather').snapshot.era, era === '2025' ? 'legacy' : 'modern', 'the server speaks the era under test');
      const { conversationId } = await host.core.api.sendMessage({ text: 'the weather in Lisbon' });
      const calls = new Map((await host.core.api.getConversation({ conversationId })).toolCalls.map((c) => [c['id'], c]));
      const declared = calls.get('call_kept')?.['outputSchema'] as { declared: boolean; schema?: { required?: string[] } };
      assert.deepEqual([calls.get('call_kept')?.['status'], declared.declared, declared.schema?.required], ['done', true, ['temperature', 'conditions']]);
      assert.deepEqual([calls.get('call_plain')?.['status'], calls.get('call_plain')?.['outputSchema']], ['done', { declared: false }]);
      const broken = calls.get('call_broken');
      assert.equal(broken?.['status'], 'error');
      const error = String((broken?.['result'] as { error?: string }).error);
      assert.match(error, /^weather: structuredContent of tool "wrong_forecast" does not match its outputSchema: .*temperature must be number/);
      assert.doesNotMatch(error, /the server answered with an error/, 'the server did not fail: Atrium refused what it sent');
      assert.match(bodyOf(llm, 1), /The tool call failed: [^}]*does not match [^}]*output ?schema/i, 'the model is told why');
    });
  });
}

describe('a first session', () => {
  async function firstSessionHost(script: FakeTurn[], models: string[]): Promise<{ host: TestHost; llm: FakeLlmServer }> {
    const llm = await startFakeAnthropic(script, { models });
    // As a provider added in Settings is: no default model, no models of its own.
    return hostOver(llm, 'anthropic', { echo: { ...fixtureCommand('echoServer'), trusted: true } }, { approvalMode: 'all', samplingPolicy: 'approve' });
  }
  const modelsAsked = (llm: FakeLlmServer) => llm.requests.filter((r) => r.method === 'POST').map((r) => (r.body as { model: string }).model);

  test('a turn the provider refuses is announced as done (stopped by an error); the request succeeds and the conversation says why', async () => {
    const { host } = await firstSessionHost([{ error: { status: 401, message: 'invalid x-api-key' } }], ['m-1']);
    const done = nextEvent(host.core, 'chatEvent', ({ event }) => event.type === 'done');
    const reply = await host.core.api.sendMessage({ text: 'hello' });
    assert.equal(reply.stopReason, 'error');
    assert.deepEqual((await done).event, { type: 'done', stopReason: 'error', usage: { inputTokens: 0, outputTokens: 0 } });
    const { messages } = await host.core.api.getConversation({ conversationId: reply.conversationId });
    assert.equal(messages.at(-1)?.status, 'error');
    assert.match(String(messages.at(-1)?.error), /rejected the API key/);
  });

  test("with no default model, messages and a server's sampling use the conversation's model; a new conversation the provider's first", async () => {
    const { host, llm } = await firstSessionHost(
      [{ toolCalls: [{ name: 'echo__sample', input: { prompt: 'say hi' } }] }, { text: 'sampled' }, { text: 'done' }, { text: 'again' }, { text: 'second conversation' }],
      ['m-1', 'm-2'],
    );
    const providers = await host.core.api.listProviders({});
    assert.deepEqual(providers.map((p) => [p.id, p.defaultModel, p.isDefault]), [['fake', 'm-1', true]], 'the host names the model a message uses');
    const first = await host.core.api.sendMessage({ text: 'use sampling', provider: 'fake', model: 'm-2' });
    assert.equal(first.stopReason, 'end_turn');
    await host.core.api.sendMessage({ conversationId: first.conversationId, text: 'and again' });
    assert.deepEqual(modelsAsked(llm), ['m-2', 'm-2', 'm-2', 'm-2'], 'the turn, the sampling, the turn again and the next message');
    const second = await host.core.api.sendMessage({ text: 'a new conversation' });
    assert.notEqual(second.conversationId, first.conversationId);
    assert.equal(modelsAsked(llm).at(-1), 'm-1');
  });
});
