import assert from 'node:assert/strict';
import { test } from 'node:test';
import { downloadHint, telling } from './serverLastWords.ts';

test("a Node server's missing module: the error line, not the stack or Node's version line", () => {
  const stderr = [
    'node:internal/modules/cjs/loader:1228',
    'throw err;',
    '^',
    "Error: Cannot find module '/srv/missing.js'",
    'at Module._resolveFilename (node:internal/modules/cjs/loader:1225:15)',
    'at node:internal/main/run_main_module:28:49 {',
    "code: 'MODULE_NOT_FOUND',",
    'requireStack: []',
    '}',
    'Node.js v22.12.0',
  ];
  assert.deepEqual(telling(stderr), ["Error: Cannot find module '/srv/missing.js'"]);
});

test("a Python traceback: its last line, which names the exception", () => {
  const stderr = ['Traceback (most recent call last):', 'File "/srv/server.py", line 3, in <module>', 'import mcp', "ModuleNotFoundError: No module named 'mcp'"];
  assert.deepEqual(telling(stderr), ["ModuleNotFoundError: No module named 'mcp'"]);
});

test('a server that says nothing alarming: its last two lines', () => {
  assert.deepEqual(telling(['starting', 'listening on stdio', 'bye']), ['listening on stdio', 'bye']);
  assert.deepEqual(telling([]), []);
});

test('a server started through a package runner that misses the time limit is said to be maybe still downloading', () => {
  const stdio = (command: string, args: string[]) => ({ id: 'fs', disabled: false, transport: 'stdio' as const, command, args, env: {} });
  assert.match(downloadHint(stdio('npx', ['-y', '@modelcontextprotocol/server-filesystem'])), /npx may still be downloading the server on its first start: try again in a minute/);
  assert.match(downloadHint(stdio('C:\\Program Files\\nodejs\\npx.cmd', ['-y', 'x'])), /npx\.cmd may still be downloading/);
  assert.match(downloadHint(stdio('uvx', ['mcp-server-git'])), /uvx may still be downloading/);
  assert.match(downloadHint(stdio('pnpm', ['dlx', 'x'])), /pnpm may still be downloading/);
  assert.equal(downloadHint(stdio('node', ['server.js'])), '');
  assert.equal(downloadHint(stdio('npm', ['run', 'serve'])), '');
});
