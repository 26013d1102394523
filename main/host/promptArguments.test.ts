import assert from 'node:assert/strict';
import { test } from 'node:test';
import { promptArgumentProblems } from './promptArguments.ts';

const declared = [
  { name: 'city', description: 'Name of the city', required: true },
  { name: 'state', description: 'Name of the state', required: false },
];

test('a required argument left out or blank is named with what the server says it is; optional ones may be left out', () => {
  assert.deepEqual(promptArgumentProblems(declared, {}), [{ field: 'city', message: 'city is required', description: 'Name of the city' }]);
  assert.deepEqual(promptArgumentProblems(declared, { city: '  ' }), [{ field: 'city', message: 'city is required', description: 'Name of the city' }]);
  assert.equal(promptArgumentProblems(declared, { city: 'Porto' }), undefined);
  assert.equal(promptArgumentProblems(undefined, {}), undefined, 'a prompt with no arguments, given none');
});

test('an argument the prompt does not take is named, with the one meant when it is a slip, after the missing ones', () => {
  assert.deepEqual(
    promptArgumentProblems(declared, { citty: 'Porto' })?.map((problem) => problem.message),
    ['city is required', 'citty is not an argument of this prompt (did you mean city?)'],
  );
  assert.deepEqual(promptArgumentProblems(declared, { city: 'Porto', country: 'PT' })?.map((problem) => problem.message), ['country is not an argument of this prompt (it takes city, state)']);
  assert.deepEqual(promptArgumentProblems(undefined, { city: 'Porto' })?.map((problem) => problem.message), ['city is not an argument of this prompt (it takes none)']);
});
