import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkXMcpHeaders } from './xMcpHeader.ts';

const schema = (properties: Record<string, unknown>) => ({ type: 'object', properties });

test('spec 003: a valid x-mcp-header on a primitive parameter is accepted', () => {
  assert.deepEqual(checkXMcpHeaders(schema({ region: { type: 'string', 'x-mcp-header': 'Region' }, n: { type: 'integer', 'x-mcp-header': 'N' } })), { valid: true });
});

test('spec 003: empty, space, colon and non-ASCII header names are rejected', () => {
  for (const bad of ['', 'Has Space', 'a:b', 'Région']) {
    assert.equal(checkXMcpHeaders(schema({ p: { type: 'string', 'x-mcp-header': bad } })).valid, false, bad);
  }
});

test('spec 003: header names must be case-insensitively unique', () => {
  const check = checkXMcpHeaders(schema({ a: { type: 'string', 'x-mcp-header': 'Region' }, b: { type: 'string', 'x-mcp-header': 'REGION' } }));
  assert.equal(check.valid, false);
});

test('spec 003: only primitive parameters may be mirrored', () => {
  assert.equal(checkXMcpHeaders(schema({ o: { type: 'object', 'x-mcp-header': 'O' } })).valid, false);
  assert.equal(checkXMcpHeaders(schema({ l: { type: 'array', 'x-mcp-header': 'L' } })).valid, false);
});

test('spec 003 (2026-07-28 schema extension): x-mcp-header is not permitted on a number parameter', () => {
  assert.equal(checkXMcpHeaders(schema({ score: { type: 'number', 'x-mcp-header': 'Score' } })).valid, false);
  assert.equal(checkXMcpHeaders(schema({ count: { type: 'integer', 'x-mcp-header': 'Count' } })).valid, true);
});
