import assert from 'node:assert/strict';
import { test } from 'node:test';
import { spokenText } from './spokenText.ts';

test('the marks that only style a reply are not read out; its words are', () => {
  assert.equal(spokenText('Quokkas live on Rottnest Island, off **Perth**.'), 'Quokkas live on Rottnest Island, off Perth.');
  assert.equal(spokenText('An *odd* and _shy_ animal, ~~not~~ rare.'), 'An odd and shy animal, not rare.');
  assert.equal(spokenText('# Facts\n\n- one\n- two\n1. first\n> quoted'), 'Facts one two first quoted');
  assert.equal(spokenText('See [the island](https://example.com) and ![a quokka](q.png).'), 'See the island and a quokka.');
  assert.equal(spokenText('Run `npm test`:\n```sh\nnpm test\n```'), 'Run npm test: npm test');
});

test('what only looks like a mark is kept: a product, a file name, a lone star', () => {
  assert.equal(spokenText('2 * 3 = 6 and snake_case_name'), '2 * 3 = 6 and snake_case_name');
});
