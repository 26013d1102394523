import { test } from 'node:test';
import assert from 'node:assert/strict';
import { searchMatches } from './searchMatch.ts';

test('the words are found as the history finds them: a substring, A–Z regardless of case, each place once', () => {
  assert.deepEqual(searchMatches('Mulch, more MULCH, mulched', 'mulch'), [[0, 5], [12, 17], [19, 24]]);
  assert.deepEqual(searchMatches('aaaa', 'aa'), [[0, 2], [2, 4]], 'places do not overlap');
  assert.deepEqual(searchMatches('ÉCOLE école', 'école'), [[6, 11]], 'only A–Z are folded, as SQLite’s LIKE folds them');
  assert.deepEqual(searchMatches('anything', ''), [], 'nothing is searched for');
});
