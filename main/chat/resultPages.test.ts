import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mentionsCutResult, readPage } from './resultPages.ts';
import { toolResultForModel } from './toolResultForModel.ts';

test('a page says where it is and how to read on; past the end and an unknown call say so', () => {
  const text = 'abcdefghij';
  assert.equal(readPage(text, 'c1', 2, 3), 'cde\n[characters 2–5 of 10. 5 more: call atrium_read_result {"callId": "c1", "offset": 5}]');
  assert.equal(readPage(text, 'c1', 5), 'fghij\n[characters 5–10 of 10. That is the end of the result.]');
  assert.equal(readPage(text, 'c1', 10), 'The result of "c1" has 10 characters; there is nothing from 10 on.');
  assert.equal(readPage(undefined, 'nope', 0), 'There is no kept result for the call "nope" in this conversation.');
});

test('a cut result tells the model where its part ends; one whose kept part is not the text’s beginning reads from 0', () => {
  const cut = toolResultForModel({ content: [{ type: 'text', text: 'x'.repeat(30) }] }, 10, 'call-9');
  assert.equal(cut.fullText.length, 30);
  assert.match(JSON.stringify(cut.content.at(-1)), /read the rest with atrium_read_result \{\\"callId\\": \\"call-9\\", \\"offset\\": 10\}/);
  assert.ok(mentionsCutResult([(cut.content.at(-1) as { text: string }).text]));
  // The low-priority first block goes, the second stays: what the model got does not start the text.
  const dropped = toolResultForModel(
    { content: [{ type: 'text', text: 'a'.repeat(20), annotations: { priority: 0.1 } }, { type: 'text', text: 'b'.repeat(8), annotations: { priority: 0.9 } }] },
    10,
    'call-10',
  );
  assert.match(JSON.stringify(dropped.content.at(-1)), /read it with atrium_read_result \{\\"callId\\": \\"call-10\\", \\"offset\\": 0\}/);
  assert.equal(mentionsCutResult(['an ordinary result']), false);
});
