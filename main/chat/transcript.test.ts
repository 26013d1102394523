import assert from 'node:assert/strict';
import { test } from 'node:test';
import { transcriptForModel } from './transcript.ts';

test('a tool call without a saved result (a crash mid-call) is left out, with its orphan result', () => {
  const transcript = transcriptForModel([
    { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'calling' }, { type: 'tool_use', id: 'a', name: 't', input: {} }] },
    { role: 'user', content: [{ type: 'text', text: 'are you there?' }] },
  ]);
  assert.deepEqual(transcript, [
    { role: 'user', content: [{ type: 'text', text: 'hi' }] },
    { role: 'assistant', content: [{ type: 'text', text: 'calling' }] },
    { role: 'user', content: [{ type: 'text', text: 'are you there?' }] },
  ]);
});

test('empty replies are dropped and same-role neighbours merged, so roles alternate', () => {
  const transcript = transcriptForModel([
    { role: 'user', content: [{ type: 'text', text: 'one' }] },
    { role: 'assistant', content: [{ type: 'text', text: '' }] },
    { role: 'user', content: [{ type: 'text', text: 'two' }] },
  ]);
  assert.deepEqual(transcript, [{ role: 'user', content: [{ type: 'text', text: 'one' }, { type: 'text', text: 'two' }] }]);
});

test('answered tool calls keep their results', () => {
  const messages = [
    { role: 'user' as const, content: [{ type: 'text' as const, text: 'go' }] },
    { role: 'assistant' as const, content: [{ type: 'tool_use' as const, id: 'x', name: 't', input: { a: 1 } }] },
    { role: 'user' as const, content: [{ type: 'tool_result' as const, toolUseId: 'x', content: [{ type: 'text' as const, text: 'ok' }] }] },
  ];
  assert.deepEqual(transcriptForModel(messages), messages);
});
