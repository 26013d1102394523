import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import Markdown from 'react-markdown';
import rehypeHighlight from 'rehype-highlight';
import { markHidden } from '../../shared/serverText.ts';
import { rehypeHiddenMarks } from './rehypeHiddenMarks.ts';

// The plugins as MarkdownText uses them, rendered to HTML.
const html = (text: string) =>
  renderToStaticMarkup(createElement(Markdown, { rehypePlugins: [[rehypeHighlight, { detect: false }], rehypeHiddenMarks], skipHtml: true }, markHidden(text)));

test('a hidden character in Markdown shows as the same mark as in any text, where it was', () => {
  assert.equal(html('Your file is **invoice\u202Efdp.exe**.'), '<p>Your file is <strong>invoice<mark class="hidden-char" title="1 hidden character here (bidirectional controls)">⟨U+202E⟩</mark>fdp.exe</strong>.</p>');
});

test('in highlighted code, a marker cut across the spans of a line is gathered back into one mark', () => {
  const out = html('```js\nconst a = 1;\u202E const b = 0x2;\u200B\n```');
  assert.match(out, /<mark class="hidden-char" title="1 hidden character here \(bidirectional controls\)">⟨U\+202E⟩<\/mark>/);
  assert.match(out, /⟨U\+200B⟩<\/mark>/);
  assert.doesNotMatch(out, /[\uFDD0\uFDD1\u202E\u200B]/);
});

test('a link to an address with a hidden character carries no raw character', () => {
  assert.doesNotMatch(html('[docs](https://example.com/a\u202Eb)'), /\u202E/);
});
