import assert from 'node:assert/strict';
import { test } from 'node:test';
import { splitHidden, visibleText } from './visibleText.ts';

test('ANSI escapes, bidi overrides, zero-width and tag characters become visible marks; tabs and newlines stay', () => {
  assert.equal(visibleText('red\u001b[31m!\u202Eevil\u200Bx\u{E0041}\tok\n'), 'red\\u{1b}[31m!\\u{202e}evil\\u{200b}x\\u{e0041}\tok\n');
  assert.equal(visibleText('plain café ✓'), 'plain café ✓');
});

test('a view gets the plain runs and the marks apart', () => {
  assert.deepEqual(splitHidden('a\u202Eb'), [
    { text: 'a', hidden: false },
    { text: '\\u{202e}', hidden: true },
    { text: 'b', hidden: false },
  ]);
  assert.deepEqual(splitHidden(''), []);
});

test('what the neutraliser keeps is not marked: an emoji sequence stays joined, CRLF stays', () => {
  assert.equal(visibleText('👩\u200D💻 ok\r\n'), '👩\u200D💻 ok\r\n');
  assert.equal(visibleText('a\u200Db\rc'), 'a\\u{200d}b\\u{d}c');
});
