import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CachedSchemaValidator } from '../../mcp/schemaValidatorCache.ts';
import { toolArgumentsProblem } from './toolArguments.ts';

const schema = { type: 'object', properties: { a: { type: 'number' }, verbose: { type: 'boolean' } }, required: ['a'] };
const validator = new CachedSchemaValidator();

test('arguments that do not fit the input schema are described as the arguments', () => {
  assert.match(toolArgumentsProblem(validator, schema, { a: 'x' }) ?? '', /^arguments\/a must be number/);
});

test('a null for an optional parameter counts as not given (as the transport treats it for Mcp-Param headers)', () => {
  assert.equal(toolArgumentsProblem(validator, schema, { a: 1, verbose: null }), undefined);
});

test('a null for a required parameter is still refused', () => {
  assert.match(toolArgumentsProblem(validator, schema, { a: null }) ?? '', /arguments\/a must be number/);
});
