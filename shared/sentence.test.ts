import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asSentence, withoutNamesInView } from './sentence.ts';

test('a clause is made a sentence', () => {
  assert.equal(asSentence('the registry answered 503'), 'The registry answered 503.');
  assert.equal(asSentence('already one!', { capital: false }), 'already one!');
});

test('the names a card is titled with are not repeated at the start of its error; elsewhere they stay', () => {
  assert.equal(withoutNamesInView('files: tool "read": no answer within the time limit (8 s)', 'files', 'tool "read"'), 'no answer within the time limit (8 s)');
  assert.equal(withoutNamesInView('files: the server process exited with code 3', 'files'), 'the server process exited with code 3');
  assert.equal(withoutNamesInView('notes: files: exited', 'files'), 'notes: files: exited', 'another server named first is kept');
  assert.equal(withoutNamesInView('filesystem: exited', 'files'), 'filesystem: exited', 'a name is taken off whole only');
});
