import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatAuth, formatContent, formatResourceContents, formatServers, formatSignedIn, formatSignedOut, formatTools, oneContentBytes, visible } from './formatOutput.ts';
import type { ServerSnapshot } from '../../shared/domain.ts';

test('terminal escapes, bidi overrides, zero-width and tag characters from a server are made visible', () => {
  const hostile = 'ok\u001b[2J\u202Eevil\u200B\u{E0041}';
  const shown = visible(hostile);
  // eslint-disable-next-line no-control-regex -- the escape character must be gone.
  assert.doesNotMatch(shown, /[\u001b\u202e\u200b]|\u{e0041}/u);
  assert.match(shown, /\\u\{1b\}\[2J\\u\{202e\}evil\\u\{200b\}\\u\{e0041\}/u);
  assert.equal(visible('tab\tand\nnewline stay'), 'tab\tand\nnewline stay');
});

test('a tool result prints text, describes binary content and shows structured content', () => {
  const out = formatContent({
    content: [
      { type: 'text', text: 'hello' },
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
      { type: 'resource_link', uri: 'file:///x', name: 'x' },
    ],
    structuredContent: { sum: 3 },
  });
  assert.match(out, /^hello\n\[image image\/png, 3 bytes\]\n\[resource link: file:\/\/\/x \(x\)\]\nstructured content:/);
  assert.match(out, /"sum": 3/);
});

test('a binary resource at a terminal is described, with how to save its bytes; text is shown as it is', () => {
  const blob = { contents: [{ uri: 'demo://picture', mimeType: 'image/png', blob: 'AAAA' }] };
  assert.equal(formatResourceContents(blob, 'atrium read demo demo://picture > FILE'), '[binary image/png, 3 bytes: demo://picture; to save it: atrium read demo demo://picture > FILE]');
  assert.deepEqual([...(oneContentBytes(blob) as Uint8Array)], [0, 0, 0]);
  const saidText = { contents: [{ uri: 'demo://t', mimeType: 'text/plain', blob: Buffer.from('said \u202Etext').toString('base64') }] };
  assert.equal(formatResourceContents(saidText, 'x'), visible('said \u202Etext'), 'bytes said to be text: shown as text, marked');
  const mixed = { contents: [{ uri: 'demo://a', text: 'words' }, { uri: 'demo://b', blob: 'AAAA' }] };
  assert.equal(oneContentBytes(mixed), 2, 'several contents are never mixed into one file');
  assert.equal(formatResourceContents(mixed, 'x'), 'words\n[binary data, 3 bytes: demo://b]');
});

const NOW = Date.UTC(2026, 0, 1);
const minutes = (n: number) => n * 60_000;

test('a remote server\'s sign-in line says who and until when, or why not and how to sign in', () => {
  assert.equal(formatAuth('gh', { state: 'signed-in', subject: 'alice', expiresAt: NOW + minutes(59) }, NOW), 'signed in as alice · expires in 59 min');
  assert.equal(formatAuth('gh', { state: 'signed-in' }, NOW), 'signed in');
  assert.equal(
    formatAuth('gh', { state: 'signed-in', subject: 'alice', error: 'gh: the server needs more permission (admin); sign in again to grant it' }, NOW),
    'signed in as alice · the server needs more permission (admin); sign in again to grant it',
  );
  assert.equal(formatAuth('gh', { state: 'signed-out' }, NOW), 'not signed in — atrium sign-in gh');
  assert.equal(formatAuth('gh', { state: 'signed-out', error: 'gh: the sign-in expired or was revoked; sign in again' }, NOW), 'not signed in: the sign-in expired or was revoked; sign in again — atrium sign-in gh');
  assert.equal(formatAuth('gh', { state: 'failed', error: 'gh: the authorization server refused: access_denied' }, NOW), 'the authorization server refused: access_denied');
  // Who signed in is the authorization server's word: untrusted text.
  assert.equal(formatAuth('gh', { state: 'signed-in', subject: 'eve\u001b[2J' }, NOW), 'signed in as eve\\u{1b}[2J');
});

test('servers list a sign-in line only for servers that have a sign-in', () => {
  const base: ServerSnapshot = { id: 'local', transport: 'stdio', target: 'node x', status: { kind: 'ready', since: 0 }, trusted: false, counts: { tools: 1, resources: 0, resourceTemplates: 0, prompts: 0 } };
  const remote: ServerSnapshot = { ...base, id: 'gh', transport: 'http', target: 'https://gh.example/mcp', auth: { state: 'signed-in', subject: 'alice', expiresAt: NOW + minutes(30) } };
  assert.equal(formatServers([base, remote], NOW).split('\n').length, 7);
  assert.match(formatServers([remote], NOW), /^gh {2}\[http\] {2}Ready\n {4}1 tool, 0 resources, 0 templates, 0 prompts.*\n {4}https:\/\/gh\.example\/mcp\n {4}signed in as alice · expires in 30 min$/);
  // Its name begins the line: a failure that starts with it does not say it twice.
  const failed: ServerSnapshot = { ...base, id: 'missing', status: { kind: 'error', message: 'missing: command not found: "nope"' } };
  assert.match(formatServers([failed], NOW), /^missing {2}\[stdio\] {2}Error: command not found: "nope"\n/);
});

test('sign-in and sign-out say what happened', () => {
  assert.equal(formatSignedIn('gh', { state: 'signed-in', subject: 'alice', scopes: ['read', 'admin'], expiresAt: NOW + minutes(60) }, NOW), 'Signed in to gh as alice (scopes read admin, expires in 1 h)');
  assert.equal(formatSignedIn('gh', { state: 'signed-in' }, NOW), 'Signed in to gh');
  const report = { hadTokens: true, revocationOffered: true, revoked: ['refresh token', 'access token'], problems: [] };
  assert.equal(formatSignedOut('gh', report), 'Signed out of gh: its authorization server revoked the refresh token and the access token, and Atrium forgot them.');
  assert.match(formatSignedOut('gh', { ...report, revocationOffered: false, revoked: [] }), /^Signed out of gh: Atrium forgot its tokens\. Its authorization server offers no way to revoke them/);
  assert.equal(
    formatSignedOut('gh', { ...report, revoked: ['access token'], problems: ['revoking the refresh token failed (HTTP 500)'] }),
    'Signed out of gh: Atrium forgot its tokens, but revoking the refresh token failed (HTTP 500) (revoked: access token).',
  );
  assert.equal(formatSignedOut('gh', { hadTokens: false, revocationOffered: false, revoked: [], problems: [] }), 'Not signed in to gh: there was nothing to sign out of.');
});

test('a tool turned off for the model says so under its line; one that is on says nothing of it', () => {
  const tool = { serverId: 'fs', name: 'write_file', modelName: 'fs__write_file', description: 'Writes a file.', inputSchema: { type: 'object' }, enabled: false };
  const listed = formatTools([tool, { ...tool, name: 'read_file', modelName: 'fs__read_file', enabled: true }]);
  assert.match(listed, /fs \/ write_file {2}\(model name: fs__write_file\)\n {4}Writes a file\.\n {4}off: not offered to the model/);
  assert.equal(listed.match(/off: not offered/g)?.length, 1);
});
