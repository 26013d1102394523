// The profile a local server starts with, from its definition and the facts of the moment, and the
// `sandbox` entry that widens it: pure, so what the dialog says is what the launch does.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { StdioServerDefinition } from '../../config/serverConfig.ts';
import { stderrHint } from './blockedAccess.ts';
import type { SandboxFacts } from './sandboxProfile.ts';
import { deriveSandboxProfile, describeSandboxProfile } from './sandboxProfile.ts';
import { isHostPattern, readSandboxSetting, withAllowance } from './sandboxSetting.ts';

const facts: SandboxFacts = {
  platform: 'linux',
  home: '/home/ann',
  dataFolder: '/home/ann/work/.atrium',
  roots: ['/home/ann/work', '/home/ann'],
  installFolders: ['/home/ann/.nvm/versions/node/v22'],
  privatePlaces: ['/home/ann/.ssh', '/home/ann/work/.aws'],
  sharedTemp: ['/tmp'],
};
const server = (extra: Partial<StdioServerDefinition> = {}): StdioServerDefinition =>
  ({ id: 's', transport: 'stdio', command: 'node', args: ['server.js'], env: {}, ...extra }) as StdioServerDefinition;

test('the roots are read and written, Atrium’s data folder never, even inside a root or allowed by name', () => {
  const profile = deriveSandboxProfile(server({ sandbox: { filesystem: { allowWrite: ['/home/ann/work/.atrium'] } } }), facts);
  assert.equal(profile.kind, 'sandboxed');
  if (profile.kind !== 'sandboxed') return;
  assert.ok(profile.writable.includes('/home/ann/work'));
  assert.ok(!profile.writable.some((path) => path.startsWith('/home/ann/work/.atrium')));
  assert.ok(profile.hidden.includes('/home/ann/work/.atrium') && profile.hidden.includes('/home/ann') && profile.hidden.includes('/tmp'));
});

test('a bundle Atrium installed reads its own folder in the data folder’s bundles/, read-only, and nothing else there', () => {
  const bundle = '/home/ann/work/.atrium/bundles/greeter-0123456789ab';
  const profile = deriveSandboxProfile(server(), { ...facts, installFolders: [bundle, '/home/ann/work/.atrium/bundles', '/home/ann/work/.atrium'] });
  assert.ok(profile.kind === 'sandboxed');
  if (profile.kind !== 'sandboxed') return;
  assert.deepEqual(profile.readable.filter((path) => path.startsWith('/home/ann/work/.atrium')), [bundle]);
  assert.ok(!profile.writable.some((path) => path.startsWith('/home/ann/work/.atrium')));
  assert.ok(profile.hidden.includes('/home/ann/work/.atrium'));
});

test('a credential store stays hidden inside a root unless that very place is allowed', () => {
  const plain = deriveSandboxProfile(server(), facts);
  assert.ok(plain.kind === 'sandboxed' && plain.hidden.includes('/home/ann/work/.aws') && plain.hidden.includes('/home/ann/.ssh'));
  const allowed = deriveSandboxProfile(server({ sandbox: { filesystem: { allowRead: ['~/work/.aws'] } } }), facts);
  assert.ok(allowed.kind === 'sandboxed' && !allowed.hidden.includes('/home/ann/work/.aws') && allowed.readable.includes('/home/ann/work/.aws'));
});

test('npx gets its cache and its registry, and the dialog names them', () => {
  const profile = deriveSandboxProfile(server({ command: 'npx', args: ['-y', 'pkg'] }), facts);
  assert.ok(profile.kind === 'sandboxed');
  if (profile.kind !== 'sandboxed') return;
  assert.deepEqual(profile.caches, ['/home/ann/.npm/_npx']);
  assert.deepEqual(profile.hosts, ['registry.npmjs.org']);
  const lines = describeSandboxProfile(profile, facts).join('\n');
  assert.match(lines, /Its package runner’s cache: ~\/\.npm\/_npx\./);
  assert.match(lines, /Network: only registry\.npmjs\.org \(its package registry\)\./);
});

test('opted out, a container, another OS, a missing tool: each says why', () => {
  assert.deepEqual(deriveSandboxProfile(server({ sandbox: false }), facts), { kind: 'unsandboxed', why: 'opted-out' });
  assert.deepEqual(deriveSandboxProfile(server({ command: 'docker', args: ['run', '-i', 'img'] }), facts), { kind: 'unsandboxed', why: 'container' });
  assert.deepEqual(deriveSandboxProfile(server(), { ...facts, platform: 'win32' }), { kind: 'unsandboxed', why: 'unsupported-os' });
  assert.equal(deriveSandboxProfile(server(), { ...facts, unavailable: { reason: 'socat is not installed.', install: 'Install it.' } }).kind, 'unavailable');
});

test('the entry in VS Code’s vocabulary: full paths and hosts only, empty lists dropped', () => {
  assert.deepEqual(readSandboxSetting(true), { setting: undefined });
  assert.deepEqual(readSandboxSetting({ filesystem: { allowRead: [] }, network: { allowedDomains: ['example.com'] } }), { setting: { network: { allowedDomains: ['example.com'] } } });
  assert.deepEqual(readSandboxSetting({ filesystem: { allowRead: ['notes'] } }), { problem: ['sandbox.filesystem.allowRead', '"notes" in sandbox.filesystem.allowRead must be a full path (starting with / or ~/)'] });
  assert.ok('problem' in readSandboxSetting({ network: { allowedDomains: ['http://example.com'] } }));
  for (const host of ['example.com', '*.example.org', '127.0.0.1:8080', '[::1]:3000']) assert.ok(isHostPattern(host), host);
  for (const host of ['example.com:0', 'exa mple.com', '*', 'a:b:c']) assert.ok(!isHostPattern(host), host);
  assert.deepEqual(withAllowance(undefined, { kind: 'host', host: 'api.example.com' }), { network: { allowedDomains: ['api.example.com'] } });
  assert.equal(withAllowance(false, { kind: 'read', path: '/x' }), false);
});

test('a blocked read the server reports is listed only where the sandbox explains it, and Atrium’s data folder is never offered', () => {
  const profile = deriveSandboxProfile(server(), facts);
  assert.ok(profile.kind === 'sandboxed');
  if (profile.kind !== 'sandboxed') return;
  // Paths that exist on this machine stand in: /etc/hostname is not hidden (so not the sandbox's doing).
  assert.equal(stderrHint("ENOENT: no such file or directory, open '/etc/hostname'", profile, facts.dataFolder), undefined);
  const hidden = { ...profile, hidden: [...profile.hidden, '/etc'] };
  assert.deepEqual(stderrHint("ENOENT: no such file or directory, open '/etc/hostname'", hidden, facts.dataFolder), { kind: 'read', target: '/etc/hostname', allow: '/etc/hostname' });
  assert.deepEqual(stderrHint("ENOENT: no such file or directory, open '/etc/hostname'", hidden, '/etc'), { kind: 'read', target: '/etc/hostname' });
  assert.deepEqual(stderrHint('connect ECONNREFUSED 127.0.0.1:5432', profile, facts.dataFolder), { kind: 'host', target: '127.0.0.1:5432', allow: '127.0.0.1:5432' });
});

test('a file or folder its arguments name is read, not written, and never a credential store or Atrium’s data', () => {
  const profile = deriveSandboxProfile(server(), { ...facts, argumentPaths: ['/srv/report.pdf', '/home/ann/.ssh/id_rsa', '/home/ann/work/.atrium/secrets.key'] });
  assert.ok(profile.kind === 'sandboxed');
  if (profile.kind !== 'sandboxed') return;
  assert.ok(profile.readable.includes('/srv/report.pdf') && !profile.writable.includes('/srv/report.pdf'));
  assert.ok(!profile.readable.includes('/home/ann/.ssh/id_rsa') && profile.hidden.includes('/home/ann/.ssh'));
  assert.ok(!profile.readable.includes('/home/ann/work/.atrium/secrets.key'));
});

test('a refused write to a folder its arguments name in /tmp is the sandbox’s doing; elsewhere in its own /tmp it writes', () => {
  const profile = deriveSandboxProfile(server(), { ...facts, argumentPaths: ['/tmp/scratch-notes'] });
  assert.ok(profile.kind === 'sandboxed');
  if (profile.kind !== 'sandboxed') return;
  assert.deepEqual(stderrHint("EROFS: read-only file system, open '/tmp/scratch-notes/todo.md'", profile, facts.dataFolder), { kind: 'write', target: '/tmp/scratch-notes/todo.md', allow: '/tmp/scratch-notes' });
  assert.equal(stderrHint("EROFS: read-only file system, open '/tmp/elsewhere/todo.md'", profile, facts.dataFolder), undefined);
});
