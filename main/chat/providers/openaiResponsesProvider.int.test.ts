// The Responses API provider with the real `openai` client against a scripted fake that streams the
// Responses API's typed SSE events: text, function calls, generated images, usage and stop reasons on
// our side; what the SDK sent (input items, tools, images in tool results) on the fake's side.

import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RecordedRequest } from '../../../e2e/fixtures/llm/fakeServerBase.ts';
import { startFakeOpenAiResponses } from '../../../e2e/fixtures/llm/fakeOpenAiResponsesServer.ts';
import { LlmError } from '../llmTypes.ts';
import type { ModelTool, ProviderConfig } from '../llmTypes.ts';
import { createProvider } from './createProvider.ts';
import { collect, collectAbortingAtFirstText, fakeStarter, ofType, requestsTo, secrets, turnFor, userSays } from '../../../e2e/fixtures/llm/providerTestKit.ts';
import type { ChatMessage } from '../../../shared/conversation.ts';

const KEY = 'sk-proj-responses-test-7e2a91c4';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const fake = fakeStarter(startFakeOpenAiResponses);
const turn = turnFor('gpt-fake-1');

function provider(url: string, config: Partial<ProviderConfig> = {}) {
  return createProvider({ id: 'resp', kind: 'openai-responses', baseUrl: url, apiKeySecret: 'openai', ...config }, secrets({ openai: KEY }), { maxRetries: 0 });
}

interface SentBody {
  model: string;
  input: Record<string, unknown>[];
  instructions?: string;
  max_output_tokens: number;
  store: boolean;
  stream: boolean;
  tools?: Record<string, unknown>[];
}
const sent = (requests: RecordedRequest[], index = 0) => requests[index]?.body as SentBody;

const lookup: ModelTool = {
  name: 'docs__lookup',
  description: 'Looks a word up.',
  inputSchema: { type: 'object', properties: { word: { type: 'string' } }, required: ['word'], $defs: { x: { type: 'string' } } },
};

describe('OpenAI provider over the Responses API', () => {
  test('streamed text arrives in pieces and ends with end_turn and the usage; the request carries instructions and nothing stored', async () => {
    const server = await fake([{ text: 'Hello from the Responses API.', usage: { input: 21, output: 8 } }]);
    const events = await collect(provider(server.url).stream(turn([userSays('hi')], { system: 'Be brief.' })));
    const deltas = ofType(events, 'text_delta');
    assert.ok(deltas.length > 1);
    assert.equal(deltas.map((d) => d.text).join(''), 'Hello from the Responses API.');
    assert.deepEqual(events.at(-1), { type: 'done', stopReason: 'end_turn', usage: { inputTokens: 21, outputTokens: 8 } });
    const [request] = requestsTo(server, '/v1/responses');
    assert.equal(request?.headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual(sent([request as RecordedRequest]), {
      model: 'gpt-fake-1',
      input: [{ role: 'user', content: [{ type: 'input_text', text: 'hi' }] }],
      instructions: 'Be brief.',
      max_output_tokens: 1024,
      store: false,
      stream: true,
    });
  });

  test('a function call streams in pieces and arrives whole; its schema goes intact and never strict', async () => {
    const server = await fake([{ toolCalls: [{ id: 'call_9', name: 'docs__lookup', input: { word: 'atrium' } }] }]);
    const events = await collect(provider(server.url).stream(turn([userSays('define atrium')], { tools: [lookup] })));
    assert.ok(ofType(events, 'tool_call_delta').length > 1);
    assert.deepEqual(ofType(events, 'tool_call'), [{ type: 'tool_call', id: 'call_9', name: 'docs__lookup', input: { word: 'atrium' } }]);
    assert.equal((events.at(-1) as { stopReason?: string }).stopReason, 'tool_use');
    assert.deepEqual(sent(requestsTo(server, '/v1/responses')).tools, [
      { type: 'function', name: 'docs__lookup', parameters: lookup.inputSchema, strict: false, description: 'Looks a word up.' },
    ]);
  });

  test('tool calls and results go back as function_call and function_call_output items, images in results included', async () => {
    const server = await fake([{ text: 'It is a hall.' }]);
    const history: ChatMessage[] = [
      userSays('define atrium'),
      { role: 'assistant', content: [{ type: 'text', text: 'Looking it up.' }, { type: 'tool_use', id: 'call_9', name: 'docs__lookup', input: { word: 'atrium' } }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'call_9', content: [{ type: 'text', text: 'a central hall' }, { type: 'image', mimeType: 'image/png', data: PNG }] }] },
    ];
    await collect(provider(server.url).stream(turn(history, { tools: [lookup] })));
    assert.deepEqual(sent(requestsTo(server, '/v1/responses')).input, [
      { role: 'user', content: [{ type: 'input_text', text: 'define atrium' }] },
      { role: 'assistant', content: 'Looking it up.' },
      { type: 'function_call', call_id: 'call_9', name: 'docs__lookup', arguments: '{"word":"atrium"}' },
      {
        type: 'function_call_output',
        call_id: 'call_9',
        output: [
          { type: 'input_text', text: 'a central hall' },
          { type: 'input_image', detail: 'auto', image_url: `data:image/png;base64,${PNG}` },
        ],
      },
    ]);
  });

  test('images out: with image generation on, the tool is offered and a generated image arrives whole', async () => {
    const server = await fake([{ text: 'Here is your picture.', images: [{ format: 'png', data: PNG }] }]);
    const events = await collect(provider(server.url, { imageGeneration: true }).stream(turn([userSays('draw a dot')])));
    assert.deepEqual(ofType(events, 'image'), [{ type: 'image', mimeType: 'image/png', data: PNG }]);
    assert.deepEqual(sent(requestsTo(server, '/v1/responses')).tools, [{ type: 'image_generation' }]);
    const plain = await fake([{ text: 'ok' }]);
    await collect(provider(plain.url).stream(turn([userSays('hi')])));
    assert.equal(sent(requestsTo(plain, '/v1/responses')).tools, undefined, 'not offered unless the person turned it on');
  });

  test('a reply cut at the token limit ends with max_tokens; cancelling mid-stream ends cancelled', async () => {
    const server = await fake([{ text: 'This goes on and', stopReason: 'max_output_tokens' }, { hang: true, text: 'Thinking' }]);
    const capped = await collect(provider(server.url).stream(turn([userSays('go on')])));
    assert.equal((capped.at(-1) as { stopReason: string }).stopReason, 'max_tokens');
    const { events } = await collectAbortingAtFirstText((signal) => provider(server.url).stream(turn([userSays('think')], { signal })));
    assert.equal((events.at(-1) as { stopReason: string }).stopReason, 'cancelled');
  });

  test('a wrong key is an LlmError that names the secret and never quotes the key', async () => {
    const server = await fake([{ error: { status: 401, message: `Incorrect API key provided: ${KEY}` } }]);
    await assert.rejects(collect(provider(server.url).stream(turn([userSays('hi')]))), (error: Error) => {
      assert.ok(error instanceof LlmError);
      assert.doesNotMatch(error.message, new RegExp(KEY));
      assert.match(error.message, /openai/);
      return true;
    });
  });
});
