import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parsePastedServers } from './pastedServers.ts';

const found = (text: string) => {
  const result = parsePastedServers(text);
  if ('error' in result) assert.fail(result.error);
  return result.servers.map((s) => [s.id, s.transport === 'stdio' ? [s.command, ...s.args].join(' ') : s.url]);
};

test('a whole Claude Desktop config and a VS Code one give their servers', () => {
  assert.deepEqual(found('{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]}}}'), [['fs', 'npx -y @modelcontextprotocol/server-filesystem /tmp']]);
  assert.deepEqual(found('{"servers": {"remote": {"type": "http", "url": "https://example.com/mcp"}}}'), [['remote', 'https://example.com/mcp']]);
});

test('a named entry cut out of a table, trailing comma included, is read as that table', () => {
  assert.deepEqual(found('"memory": {\n  "command": "npx",\n  "args": ["-y", "@modelcontextprotocol/server-memory"]\n},\n'), [['memory', 'npx -y @modelcontextprotocol/server-memory']]);
  assert.deepEqual(found('{"a": {"command": "a"}, "b": {"url": "https://b.example/mcp"}}').map(([id]) => id), ['a', 'b']);
});

test('a bare entry is named after the package or program it runs', () => {
  assert.deepEqual(found('{"command": "npx", "args": ["-y", "@scope/server-weather@1.2.0"]}'), [['server-weather', 'npx -y @scope/server-weather@1.2.0']]);
  assert.deepEqual(found('{"command": "/usr/local/bin/my-server"}'), [['my-server', '/usr/local/bin/my-server']]);
  assert.deepEqual(found('{"url": "https://mcp.example.com/sse", "type": "sse"}'), [['mcp.example.com', 'https://mcp.example.com/sse']]);
});

test('text that is not JSON names the line and column in plain words', () => {
  assert.deepEqual(parsePastedServers('{\n  "mcpServers": {\n    "fs": {"command": "npx" "args": []}\n  }\n}'), {
    error: 'Line 3, column 29: a comma or a closing } was expected here. Is a comma missing before it?',
  });
  assert.deepEqual(parsePastedServers('"fs": {"command": "npx",}'), { error: 'Line 1, column 25: a name in double quotes was expected here. Is there a comma before a closing } or ], or a name in single quotes?' });
  assert.deepEqual(parsePastedServers('{"mcpServers": {'), { error: 'Line 1, column 17: the text ends too early: a closing } or ] is missing.' });
  assert.deepEqual(parsePastedServers('  '), { error: 'Paste a server’s JSON first, or choose a file.' });
});

test('JSON without a server says which shapes are read; a bad entry is a problem naming the server', () => {
  const none = parsePastedServers('[1, 2]');
  assert.ok('error' in none && none.error.startsWith('This is JSON, but not a server'));
  const bad = parsePastedServers('{"mcpServers": {"x": {"args": ["a"]}}}');
  assert.ok(!('error' in bad));
  assert.equal(bad.servers.length, 0);
  assert.match(bad.problems[0]?.message ?? '', /server "x"/);
});

test('a block copied with its Markdown fence is read without it', () => {
  assert.deepEqual(found('```json\n{"mcpServers": {"a": {"command": "x"}}}\n```\n'), [['a', 'x']]);
});

test('a word where JSON wants quotes is placed too (JSON.parse gives no position for it)', () => {
  assert.deepEqual(parsePastedServers('{\n  "mcpServers": {\n    "fs": {"command": npx}\n  }\n}'), {
    error: 'Line 3, column 24: this is not JSON here: names and texts go in "double quotes", and true, false and null are written in full.',
  });
  const yaml = parsePastedServers('mcpServers:\n  fs:\n    command: npx');
  assert.ok('error' in yaml && yaml.error.startsWith('Line 1, column 1: this is not JSON here'));
});
