import assert from 'node:assert/strict';
import { test } from 'node:test';
import { editDistance, nearestWord } from './nearestWord.ts';

test('a slip of one or two letters finds the word meant, the nearest first; a different word finds none', () => {
  assert.equal(editDistance('tool', 'tools'), 1);
  assert.equal(nearestWord('tool', ['tools', 'call']), 'tools');
  assert.equal(nearestWord('serevrs', ['servers', 'skills']), 'servers');
  assert.equal(nearestWord('promt', ['prompt', 'prompts']), 'prompt', 'the nearest of two close words');
  assert.equal(nearestWord('deploy', ['tools', 'call', 'chat']), undefined);
  assert.equal(nearestWord('ur', ['url', 'env']), 'url');
  assert.equal(nearestWord('xy', ['ab']), undefined, 'a two-letter word stands only for a one-letter slip');
  assert.equal(editDistance('ues', 'use'), 1, 'two letters in the wrong order are one slip');
  assert.equal(nearestWord('ues', ['set', 'use', 'remove']), 'use', 'not "set", which is two letters off');
});
