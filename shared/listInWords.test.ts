import assert from 'node:assert/strict';
import { test } from 'node:test';
import { listInWords } from './listInWords.ts';

test('names are said as a sentence says them', () => {
  assert.equal(listInWords([]), '');
  assert.equal(listInWords(['files']), 'files');
  assert.equal(listInWords(['files', 'git']), 'files and git');
  assert.equal(listInWords(['files', 'git', 'notes']), 'files, git and notes');
});
