import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readWordArguments } from './wordArguments.ts';
import type { ArgumentsOf } from './wordArguments.ts';

/** The arguments, failing the test with the problem when there is one. */
function argumentsFromWords(words: string[], of: ArgumentsOf, schema?: Record<string, unknown>): Record<string, unknown> | undefined {
  const read = readWordArguments(words, of, schema);
  if ('problem' in read) throw new Error(read.problem);
  return read.arguments;
}

const schema = {
  type: 'object',
  properties: {
    a: { type: 'number' },
    count: { type: 'integer' },
    loud: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
    name: { type: 'string' },
    maybe: { type: ['number', 'null'] },
  },
};

test('name=value words take the types the tool says', () => {
  assert.deepEqual(argumentsFromWords(['a=1.5', 'count=3', 'loud=true', 'tags=["x","y"]', 'name=42', 'maybe=7', 'other=text'], "the tool's", schema), {
    a: 1.5,
    count: 3,
    loud: true,
    tags: ['x', 'y'],
    name: '42',
    maybe: 7,
    other: 'text',
  });
});

test('a value that does not fit its type is left as typed, for the check to name', () => {
  assert.deepEqual(argumentsFromWords(['a=x', 'loud=yes', 'tags=[x', 'count='], "the tool's", schema), { a: 'x', loud: 'yes', tags: '[x', count: '' });
});

test('a number is read in decimal, as JSON writes it: "0x10", "0b1", "1_000" and "Infinity" are left as typed', () => {
  assert.deepEqual(argumentsFromWords(['a=0x10', 'count=0b1', 'maybe=1_000', 'other=1'], "the tool's", schema), { a: '0x10', count: '0b1', maybe: '1_000', other: '1' });
  assert.deepEqual(argumentsFromWords(['a=Infinity'], "the tool's", schema), { a: 'Infinity' });
  assert.deepEqual(argumentsFromWords(['a=-2.5e3', 'count=+7', 'maybe=.5'], "the tool's", schema), { a: -2500, count: 7, maybe: 0.5 });
});

test('a value may hold "=" and spaces; a prompt’s are all text', () => {
  assert.deepEqual(argumentsFromWords(['query=a = b and c'], "the prompt's"), { query: 'a = b and c' });
  assert.deepEqual(argumentsFromWords(['a=1'], "the prompt's"), { a: '1' });
});

test('one JSON object is taken as it is; none gives no arguments', () => {
  assert.deepEqual(argumentsFromWords(['{"a": 1, "b": "2"}'], "the tool's", schema), { a: 1, b: '2' });
  assert.equal(argumentsFromWords([], "the tool's", schema), undefined);
});

test('words that are neither say how to give them', () => {
  assert.throws(() => argumentsFromWords(['a=1', 'b'], "the tool's", schema), /give the tool's arguments as name=value words or as one JSON object: "b" is neither/);
  assert.throws(() => argumentsFromWords(['=1'], "the tool's", schema), /"=1" is neither/);
  assert.throws(() => argumentsFromWords(['a=1', 'a=2'], "the tool's", schema), /the tool's argument a is given twice/);
  // Where the JSON goes wrong, in words, never the engine's message.
  assert.throws(() => argumentsFromWords(['{"a": 1'], "the tool's", schema), /^Error: the tool's arguments are not valid JSON: line 1, column 8: the text ends too early/);
  assert.throws(() => argumentsFromWords(['{a: 1}'], "the tool's", schema), (error: Error) => !/position|Unexpected token/.test(error.message));
  // Both ways at once is neither.
  assert.throws(() => argumentsFromWords(['{"a": 1}', 'b=2'], "the tool's", schema), /^Error: give the tool's arguments as name=value words or as one JSON object, not both$/);
  assert.throws(() => argumentsFromWords(['[1]'], "the prompt's"), /"\[1\]" is neither/);
  assert.throws(() => argumentsFromWords(['message=hello', 'world'], "the tool's"), /"world" is neither \(a value with spaces goes in quotes: message="hello world"\)/);
});
