// The Anthropic provider with the real @anthropic-ai/sdk client against a scripted fake of the Messages
// API that streams Anthropic's SSE wire format: what the SDK sends is checked on the fake's side, what
// the provider makes of the stream on ours.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import Anthropic from '@anthropic-ai/sdk';
import type { FakeLlmServer, RecordedRequest } from '../../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { LlmError } from '../llmTypes.ts';
import type { ModelStreamEvent, ModelTool, ProviderConfig } from '../llmTypes.ts';
import { createAnthropicProvider } from './anthropicProvider.ts';
import { ProviderKeys } from '../providerKeys.ts';
import type { AnthropicProviderOptions } from './anthropicProvider.ts';
import { closedPort, collect, collectAbortingAtFirstText, fakeStarter, ofType, requestsTo, secrets, turnFor, userSays } from '../../../e2e/fixtures/llm/providerTestKit.ts';
import type { ChatMessage } from '../../../shared/conversation.ts';

const KEY = 'sk-ant-test-7f3a9c2e5b1d4086';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const fake = fakeStarter(startFakeAnthropic);

function provider(url: string, config: Partial<ProviderConfig> = {}, options: AnthropicProviderOptions = { maxRetries: 0 }) {
  return createAnthropicProvider({ id: 'claude', kind: 'anthropic', baseUrl: url, apiKeySecret: 'anthropic', ...config }, secrets({ anthropic: KEY }), options);
}

const turn = turnFor('claude-fake-1');

const messagesRequests = (server: FakeLlmServer): RecordedRequest[] => requestsTo(server, '/v1/messages');

interface SentBody {
  model: string;
  max_tokens: number;
  stream: boolean;
  system?: string;
  messages: { role: string; content: Record<string, unknown>[] }[];
  tools?: { name: string; description?: string; input_schema: Record<string, unknown> }[];
}
const bodyOf = (request: RecordedRequest | undefined) => request?.body as SentBody;

describe('Anthropic provider over the Messages API', () => {
  test('streamed text arrives in several deltas, assembles to the whole reply, and ends with end_turn and usage', async () => {
    const server = await fake([{ text: 'Hello there, how can I help you today?', usage: { input: 21, output: 9 } }]);
    const events = await collect(provider(server.url).stream(turn([userSays('hi')], { system: 'Be brief.' })));
    const deltas = ofType(events, 'text_delta');
    assert.ok(deltas.length > 1, 'the text came in pieces');
    assert.equal(deltas.map((d) => d.text).join(''), 'Hello there, how can I help you today?');
    assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'end_turn', usage: { inputTokens: 21, outputTokens: 9 } });

    const [sent] = messagesRequests(server);
    assert.equal(sent?.headers.authorization, `Bearer ${KEY}`, 'the configured key, from the secrets source');
    assert.ok(sent?.headers['anthropic-version'], 'the SDK sends its API version');
    // Prompt caching asked for: the API marks the request's last block, so the next turn reads up to it.
    assert.deepEqual(bodyOf(sent), { model: 'claude-fake-1', max_tokens: 1024, messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }], stream: true, system: 'Be brief.', cache_control: { type: 'ephemeral' } });
  });

  test('a tool call streamed as input_json_delta pieces arrives whole, with parsed input and stop reason tool_use', async () => {
    const input = { city: 'Lisbon', days: 3, options: { units: 'metric', hourly: [6, 12, 18] } };
    const server = await fake([{ text: 'Let me check.', toolCalls: [{ id: 'toolu_01', name: 'weather__forecast', input }] }]);
    const events = await collect(provider(server.url).stream(turn([userSays('weather?')])));

    const pieces = ofType(events, 'tool_call_delta');
    assert.ok(pieces.length > 1, 'the arguments came in pieces');
    assert.ok(pieces.every((p) => p.id === 'toolu_01' && p.name === 'weather__forecast'));
    assert.deepEqual(JSON.parse(pieces.map((p) => p.partialJson).join('')), input);
    assert.deepEqual(ofType(events, 'tool_call'), [{ type: 'tool_call', id: 'toolu_01', name: 'weather__forecast', input }]);
    assert.equal(events.findIndex((e) => e.type === 'tool_call'), events.length - 2, 'the whole call comes after its pieces, before done');
    assert.equal(ofType(events, 'done')[0]?.stopReason, 'tool_use');
  });

  test('a multi-turn exchange round-trips tool_use and tool_result ids, with is_error kept', async () => {
    const server = await fake([{ toolCalls: [{ id: 'toolu_abc', name: 'fs__read', input: { path: '/tmp/x' } }] }, { text: 'The file is missing.' }]);
    const claude = provider(server.url);
    const history: ChatMessage[] = [userSays('read /tmp/x')];
    const first = await collect(claude.stream(turn(history)));
    const call = ofType(first, 'tool_call')[0];
    assert.ok(call);
    history.push({ role: 'assistant', content: [{ type: 'tool_use', id: call.id, name: call.name, input: call.input }] });
    history.push({ role: 'user', content: [{ type: 'tool_result', toolUseId: call.id, content: [{ type: 'text', text: 'ENOENT: no such file' }], isError: true }] });
    const second = await collect(claude.stream(turn(history)));
    assert.equal(ofType(second, 'text_delta').map((d) => d.text).join(''), 'The file is missing.');

    assert.deepEqual(bodyOf(messagesRequests(server)[1]).messages, [
      { role: 'user', content: [{ type: 'text', text: 'read /tmp/x' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_abc', name: 'fs__read', input: { path: '/tmp/x' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_abc', content: [{ type: 'text', text: 'ENOENT: no such file' }], is_error: true }] },
    ]);
  });

  test('a tool JSON Schema with $ref/$defs, prefixItems and unevaluatedProperties reaches the server byte for byte, with no notice', async () => {
    const inputSchema = {
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
    const tool: ModelTool = { name: 'geo__distance', description: 'Distance between two points', inputSchema };
    const server = await fake([{ text: 'ok' }]);
    const events = await collect(provider(server.url).stream(turn([userSays('how far?')], { tools: [tool] })));

    assert.deepEqual(ofType(events, 'notice'), []);
    const [sent] = messagesRequests(server);
    assert.ok(sent?.rawBody.includes(`"input_schema":${JSON.stringify(inputSchema)}`), 'the schema as serialised, key order included');
    assert.deepEqual(bodyOf(sent).tools, [{ name: 'geo__distance', description: 'Distance between two points', input_schema: inputSchema }]);
  });

  test('a schema without a top-level type gets "type": "object", which the API requires, and a notice says so', async () => {
    const server = await fake([{ text: 'ok' }]);
    const tool: ModelTool = { name: 'misc__ping', inputSchema: { properties: { host: { type: 'string' } } } };
    const events = await collect(provider(server.url).stream(turn([userSays('ping')], { tools: [tool] })));
    assert.match(ofType(events, 'notice')[0]?.message ?? '', /misc__ping.*"type": "object"/);
    assert.deepEqual(bodyOf(messagesRequests(server)[0]).tools?.[0]?.input_schema, { type: 'object', properties: { host: { type: 'string' } } });
  });

  test('images go in as base64 image blocks, in user content and inside tool results; an unsupported type becomes a note and a notice', async () => {
    const server = await fake([{ text: 'A red dot.' }]);
    const history: ChatMessage[] = [
      { role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image', mimeType: 'image/png', data: PNG }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_shot', name: 'screen__shot', input: {} }] },
      {
        role: 'user',
        content: [
          { type: 'tool_result', toolUseId: 'toolu_shot', content: [{ type: 'text', text: 'captured' }, { type: 'image', mimeType: 'image/png', data: PNG }] },
          { type: 'image', mimeType: 'image/bmp', data: 'Qk0=' },
        ],
      },
    ];
    const events = await collect(provider(server.url).stream(turn(history)));
    assert.match(ofType(events, 'notice')[0]?.message ?? '', /image\/bmp/);
    const image = { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } };
    const messages = bodyOf(messagesRequests(server)[0]).messages;
    assert.deepEqual(messages[0]?.content[1], image);
    assert.deepEqual(messages[2]?.content, [
      { type: 'tool_result', tool_use_id: 'toolu_shot', content: [{ type: 'text', text: 'captured' }, image] },
      { type: 'text', text: '[An image of type image/bmp was left out: this model accepts only JPEG, PNG, GIF and WebP.]' },
    ]);
  });

  test('stop reasons map: max_tokens stays max_tokens, refusal stays refusal', async () => {
    const server = await fake([{ text: 'Once upon a', stopReason: 'max_tokens' }, { text: 'I cannot help with that.', stopReason: 'refusal' }]);
    const claude = provider(server.url);
    assert.equal(ofType(await collect(claude.stream(turn([userSays('story')]))), 'done')[0]?.stopReason, 'max_tokens');
    assert.equal(ofType(await collect(claude.stream(turn([userSays('bad')]))), 'done')[0]?.stopReason, 'refusal');
  });

  test('aborting mid-stream ends the turn promptly with done "cancelled" instead of an error', async () => {
    const server = await fake([{ hang: true, text: 'Thinking about' }]);
    const { events, abortedAt } = await collectAbortingAtFirstText((signal) => provider(server.url).stream(turn([userSays('think hard')], { signal })));
    assert.ok(performance.now() - abortedAt < 1000, 'ended within a second of the abort');
    assert.deepEqual(ofType(events, 'text_delta'), [{ type: 'text_delta', text: 'Thinking about' }]);
    assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'cancelled', usage: { inputTokens: 10, outputTokens: 1 } });
  });

  test('a signal aborted before the turn starts ends at once with "cancelled" and sends nothing', async () => {
    const server = await fake([{ text: 'never' }]);
    const events = await collect(provider(server.url).stream(turn([userSays('hi')], { signal: AbortSignal.abort() })));
    assert.deepEqual(events, [{ type: 'done', stopReason: 'cancelled', usage: { inputTokens: 0, outputTokens: 0 } }]);
    assert.equal(messagesRequests(server).length, 0);
  });

  test('a 401 becomes an LlmError naming the provider and the secret, without the key even when the server echoes it', async () => {
    const server = await fake([{ error: { status: 401, message: `invalid x-api-key: ${KEY}` } }]);
    const error = await collect(provider(server.url).stream(turn([userSays('hi')]))).then(
      () => assert.fail('expected a rejection'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof LlmError);
    assert.equal(error.status, 401);
    assert.equal(error.providerId, 'claude');
    assert.match(error.message, /Anthropic provider "claude" rejected the API key \(HTTP 401\).*"anthropic"/);
    assert.ok(!error.message.includes(KEY) && !String(error.stack).includes(KEY) && error.cause === undefined, 'the key appears nowhere in the error');
  });

  test('a 404 names the unknown model', async () => {
    const server = await fake([{ error: { status: 404, message: 'model: claude-nope' } }]);
    await assert.rejects(collect(provider(server.url).stream(turn([userSays('hi')], { model: 'claude-nope' }))), (e: unknown) => {
      assert.ok(e instanceof LlmError);
      assert.match(e.message, /does not know model "claude-nope" \(HTTP 404\)/);
      return true;
    });
  });

  test('a missing key rejects with an LlmError that says which secret to set, and nothing is sent', async () => {
    const server = await fake([{ text: 'never' }]);
    // Anthropic's own API (no base URL): a proxy at another address is asked without a key.
    const claude = createAnthropicProvider({ id: 'claude', kind: 'anthropic', apiKeySecret: 'anthropic' }, secrets({}));
    await assert.rejects(collect(claude.stream(turn([userSays('hi')]))), (e: unknown) => {
      assert.ok(e instanceof LlmError);
      assert.match(e.message, /^no API key for provider claude: set the secret "anthropic" \(for the CLI, the environment variable ANTHROPIC_API_KEY or ATRIUM_SECRET_ANTHROPIC\)/);
      return true;
    });
    assert.equal(server.requests.length, 0);
  });

  test('a missing key is said where the person gives one: Settings in the window, the environment on the command line', async () => {
    const server = await fake([{ text: 'never' }]);
    const config = { id: 'work', kind: 'anthropic' as const, apiKeySecret: 'work' };
    const store = { get: async () => undefined, set: async () => undefined, delete: async () => undefined, names: async () => [] };
    const inWindow = createAnthropicProvider(config, new ProviderKeys(secrets({}), store).sourceFor(config));
    await assert.rejects(collect(inWindow.stream(turn([userSays('hi')]))), { message: 'no API key for provider work: give it its key in Settings › Model providers.' });
    const onCommandLine = createAnthropicProvider(config, new ProviderKeys(secrets({})).sourceFor(config));
    await assert.rejects(collect(onCommandLine.stream(turn([userSays('hi')]))), { message: 'no API key for provider work: set the environment variable ATRIUM_SECRET_WORK, or give it in a --secrets file.' });
    assert.equal(server.requests.length, 0);
  });

  test('a refused connection becomes "cannot reach <baseURL>"', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    await assert.rejects(collect(provider(url).stream(turn([userSays('hi')]))), (e: unknown) => {
      assert.ok(e instanceof LlmError);
      assert.equal(e.message, `Anthropic provider "claude": cannot reach ${url} (connection refused). Check the address and your network.`);
      return true;
    });
  });

  test('a transient 529 is retried by the SDK before any output, and the turn then succeeds', async () => {
    const server = await fake([{ error: { status: 529, message: 'Overloaded', retryAfterMs: 1 } }, { text: 'ok now' }]);
    const events = await collect(provider(server.url, {}, {}).stream(turn([userSays('hi')])));
    assert.equal(ofType(events, 'text_delta').map((d) => d.text).join(''), 'ok now');
    assert.equal(messagesRequests(server).length, 2);
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

  test('listModels reads GET /v1/models', async () => {
    const server = await fake([], { models: ['claude-a', 'claude-b'] });
    assert.deepEqual(await provider(server.url).listModels(), ['claude-a', 'claude-b']);
    assert.equal(server.requests[0]?.headers.authorization, `Bearer ${KEY}`);
  });

  test('listModels falls back to the configured models when the API cannot list them', async () => {
    const url = `http://127.0.0.1:${await closedPort()}`;
    assert.deepEqual(await provider(url, { models: ['claude-configured'] }).listModels(), ['claude-configured']);
    await assert.rejects(provider(url).listModels(), /cannot reach/);
  });

  test('the fake answers a non-streaming request with one whole message, and says so when its script runs out', async () => {
    const server = await fake([{ text: 'whole', toolCalls: [{ id: 'toolu_1', name: 't', input: { a: 1 } }] }]);
    const client = new Anthropic({ apiKey: KEY, baseURL: server.url, maxRetries: 0, logLevel: 'off' });
    const message = await client.messages.create({ model: 'claude-fake-1', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(message.stop_reason, 'tool_use');
    assert.deepEqual(
      message.content.map((b) => b.type),
      ['text', 'tool_use'],
    );
    await assert.rejects(client.messages.create({ model: 'claude-fake-1', max_tokens: 10, messages: [{ role: 'user', content: 'again' }] }), /script has no turn left for request 2/);
  });
});
