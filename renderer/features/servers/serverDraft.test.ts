import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredServerEntry } from '../../../shared/domain.ts';
import { commandWords, draftOf, emptyDraft, entryOf, splitCommandField } from './serverDraft.ts';

const remote: StoredServerEntry = {
  type: 'http',
  url: 'https://api.example.com/mcp',
  headers: { 'X-Team': 'blue' },
  oauth: { clientId: 'my-app', clientSecret: { secret: 'my-app-secret' }, scopes: ['repo'] },
  trusted: true,
  requestTimeoutMs: 30_000,
};

test('editing a remote server keeps its oauth block and the settings the form does not show', () => {
  const draft = { ...draftOf('github', remote), url: 'https://api.example.com/v2/mcp' };
  assert.deepEqual(entryOf(draft, remote), { ...remote, url: 'https://api.example.com/v2/mcp' });
});

test('a remote server edited into a command line leaves its oauth block behind (a stdio server has none)', () => {
  const draft = { ...draftOf('github', remote), kind: 'stdio' as const, command: 'gh-mcp', args: '--stdio' };
  const entry = entryOf(draft, remote);
  assert.ok(!('oauth' in entry) && !('url' in entry));
  assert.deepEqual(entry, { command: 'gh-mcp', args: ['--stdio'], requestTimeoutMs: 30_000, trusted: true });
});

test('a stdio entry round-trips through the form: one argument per line, KEY=value, its working folder', () => {
  const stdio: StoredServerEntry = { command: 'npx', args: ['-y', 'server-filesystem', '/tmp/a b'], env: { TOKEN_NAME: 'x' }, cwd: '/srv', disabledTools: ['delete'], maxMessageBytes: 4096 };
  const draft = draftOf('files', stdio);
  assert.deepEqual([draft.args, draft.env], ['-y\nserver-filesystem\n/tmp/a b', 'TOKEN_NAME=x']);
  assert.deepEqual(entryOf(draft, stdio), stdio);
});

test('a whole command line typed into Command is split: the command stays, the rest goes first in Arguments', () => {
  const typed = { ...emptyDraft, command: 'npx -y @modelcontextprotocol/server-filesystem "/home/me/My Documents"', args: '--read-only' };
  const split = splitCommandField(typed);
  assert.equal(split?.command, 'npx');
  assert.equal(split?.moved, 3);
  assert.equal(split?.draft.args, '-y\n@modelcontextprotocol/server-filesystem\n/home/me/My Documents\n--read-only');
  assert.deepEqual(entryOf(split?.draft ?? typed, null), { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/My Documents', '--read-only'] });
});

test('Command that holds one command is left alone; a quoted path with spaces is the command, unquoted', () => {
  assert.equal(splitCommandField({ ...emptyDraft, command: 'uvx' }), undefined);
  assert.equal(splitCommandField({ ...emptyDraft, command: '  node  ' }), undefined);
  assert.deepEqual(splitCommandField({ ...emptyDraft, command: '"C:\\Program Files\\nodejs\\node.exe" server.js' })?.draft, { ...emptyDraft, command: 'C:\\Program Files\\nodejs\\node.exe', args: 'server.js' });
  assert.deepEqual(splitCommandField({ ...emptyDraft, command: "'/opt/my tools/server'" })?.draft, { ...emptyDraft, command: '/opt/my tools/server' });
  assert.deepEqual(commandWords(`python -c 'print("a b")'`), ['python', '-c', 'print("a b")']);
});
