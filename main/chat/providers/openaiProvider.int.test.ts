// The OpenAI and OpenAI-compatible providers with the real `openai` client against a scripted fake of
// Chat Completions that streams chat.completion.chunk SSE lines: what the SDK sends is checked on the
// fake's side, what the provider makes of the stream on ours.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import OpenAI from 'openai';
import type { FakeLlmServer, RecordedRequest } from '../../../e2e/fixtures/llm/fakeOpenAiServer.ts';
import { startFakeOpenAi } from '../../../e2e/fixtures/llm/fakeOpenAiServer.ts';
import { LlmError } from '../llmTypes.ts';
import type { ModelStreamEvent, ModelTool, ProviderConfig } from '../llmTypes.ts';
import { createProvider } from './createProvider.ts';
import { createOpenAiProvider } from './openaiProvider.ts';
import type { OpenAiProviderOptions } from './openaiProvider.ts';
import { closedPort, collect, collectAbortingAtFirstText, fakeStarter, ofType, requestsTo, secrets, turnFor, userSays } from '../../../e2e/fixtures/llm/providerTestKit.ts';
import type { ChatMessage } from '../../../shared/conversation.ts';

const KEY = 'sk-proj-test-4c1e8b7a2f9d0635';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const fake = fakeStarter(startFakeOpenAi);

function provider(url: string, config: Partial<ProviderConfig> = {}, options: OpenAiProviderOptions = { maxRetries: 0 }) {
  return createOpenAiProvider({ id: 'gpt', kind: 'openai', baseUrl: url, apiKeySecret: 'openai', ...config }, secrets({ openai: KEY }), options);
}

const turn = turnFor('gpt-fake-1');

const completionRequests = (server: FakeLlmServer): RecordedRequest[] => requestsTo(server, '/v1/chat/completions');

interface SentBody {
  model: string;
  messages: Record<string, unknown>[];
  stream: boolean;
  stream_options?: { include_usage?: boolean };
  max_tokens?: number;
  max_completion_tokens?: number;
  tools?: { type: string; function: { name: string; description?: string; parameters: Record<string, unknown>; strict?: boolean } }[];
}
const bodyOf = (request: RecordedRequest | undefined) => request?.body as SentBody;

describe('OpenAI provider over Chat Completions', () => {
  test('streamed text arrives in several deltas, assembles to the whole reply, and ends with end_turn and the usage chunk', async () => {
    const server = await fake([{ text: 'Hello there, how can I help you today?', usage: { input: 17, output: 11 } }]);
    const events = await collect(provider(server.url).stream(turn([userSays('hi')], { system: 'Be brief.' })));
    const deltas = ofType(events, 'text_delta');
    assert.ok(deltas.length > 1, 'the text came in pieces');
    assert.equal(deltas.map((d) => d.text).join(''), 'Hello there, how can I help you today?');
    assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'end_turn', usage: { inputTokens: 17, outputTokens: 11 } });

    const [sent] = completionRequests(server);
    assert.equal(sent?.headers.authorization, `Bearer ${KEY}`, 'the configured key, from the secrets source');
    assert.equal(sent?.headers['openai-organization'], undefined);
    assert.deepEqual(bodyOf(sent), {
      model: 'gpt-fake-1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'hi' },
      ],
      stream: true,
      stream_options: { include_usage: true },
      max_completion_tokens: 1024,
    });
  });

  test('a tool call streamed by index in pieces arrives whole, with parsed input and stop reason tool_use', async () => {
    const forecast = { city: 'Lisbon', days: 3, options: { units: 'metric', hourly: [6, 12, 18] } };
    const server = await fake([
      {
        text: 'Checking both.',
        toolCalls: [
          { id: 'call_1', name: 'weather__forecast', input: forecast },
          { id: 'call_2', name: 'clock__now', input: {} },
        ],
      },
    ]);
    const events = await collect(provider(server.url).stream(turn([userSays('weather?')])));

    const pieces = ofType(events, 'tool_call_delta').filter((p) => p.id === 'call_1');
    assert.ok(pieces.length > 1, 'the arguments came in pieces');
    assert.ok(pieces.every((p) => p.name === 'weather__forecast'));
    assert.deepEqual(JSON.parse(pieces.map((p) => p.partialJson).join('')), forecast);
    assert.deepEqual(ofType(events, 'tool_call'), [
      { type: 'tool_call', id: 'call_1', name: 'weather__forecast', input: forecast },
      { type: 'tool_call', id: 'call_2', name: 'clock__now', input: {} },
    ]);
    assert.equal(ofType(events, 'done')[0]?.stopReason, 'tool_use');
  });

  test('a multi-turn exchange round-trips tool call ids: assistant tool_calls, then role "tool" messages (errors marked in the text)', async () => {
    const server = await fake([{ toolCalls: [{ id: 'call_abc', name: 'fs__read', input: { path: '/tmp/x' } }] }, { text: 'The file is missing.' }]);
    const gpt = provider(server.url);
    const history: ChatMessage[] = [userSays('read /tmp/x')];
    const call = ofType(await collect(gpt.stream(turn(history))), 'tool_call')[0];
    assert.ok(call);
    history.push({ role: 'assistant', content: [{ type: 'text', text: 'Reading.' }, { type: 'tool_use', id: call.id, name: call.name, input: call.input }] });
    history.push({ role: 'user', content: [{ type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text: 'ENOENT: no such file' }], isError: true }] });
    const second = await collect(gpt.stream(turn(history)));
    assert.equal(ofType(second, 'text_delta').map((d) => d.text).join(''), 'The file is missing.');

    assert.deepEqual(bodyOf(completionRequests(server)[1]).messages, [
      { role: 'user', content: 'read /tmp/x' },
      { role: 'assistant', content: 'Reading.', tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'fs__read', arguments: '{"path":"/tmp/x"}' } }] },
      { role: 'tool', tool_call_id: 'call_abc', content: '[The tool reported an error]\nENOENT: no such file' },
    ]);
  });

  test('a tool JSON Schema with $ref/$defs, prefixItems and unevaluatedProperties reaches the server byte for byte, not in strict mode, with no notice', async () => {
    const parameters = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: { point: { type: 'object', properties: { x: { type: 'number' }, y: { type: 'number' } }, required: ['x', 'y'] } },
      properties: {
        from: { $ref: '#/$defs/point' },
        to: { $ref: '#/$defs/point' },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'integer', minimum: 0 }], items: false },
      },
      required: ['from', 'to'],
      unevaluatedProperties: false,
      dependentRequired: { to: ['from'] },
    };
    const tool: ModelTool = { name: 'geo__distance', description: 'Distance between two points', inputSchema: parameters };
    const server = await fake([{ text: 'ok' }]);
    const events = await collect(provider(server.url).stream(turn([userSays('how far?')], { tools: [tool] })));

    assert.deepEqual(ofType(events, 'notice'), []);
    const [sent] = completionRequests(server);
    assert.ok(sent?.rawBody.includes(`"parameters":${JSON.stringify(parameters)}`), 'the schema as serialised, key order included');
    assert.deepEqual(bodyOf(sent).tools, [{ type: 'function', function: { name: 'geo__distance', description: 'Distance between two points', parameters } }]);
  });

  test('function parameters must be an object schema: a missing type is added, and for OpenAI a missing properties too, each with a notice', async () => {
    const server = await fake([{ text: 'ok' }, { text: 'ok' }]);
    const tools: ModelTool[] = [
      { name: 'misc__ping', inputSchema: { properties: { host: { type: 'string' } } } },
      { name: 'misc__now', inputSchema: { type: 'object' } },
    ];
    const events = await collect(provider(server.url).stream(turn([userSays('ping')], { tools })));
    const notices = ofType(events, 'notice').map((n) => n.message);
    assert.equal(notices.length, 2);
    assert.match(notices[0] ?? '', /^Tool "misc__ping": its input schema has no top-level "type"; added "type": "object"/);
    assert.match(notices[1] ?? '', /^Tool "misc__now": its input schema has no "properties"; added an empty one/);
    assert.deepEqual(
      bodyOf(completionRequests(server)[0]).tools?.map((t) => t.function.parameters),
      [{ type: 'object', properties: { host: { type: 'string' } } }, { type: 'object', properties: {} }],
    );

    // A compatible server gets the object without an invented `properties`.
    const local = provider(server.url, { kind: 'openai-compatible', apiKeySecret: undefined });
    const localEvents = await collect(local.stream(turn([userSays('ping')], { tools: [tools[1] as ModelTool] })));
    assert.deepEqual(ofType(localEvents, 'notice'), []);
    assert.deepEqual(bodyOf(completionRequests(server)[1]).tools?.[0]?.function.parameters, { type: 'object' });
  });

  test('images go in as data URLs; images a tool returned follow the tool messages in a user message, with a notice', async () => {
    const server = await fake([{ text: 'A red dot.' }]);
    const history: ChatMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image', mimeType: 'image/png', data: PNG }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_shot', name: 'screen__shot', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_shot', content: [{ type: 'text', text: 'captured' }, { type: 'image', mimeType: 'image/png', data: PNG }] }] },
    ];
    const events = await collect(provider(server.url).stream(turn(history)));
    assert.match(ofType(events, 'notice')[0]?.message ?? '', /call_shot returned 1 image\(s\); Chat Completions tool messages take only text/);
    const image = { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } };
    assert.deepEqual(bodyOf(completionRequests(server)[0]).messages, [
      { role: 'user', content: [{ type: 'text', text: 'what is this?' }, image] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_shot', type: 'function', function: { name: 'screen__shot', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_shot', content: 'captured\n[The image this tool returned follows in the next user message.]' },
      { role: 'user', content: [{ type: 'text', text: 'Image returned by tool call call_shot:' }, image] },
    ]);
  });

  test('finish reasons map: length is max_tokens, content_filter is refusal, and "stop" after tool calls is still tool_use', async () => {
    const server = await fake([
      { text: 'Once upon a', stopReason: 'length' },
      { text: 'No.', stopReason: 'content_filter' },
      { toolCalls: [{ name: 'clock__now', input: {} }], stopReason: 'stop' },
    ]);
    const gpt = provider(server.url);
    const stop = async () => ofType(await collect(gpt.stream(turn([userSays('go')]))), 'done')[0]?.stopReason;
    assert.equal(await stop(), 'max_tokens');
    assert.equal(await stop(), 'refusal');
    assert.equal(await stop(), 'tool_use');
  });

  test('aborting mid-stream ends the turn promptly with done "cancelled" instead of an error', async () => {
    const server = await fake([{ hang: true, text: 'Thinking about' }]);
    const { events, abortedAt } = await collectAbortingAtFirstText((signal) => provider(server.url).stream(turn([userSays('think hard')], { signal })));
    assert.ok(performance.now() - abortedAt < 1000, 'ended within a second of the abort');
    assert.deepEqual(ofType(events, 'text_delta'), [{ type: 'text_delta', text: 'Thinking about' }]);
    assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'cancelled', usage: { inputTokens: 0, outputTokens: 0 } });
  });

  test('a 401 becomes an LlmError naming the provider and the secret, without the key even when the server echoes it', async () => {
    const server = await fake([{ error: { status: 401, message: `Incorrect API key provided: ${KEY}.` } }]);
    const error = await collect(provider(server.url).stream(turn([userSays('hi')]))).then(
      () => assert.fail('expected a rejection'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof LlmError);
    assert.equal(error.status, 401);
    assert.equal(error.providerId, 'gpt');
    assert.match(error.message, /OpenAI provider "gpt" rejected the API key \(HTTP 401\).*"openai"/);
    assert.ok(!error.message.includes(KEY) && !String(error.stack).includes(KEY) && error.cause === undefined, 'the key appears nowhere in the error');
  });

  test('a 404 names the unknown model and, for a compatible server, asks about the /v1 path', async () => {
    const server = await fake([{ error: { status: 404, message: 'model "llama9" not found, try pulling it first' } }]);
    const local = provider(server.url, { id: 'ollama', kind: 'openai-compatible', apiKeySecret: undefined });
    await assert.rejects(collect(local.stream(turn([userSays('hi')], { model: 'llama9' }))), (e: unknown) => {
      assert.ok(e instanceof LlmError);
      assert.match(e.message, /OpenAI-compatible provider "ollama" does not know model "llama9" \(HTTP 404\): model "llama9" not found.*end with the API path/);
      return true;
    });
  });

  test('kind "openai" at OpenAI without a key rejects with an LlmError that says which secret to set; at another address it is asked without one', async () => {
    const gpt = createOpenAiProvider({ id: 'gpt', kind: 'openai', apiKeySecret: 'openai' }, secrets({}));
    await assert.rejects(collect(gpt.stream(turn([userSays('hi')]))), /^LlmError: no API key for provider gpt: set the secret "openai"/);
    const proxy = await fake([{ text: 'through the proxy' }]);
    const proxied = createOpenAiProvider({ id: 'gpt', kind: 'openai', baseUrl: proxy.url, apiKeySecret: 'openai' }, secrets({}), { maxRetries: 0 });
    await collect(proxied.stream(turn([userSays('hi')])));
    assert.equal(proxy.requests.filter((r) => r.method === 'POST').length, 1, 'a proxy that adds the key itself is reached');
  });

  test('an OpenAI-compatible server without a key works: a placeholder key, and the max_tokens field such servers know', async () => {
    const server = await fake([{ text: 'local hello' }], { models: ['llama3.2', 'qwen3'] });
    const local = createProvider({ id: 'ollama', kind: 'openai-compatible', baseUrl: server.url }, secrets({}), { maxRetries: 0 });
    assert.equal(local.kind, 'openai-compatible');
    const events = await collect(local.stream(turn([userSays('hi')], { model: 'llama3.2' })));
    assert.equal(ofType(events, 'text_delta').map((d) => d.text).join(''), 'local hello');
    const [sent] = completionRequests(server);
    assert.equal(sent?.headers.authorization, 'Bearer not-needed');
    assert.equal(bodyOf(sent).max_tokens, 1024);
    assert.equal(bodyOf(sent).max_completion_tokens, undefined);
    assert.deepEqual(await local.listModels(), ['llama3.2', 'qwen3']);
  });

  test('a refused connection becomes "cannot reach <baseURL>"', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const local = provider(url, { id: 'lmstudio', kind: 'openai-compatible' });
    await assert.rejects(collect(local.stream(turn([userSays('hi')]))), (e: unknown) => {
      assert.ok(e instanceof LlmError);
      assert.equal(e.message, `OpenAI-compatible provider "lmstudio": cannot reach ${url} (connection refused). Is the server running?`);
      return true;
    });
  });

  test('a transient 503 is retried by the SDK before any output, and the turn then succeeds', async () => {
    const server = await fake([{ error: { status: 503, message: 'busy', retryAfterMs: 1 } }, { text: 'ok now' }]);
    const events = await collect(provider(server.url, {}, {}).stream(turn([userSays('hi')])));
    assert.equal(ofType(events, 'text_delta').map((d) => d.text).join(''), 'ok now');
    assert.equal(completionRequests(server).length, 2);
  });

  test('tool-call arguments that are not a JSON object reject the turn; no call is emitted', async () => {
    const server = await fake([{ toolCalls: [{ name: 'fs__delete', rawArguments: '{"path": "/tmp/a' }] }]);
    const events: ModelStreamEvent[] = [];
    await assert.rejects(
      (async () => {
        for await (const event of provider(server.url).stream(turn([userSays('clean up')]))) events.push(event);
      })(),
      /called tool "fs__delete" with arguments that are not a JSON object.*the call was not made/,
    );
    assert.deepEqual(ofType(events, 'tool_call'), []);
  });

  test('listModels reads GET /v1/models, and falls back to the configured models when that fails', async () => {
    const server = await fake([], { models: ['gpt-a', 'gpt-b'] });
    assert.deepEqual(await provider(server.url).listModels(), ['gpt-a', 'gpt-b']);
    assert.equal(server.requests[0]?.headers.authorization, `Bearer ${KEY}`);
    const unreachable = `http://127.0.0.1:${await closedPort()}/v1`;
    assert.deepEqual(await provider(unreachable, { models: ['gpt-configured'] }).listModels(), ['gpt-configured']);
  });

  test('the fake answers a non-streaming request with one whole completion, and says so when its script runs out', async () => {
    const server = await fake([{ text: 'whole', toolCalls: [{ id: 'call_1', name: 't', input: { a: 1 } }] }]);
    const client = new OpenAI({ apiKey: KEY, baseURL: server.url, maxRetries: 0, logLevel: 'off' });
    const completion = await client.chat.completions.create({ model: 'gpt-fake-1', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(completion.choices[0]?.finish_reason, 'tool_calls');
    assert.equal(completion.choices[0]?.message.content, 'whole');
    await assert.rejects(client.chat.completions.create({ model: 'gpt-fake-1', messages: [{ role: 'user', content: 'again' }] }), /script has no turn left for request 2/);
  });
});
