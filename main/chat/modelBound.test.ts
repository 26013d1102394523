import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markHidden } from '../../shared/serverText.ts';
import type { LlmProvider, ModelRequest } from './llmTypes.ts';
import { forModel, modelBound } from './modelBound.ts';

const note = (n: number, what: string) => `[Atrium removed ${n} hidden character${n === 1 ? '' : 's'} from this text: ${what}]`;

test('every path to the model is plain: the system prompt, prompts and attachments, tool results, tool definitions', () => {
  const marked = markHidden('invoice\u202Efdp.exe');
  const request: ModelRequest = {
    model: 'm',
    maxTokens: 10,
    system: `Views say: ${marked}`,
    messages: [
      { role: 'user', content: [{ type: 'text', text: `Summarise ${marked}` }, { type: 'image', mimeType: 'image/png', data: 'AAAA' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'srv__tool', input: { name: 'invoice' } }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: marked }] }] },
    ],
    tools: [{ name: 'srv__tool', description: `Finds ${marked}`, inputSchema: { type: 'object', properties: { name: { type: 'string', description: marked, enum: [markHidden('a\u200Bb')] } } } }],
  };
  const plain = forModel(request);
  assert.equal(plain.system, `Views say: invoicefdp.exe ${note(1, 'bidirectional controls')}`);
  assert.deepEqual(plain.messages[0]?.content[0], { type: 'text', text: `Summarise invoicefdp.exe ${note(1, 'bidirectional controls')}` });
  assert.equal(plain.messages[0]?.content[1], request.messages[0]?.content[1], 'an image passes as it was');
  assert.equal(plain.messages[1], request.messages[1], "the model's own call goes back as it made it");
  assert.deepEqual(plain.messages[2]?.content[0], { type: 'tool_result', toolUseId: 't1', content: [{ type: 'text', text: `invoicefdp.exe ${note(1, 'bidirectional controls')}` }] });
  assert.deepEqual(plain.tools[0], {
    name: 'srv__tool',
    description: `Finds invoicefdp.exe ${note(1, 'bidirectional controls')}`,
    inputSchema: { type: 'object', properties: { name: { type: 'string', description: `invoicefdp.exe ${note(1, 'bidirectional controls')}`, enum: ['ab'] } } },
  });
  assert.doesNotMatch(JSON.stringify(plain), /[\u202E\uFDD0\uFDD1]/);
});

test('text that did not come from a server is held to the same rule; a request with nothing hidden is passed on as it is', () => {
  const pasted: ModelRequest = { model: 'm', maxTokens: 10, messages: [{ role: 'user', content: [{ type: 'text', text: `please${'\u{E0041}'.repeat(3)}` }] }], tools: [] };
  assert.deepEqual(forModel(pasted).messages[0]?.content[0], { type: 'text', text: `please ${note(3, 'invisible tag characters')}` });
  const clean: ModelRequest = { model: 'm', maxTokens: 10, system: 'Be brief. 👩\u200D💻', messages: [{ role: 'user', content: [{ type: 'text', text: 'שלום' }] }], tools: [] };
  assert.equal(forModel(clean), clean);
});

test('a provider made model-bound streams the plain request', async () => {
  const seen: ModelRequest[] = [];
  const inner: LlmProvider = {
    id: 'fake',
    kind: 'anthropic',
    defersTools: false,
    listModels: async () => ['m'],
    async *stream(request) {
      seen.push(request);
      yield { type: 'done', stopReason: 'end_turn', usage: { inputTokens: 0, outputTokens: 0 } };
    },
  };
  const bound = modelBound(inner);
  for await (const event of bound.stream({ model: 'm', maxTokens: 1, messages: [{ role: 'user', content: [{ type: 'text', text: markHidden('a\u202Eb') }] }], tools: [] })) assert.equal(event.type, 'done');
  assert.deepEqual(seen[0]?.messages[0]?.content[0], { type: 'text', text: `ab ${note(1, 'bidirectional controls')}` });
  assert.deepEqual(await bound.listModels(), ['m']);
});
