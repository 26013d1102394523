import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StoredServerEntry } from '../../../shared/domain.ts';
import { draftOf, entryOf } from './serverDraft.ts';

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
