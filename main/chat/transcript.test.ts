import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ChatMessage } from '../../shared/conversation.ts';
import { continueTranscript, transcriptForModel } from './transcript.ts';

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

test('a step continues the transcript as repairing the whole would, leaving the messages already there as they were', () => {
  const text = (value: string) => ({ type: 'text' as const, text: value });
  const history = transcriptForModel([
    { role: 'user', content: [text('add them')] },
    { role: 'assistant', content: [text('')] },
    { role: 'user', content: [text('please')] },
  ]);
  const before = [...history];
  const steps: ChatMessage[][] = [
    // A reply that says nothing but calls a tool, then its result.
    [
      { role: 'assistant', content: [text(''), { type: 'tool_use', id: 'a', name: 't', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'a', content: [text('1')] }] },
    ],
    // A reply whose only call got no result (the turn was stopped) and nothing else: left out whole.
    [
      { role: 'assistant', content: [{ type: 'tool_use', id: 'b', name: 't', input: {} }] },
      { role: 'user', content: [] },
    ],
    [
      { role: 'assistant', content: [text('and'), { type: 'tool_use', id: 'c', name: 't', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', toolUseId: 'c', content: [text('2')] }] },
    ],
  ];
  const all: ChatMessage[] = [
    { role: 'user', content: [text('add them')] },
    { role: 'assistant', content: [text('')] },
    { role: 'user', content: [text('please')] },
  ];
  for (const step of steps) {
    continueTranscript(history, structuredClone(step));
    all.push(...structuredClone(step));
    assert.deepEqual(history, transcriptForModel(all));
  }
  // The person's messages (joined into one) stay the same object; what a step added is new.
  assert.equal(history[0], before[0]);
  assert.deepEqual(before[0], { role: 'user', content: [text('add them'), text('please')] });
});

test('a message joined with the one before it is a new message, so a provider converts it again', () => {
  const first: ChatMessage = { role: 'user', content: [{ type: 'text', text: 'one' }] };
  const transcript = [first];
  continueTranscript(transcript, [{ role: 'user', content: [{ type: 'text', text: 'two' }] }]);
  assert.equal(transcript.length, 1);
  assert.notEqual(transcript[0], first);
  assert.deepEqual(first.content, [{ type: 'text', text: 'one' }]);
  assert.deepEqual(transcript[0]?.content, [
    { type: 'text', text: 'one' },
    { type: 'text', text: 'two' },
  ]);
});
