import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CachedSchemaValidator } from '../../mcp/schemaValidatorCache.ts';
import { InvalidArgumentsError } from '../invalidArguments.ts';
import { toolArgumentProblems } from './toolArguments.ts';

const schema = {
  type: 'object',
  properties: {
    a: { type: 'number', description: 'First number' },
    b: { type: 'number', description: 'Second number' },
    verbose: { type: 'boolean' },
    mode: { type: 'string', enum: ['fast', 'careful'] },
    options: { type: 'object', properties: { depth: { type: 'integer', minimum: 1, description: 'How deep to look' } }, required: ['depth'] },
    files: { type: 'array', items: { type: 'string' } },
    id: { anyOf: [{ type: 'string' }, { type: 'integer' }] },
  },
  required: ['a', 'b'],
  additionalProperties: false,
};
const validator = new CachedSchemaValidator();
const problems = (args: Record<string, unknown>) => toolArgumentProblems(validator, schema, args);

test('every argument that does not fit is named at once, each with what the tool says it is', () => {
  assert.deepEqual(problems({ a: 'x' }), [
    { field: 'a', message: 'a must be a number, not "x"', description: 'First number' },
    { field: 'b', message: 'b is required', description: 'Second number' },
  ]);
});

test('nested arguments, lists, choices, forms and unknown arguments are each said in words, one problem per argument', () => {
  const found = problems({ a: 1, b: 2, mode: 'quick', options: { depth: 0 }, files: ['x', 3], id: true, colour: 'red' });
  assert.deepEqual(
    found?.map((problem) => problem.message),
    [
      'mode must be one of "fast", "careful"',
      'options.depth must be at least 1',
      'files[1] must be text, not 3',
      'id does not fit any of the forms it can take',
      'colour is not an argument this tool takes',
    ],
  );
  assert.equal(found?.find((problem) => problem.field === 'options.depth')?.description, 'How deep to look');
  assert.deepEqual(problems({ a: 1, b: 2, options: {} })?.[0], { field: 'options.depth', message: 'options.depth is required', description: 'How deep to look' });
});

test('an argument given under a slip of a name the tool takes is named with the one meant', () => {
  const open = { type: 'object', properties: { text: { type: 'string', description: 'What to echo' } }, required: ['text'] };
  // The schema lets other arguments through: the missing one says what was given in its place.
  assert.deepEqual(toolArgumentProblems(validator, open, { txt: 'hi' }), [{ field: 'text', message: 'text is required (txt was given: did you mean text?)', description: 'What to echo' }]);
  // It refuses others: the slip itself says which it meant.
  assert.deepEqual(problems({ a: 1, b: 2, verbos: true }), [{ field: 'verbos', message: 'verbos is not an argument this tool takes: did you mean verbose?' }]);
});

test('a null for an optional parameter counts as not given (as the transport treats it for Mcp-Param headers)', () => {
  assert.equal(problems({ a: 1, b: 2, verbose: null }), undefined);
});

test('a null for a required parameter is still refused', () => {
  assert.equal(problems({ a: null, b: 2 })?.[0]?.message, 'a must be a number, not null');
});

test('the error says every problem in a line, and on a terminal a line per argument with its description', () => {
  const error = new InvalidArgumentsError('calc: tool "add"', problems({ a: 'x' }) ?? []);
  assert.equal(error.message, 'calc: tool "add" cannot take these arguments: a must be a number, not "x"; b is required.');
  assert.equal(error.commandLine, 'calc: tool "add" cannot take these arguments:\n  ✗ a must be a number, not "x" — First number\n  ✗ b is required — Second number');
  assert.deepEqual(error.fields, [
    { field: 'a', message: 'a must be a number, not "x"' },
    { field: 'b', message: 'b is required' },
  ]);
});
