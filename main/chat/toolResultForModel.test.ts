import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import { markServerValue } from '../../shared/serverText.ts';
import { hostileCorpus } from '../../shared/testKits/hostileTextCorpus.ts';
import { toolResultForModel } from './toolResultForModel.ts';

test('spec 003 (content annotations: audience): content with audience ["user"] is shown to the person but not sent to the model', () => {
  const result = toolResultForModel({
    content: [
      { type: 'text', text: 'for both' },
      { type: 'text', text: 'for the person only', annotations: { audience: ['user'] } },
      { type: 'text', text: 'for the model', annotations: { audience: ['assistant'] } },
    ],
  });
  assert.deepEqual(result.content.map((c) => (c.type === 'text' ? c.text : '')), ['for both', 'for the model']);
});

test('every content type becomes something a model can read; images pass through', () => {
  const { content } = toolResultForModel({
    content: [
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
      { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
      { type: 'resource_link', uri: 'file:///a.txt', name: 'a' },
      { type: 'resource', resource: { uri: 'file:///b.txt', text: 'inside b' } },
      { type: 'resource', resource: { uri: 'file:///c.bin', blob: 'AAAA', mimeType: 'application/zip' } },
    ],
  });
  assert.deepEqual(content[0], { type: 'image', mimeType: 'image/png', data: 'AAAA' });
  assert.match(JSON.stringify(content.slice(1)), /audio audio\/wav.*resource link: file:\/\/\/a\.txt \(a\).*inside b.*binary resource file:\/\/\/c\.bin \(application\/zip\)/);
});

test('bytes the server says are text reach the model as that text, hidden characters handled as in any text it sends', () => {
  const bytes = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  const hidden = 'pay \u202Eevil\u202C now';
  const { content } = toolResultForModel({
    content: [
      { type: 'resource', resource: { uri: 'demo://notes', blob: bytes('plain notes'), mimeType: 'text/plain' } },
      { type: 'resource', resource: { uri: 'demo://hidden', blob: bytes(hidden), mimeType: 'text/plain' } },
      { type: 'resource', resource: { uri: 'demo://latin1', blob: Buffer.from([0xe9, 0x74, 0xe9]).toString('base64'), mimeType: 'text/plain' } },
    ],
  });
  const texts = content.map((block) => (block.type === 'text' ? block.text : ''));
  assert.equal(texts[0], '[resource demo://notes]\nplain notes');
  // As the same words sent as text, marked on arrival, reach the model.
  const asText = toolResultForModel(markServerValue({ content: [{ type: 'resource', resource: { uri: 'demo://hidden', text: hidden } }] }));
  assert.deepEqual(content[1], asText.content[0]);
  assert.doesNotMatch(texts[1] ?? '', /\u202E/);
  assert.match(texts[2] ?? '', /^\[binary resource demo:\/\/latin1 \(text\/plain\)/, 'not UTF-8: bytes, not text');
});

test('structured content is sent as JSON when there is no other content', () => {
  assert.deepEqual(toolResultForModel({ content: [], structuredContent: { sum: 3 } }).content, [{ type: 'text', text: '{"sum":3}' }]);
});

test('a result over the budget drops low-priority blocks first, then cuts, with an explicit marker', () => {
  const result = toolResultForModel(
    {
      content: [
        { type: 'text', text: 'a'.repeat(60), annotations: { priority: 0.9 } },
        { type: 'text', text: 'b'.repeat(60), annotations: { priority: 0.1 } },
        { type: 'text', text: 'c'.repeat(60), annotations: { priority: 0.8 } },
      ],
    },
    100,
  );
  assert.equal(result.truncated, true);
  const texts = result.content.map((c) => (c.type === 'text' ? c.text : ''));
  assert.deepEqual(texts.slice(0, 2), ['a'.repeat(60), 'c'.repeat(40)], 'b (lowest priority) dropped, c cut to fit, a kept whole');
  assert.equal(texts[2], "[result truncated by Atrium to fit the model's budget: 1 lower-priority block(s) dropped, one block cut short; the full result is in the conversation]");
});

test('MCP 2024-11-05 Tools (isError: errors the model can see): isError is kept so the model knows the tool failed', () => {
  assert.equal(toolResultForModel({ content: [{ type: 'text', text: 'no such file' }], isError: true }).isError, true);
});

// What the model got of each tool result of the corpus before the neutraliser kept markers (it cleaned
// each message where it entered the host); now the saved result keeps them for the window.
const before = JSON.parse(readFileSync(new URL('../../shared/testKits/neutralisedBefore.json', import.meta.url), 'utf8')) as { forModel?: unknown }[];

test('a hostile result reaches the model exactly as before markers: the same text, the same notes, the same cut', () => {
  let results = 0;
  hostileCorpus().forEach((message, index) => {
    const expected = before[index]?.forModel;
    if (expected === undefined) return;
    const saved = (markServerValue(message) as { result: Record<string, unknown> }).result;
    assert.deepEqual(toolResultForModel(saved, 100_000, 'call-1'), expected, `message ${index}`);
    assert.doesNotMatch(JSON.stringify(toolResultForModel(saved, 100, 'call-1')), /\uFDD0|\uFDD1/u, 'a result cut short has no piece of a marker');
    results += 1;
  });
  assert.ok(results >= 10);
});
