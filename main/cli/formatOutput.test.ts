import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatContent, visible } from './formatOutput.ts';

test('terminal escapes, bidi overrides, zero-width and tag characters from a server are made visible', () => {
  const hostile = 'ok\u001b[2J\u202Eevil\u200B\u{E0041}';
  const shown = visible(hostile);
  // eslint-disable-next-line no-control-regex -- the escape character must be gone.
  assert.doesNotMatch(shown, /[\u001b\u202e\u200b]|\u{e0041}/u);
  assert.match(shown, /\\u\{1b\}\[2J\\u\{202e\}evil\\u\{200b\}\\u\{e0041\}/u);
  assert.equal(visible('tab\tand\nnewline stay'), 'tab\tand\nnewline stay');
});

test('a tool result prints text, describes binary content and shows structured content', () => {
  const out = formatContent({
    content: [
      { type: 'text', text: 'hello' },
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
      { type: 'resource_link', uri: 'file:///x', name: 'x' },
    ],
    structuredContent: { sum: 3 },
  });
  assert.match(out, /^hello\n\[image image\/png, 3 bytes\]\n\[resource link: file:\/\/\/x \(x\)\]\nstructured content:/);
  assert.match(out, /"sum": 3/);
});
