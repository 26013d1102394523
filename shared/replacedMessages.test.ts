import assert from 'node:assert/strict';
import { test } from 'node:test';
import { replacedByEdit } from './replacedMessages.ts';

const text = [{ type: 'text' }];
const results = [{ type: 'tool_result' }];

test('an edit replaced the message of the person’s and all that answered it; Retry only the answers', () => {
  const messages = [
    { id: 'q1', role: 'user' as const, content: text },
    { id: 'a1', role: 'assistant' as const, content: text, replacedAt: 1 },
    { id: 'r1', role: 'user' as const, content: results, replacedAt: 1 },
    { id: 'a2', role: 'assistant' as const, content: text },
    { id: 'q2', role: 'user' as const, content: text, replacedAt: 2 },
    { id: 'a3', role: 'assistant' as const, content: text, replacedAt: 2 },
    { id: 'r3', role: 'user' as const, content: results, replacedAt: 2 },
    { id: 'a4', role: 'assistant' as const, content: text, replacedAt: 2 },
    { id: 'q3', role: 'user' as const, content: text },
    { id: 'a5', role: 'assistant' as const, content: text },
  ];
  assert.deepEqual([...replacedByEdit(messages)], ['q2', 'a3', 'r3', 'a4']);
});
