import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Tool } from '@modelcontextprotocol/client';
import { encodeHeaderValue, withMcpRequestHeaders } from './mcpRequestHeaders.ts';

const tool = {
  name: 'execute_sql',
  inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' }, limit: { type: 'integer', 'x-mcp-header': 'Limit' }, query: { type: 'string' } } },
} as Tool;

async function headersSent(body: unknown, preset: Record<string, string> = {}): Promise<Headers> {
  let seen = new Headers();
  const fetchImpl = withMcpRequestHeaders(async (_url, init) => {
    seen = new Headers(init?.headers);
    return new Response('{}');
  }, (name) => (name === tool.name ? tool : undefined));
  await fetchImpl('http://127.0.0.1/mcp', { method: 'POST', headers: preset, body: JSON.stringify(body) });
  return seen;
}

test('spec 002: Mcp-Method and Mcp-Name come from the body, Mcp-Param-{Name} from x-mcp-header parameters', async () => {
  const headers = await headersSent({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute_sql', arguments: { region: 'us-west1', limit: 5, query: 'select' } } });
  assert.equal(headers.get('mcp-method'), 'tools/call');
  assert.equal(headers.get('mcp-name'), 'execute_sql');
  assert.equal(headers.get('mcp-param-region'), 'us-west1');
  assert.equal(headers.get('mcp-param-limit'), '5');
  assert.equal(headers.get('mcp-param-query'), null);
  const read = await headersSent({ jsonrpc: '2.0', id: 2, method: 'resources/read', params: { uri: 'file:///notes/é.md' } });
  assert.equal(read.get('mcp-method'), 'resources/read');
  assert.equal(read.get('mcp-name'), `=?base64?${Buffer.from('file:///notes/é.md').toString('base64')}?=`);
});

test('spec 002: values that are not plain visible ASCII are Base64-encoded', () => {
  assert.equal(encodeHeaderValue('us-west1'), 'us-west1');
  assert.equal(encodeHeaderValue('Hello, 世界'), '=?base64?SGVsbG8sIOS4lueVjA==?=');
  assert.equal(encodeHeaderValue(' padded '), '=?base64?IHBhZGRlZCA=?=');
  assert.equal(encodeHeaderValue('line1\nline2'), '=?base64?bGluZTEKbGluZTI=?=');
  assert.equal(encodeHeaderValue(true), 'true');
  assert.equal(encodeHeaderValue(3.14), '3.14');
});

test('headers the SDK already set are left alone, and notifications get only Mcp-Method', async () => {
  const preset = await headersSent({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'execute_sql' } }, { 'Mcp-Method': 'tools/call', 'Mcp-Name': 'kept' });
  assert.equal(preset.get('mcp-name'), 'kept');
  const note = await headersSent({ jsonrpc: '2.0', method: 'notifications/initialized' });
  assert.equal(note.get('mcp-method'), 'notifications/initialized');
  assert.equal(note.get('mcp-name'), null);
});
