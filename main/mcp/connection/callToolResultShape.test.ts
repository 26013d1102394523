import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Tool } from '@modelcontextprotocol/client';
import { CachedSchemaValidator } from '../schemaValidatorCache.ts';
import { checkCallToolResult as validate, checkStructuredContent } from './callToolResultShape.ts';

test('a well-formed result passes; a missing content defaults to an empty list', () => {
  assert.deepEqual(validate({ content: [{ type: 'text', text: 'hi' }] }), { value: { content: [{ type: 'text', text: 'hi' }] } });
  assert.deepEqual(validate({ structuredContent: { a: 1 } }), { value: { structuredContent: { a: 1 }, content: [] } });
});

test('spec 003 (CallToolResult): a lying server is caught: non-array content, untyped blocks, non-boolean isError, non-object structuredContent', () => {
  for (const bad of [null, [], 'text', { content: 'x' }, { content: [{ text: 'no type' }] }, { content: [], isError: 'yes' }, { content: [], structuredContent: [1] }]) {
    assert.ok('issues' in (validate(bad) as object), JSON.stringify(bad));
  }
});

test('spec 003: a tool with an outputSchema must return matching structuredContent unless it reports an error', () => {
  const tool = { name: 'add', inputSchema: { type: 'object' }, outputSchema: { type: 'object', properties: { sum: { type: 'number' } }, required: ['sum'] } } as Tool;
  const validator = new CachedSchemaValidator();
  assert.equal(checkStructuredContent({ content: [], structuredContent: { sum: 3 } }, tool, validator), undefined);
  assert.match(checkStructuredContent({ content: [] }, tool, validator) ?? '', /returned no structuredContent/);
  assert.match(checkStructuredContent({ content: [], structuredContent: { sum: 'three' } }, tool, validator) ?? '', /does not match its outputSchema/);
  assert.equal(checkStructuredContent({ content: [], isError: true }, tool, validator), undefined);
  assert.equal(validator.size, 1, 'the schema was compiled once');
});
