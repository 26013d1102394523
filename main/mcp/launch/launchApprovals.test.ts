import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, test } from 'node:test';
import { databaseMigrations } from '../../app/conversationStores.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import { openDatabase } from '../../store/database.ts';
import { buildServerEnvironment } from '../stdio/serverEnvironment.ts';
import { LaunchApprovals, launchApprovalsPath } from './launchApprovals.ts';
import { definitionFingerprint } from './launchDefinition.ts';
import { launchUpgradeIn, launchUpgradeMigrations } from './launchUpgrade.ts';
import type { LaunchUpgrade } from './launchUpgrade.ts';
import type { LaunchPinKeys } from './pinKey.ts';

const server = (id: string, args: string[] = [], env: Record<string, string> = {}, command = process.execPath): ServerDefinition => ({ id, disabled: false, transport: 'stdio', command, args, env });
const notDue: LaunchUpgrade = { isDue: () => false, consume: () => undefined };
const keyOf = (material: Buffer): LaunchPinKeys => ({ own: async () => material });

let home: string;
let key: Buffer;
beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'atrium-approvals-'));
  key = randomBytes(32);
});
afterEach(() => rm(home, { recursive: true, force: true }));

const open = (upgrade: LaunchUpgrade = notDue, keys: LaunchPinKeys = keyOf(key)) => LaunchApprovals.open(home, keys, upgrade);
const storedFile = async () => JSON.parse(await readFile(launchApprovalsPath(home), 'utf8')) as { byKey: Record<string, Record<string, { by: string; mac: string; pin: Record<string, unknown> }>> };
const serversFile = (servers: Record<string, unknown>) => writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: servers }));

/** A database as an older Atrium left it: every table but the launch upgrade's mark. */
function olderAtriumDatabase(): void {
  openDatabase(join(home, 'atrium.db'), databaseMigrations.filter((migration) => !launchUpgradeMigrations.includes(migration))).close();
}

/** The database this Atrium opens on the folder, with the upgrade it says is due or not. */
async function withDatabase<T>(use: (upgrade: LaunchUpgrade) => Promise<T>): Promise<T> {
  const db = openDatabase(join(home, 'atrium.db'), databaseMigrations);
  try {
    return await use(launchUpgradeIn(db));
  } finally {
    db.close();
  }
}

test('a fresh folder approves nothing, whatever its hand-written servers.json holds; deleting or emptying the approvals file approves nothing either', async () => {
  await serversFile({ helper: { command: 'sh', args: ['-c', 'touch /tmp/x'] } });
  const fresh = await withDatabase((upgrade) => open(upgrade));
  assert.equal(fresh.check(server('helper', ['-c', 'touch /tmp/x'], {}, 'sh')), 'new');

  await fresh.approve(server('other'));
  await rm(launchApprovalsPath(home));
  assert.equal((await withDatabase((upgrade) => open(upgrade))).check(server('helper', ['-c', 'touch /tmp/x'], {}, 'sh')), 'new', 'deleted: nothing re-granted');
  await writeFile(launchApprovalsPath(home), '');
  assert.equal((await withDatabase((upgrade) => open(upgrade))).check(server('other')), 'new', 'emptied: set aside, nothing approved');
  assert.equal((await withDatabase((upgrade) => open(upgrade))).check(server('helper', ['-c', 'touch /tmp/x'], {}, 'sh')), 'new', 'the run after: still nothing');
});

test('the one-time upgrade: on a folder an older Atrium used, its enabled servers are approved once; the mark is gone for good', async () => {
  await serversFile({ on: { command: process.execPath, args: ['a'] }, off: { command: process.execPath, disabled: true } });
  olderAtriumDatabase();
  const upgraded = await withDatabase((upgrade) => open(upgrade));
  assert.equal(upgraded.check(server('on', ['a'])), undefined);
  assert.equal(upgraded.check(server('on', ['b'])), 'changed');
  assert.equal(upgraded.check(server('off')), 'new', 'a disabled server never ran, so it asks');
  assert.equal((await storedFile()).byKey[Object.keys((await storedFile()).byKey)[0] ?? '']?.['on']?.by, 'existing-setup');

  // Later additions ask, and deleting the approvals file does not bring the upgrade back.
  await serversFile({ on: { command: process.execPath, args: ['a'] }, later: { command: 'sh', args: ['-c', 'x'] } });
  await rm(launchApprovalsPath(home));
  const after = await withDatabase((upgrade) => open(upgrade));
  assert.equal(after.check(server('later', ['-c', 'x'], {}, 'sh')), 'new');
  assert.equal(after.check(server('on', ['a'])), 'new');
});

test('the upgrade carries over an older Atrium’s unkeyed approvals only where they match what servers.json holds', async () => {
  await serversFile({ kept: { command: process.execPath, args: ['a'] }, edited: { command: process.execPath, args: ['now'] }, asked: { command: process.execPath } });
  const fingerprint = (s: ServerDefinition) => definitionFingerprint(s);
  await writeFile(
    launchApprovalsPath(home),
    JSON.stringify({ version: 1, servers: { kept: { hash: fingerprint(server('kept', ['a'])) }, edited: { hash: fingerprint(server('edited', ['before'])) } } }),
  );
  olderAtriumDatabase();
  const upgraded = await withDatabase((upgrade) => open(upgrade));
  assert.equal(upgraded.check(server('kept', ['a'])), undefined);
  assert.equal(upgraded.check(server('edited', ['now'])), 'new');
  assert.equal(upgraded.check(server('asked')), 'new', 'the older Atrium had not approved it');
});

test('an unkeyed entry written by hand approves nothing, and the start dialog says the file holds an approval Atrium did not sign', async () => {
  const forged = server('evil', ['-c', 'touch /tmp/x'], {}, 'sh');
  await writeFile(launchApprovalsPath(home), JSON.stringify({ version: 1, servers: { evil: { hash: definitionFingerprint(forged), definition: {} } } }));
  assert.equal((await open()).check(forged), 'new');

  // The current layout, with a MAC made with a key guessed or taken from another folder.
  const genuine = await open(notDue, keyOf(randomBytes(32)));
  await genuine.approve(forged);
  const approvals = await open();
  assert.equal(approvals.check(forged), 'new');
  const review = await approvals.review(forged);
  assert.ok(review.risks.some((risk) => risk.kind === 'unverified-approval' && /did not sign/.test(risk.message)));

  // An approval moved to another name does not hold there: the name is signed with it.
  await approvals.approve(server('fine'));
  const file = await storedFile();
  for (const servers of Object.values(file.byKey)) if (servers['fine']) servers['copied'] = servers['fine'];
  await writeFile(launchApprovalsPath(home), JSON.stringify(file));
  assert.equal((await open()).check(server('copied')), 'new');
  assert.equal((await open()).check(server('fine')), undefined);
});

test('a damaged approvals file is kept aside byte for byte and approves nothing, on this run and the next', async () => {
  const approvals = await open();
  await approvals.approve(server('s'));
  await writeFile(launchApprovalsPath(home), '{"version": 2, "byKey": ');
  assert.equal((await open()).check(server('s')), 'new');
  const kept = (await readdir(home)).filter((name) => name.startsWith('launch-approvals.json.damaged-'));
  assert.equal(kept.length, 1);
  assert.equal(await readFile(join(home, kept[0] ?? ''), 'utf8'), '{"version": 2, "byKey": ');
  assert.equal((await open()).check(server('s')), 'new', 'set aside, it is not taken for a folder that never had approvals');
});

test('every variable’s value is pinned: a code-loading one outside any list asks again; a secret is pinned by a keyed digest and never written or shown', async () => {
  const approvals = await open();
  await approvals.approve(server('py', ['s.py'], { PYTHONUSERBASE: '/home/me/.local', API_KEY: 'sk-ant-abcdefghijklmnopqrstuvwxyz', MODE: 'fast' }));
  assert.equal(approvals.check(server('py', ['s.py'], { PYTHONUSERBASE: '/tmp/evil', API_KEY: 'sk-ant-abcdefghijklmnopqrstuvwxyz', MODE: 'fast' })), 'changed');
  assert.equal(approvals.check(server('py', ['s.py'], { PYTHONUSERBASE: '/home/me/.local', API_KEY: 'sk-ant-rotatedrotatedrotatedrotated', MODE: 'fast' })), 'changed');
  assert.equal(approvals.check(server('py', ['s.py'], { PYTHONUSERBASE: '/home/me/.local', API_KEY: 'sk-ant-abcdefghijklmnopqrstuvwxyz', MODE: 'fast' })), undefined);
  assert.doesNotMatch(await readFile(launchApprovalsPath(home), 'utf8'), /abcdefghijklmnop/);

  const review = await approvals.review(server('py', ['s.py'], { PYTHONUSERBASE: '/tmp/evil', API_KEY: 'sk-ant-rotatedrotatedrotatedrotated', MODE: 'fast' }));
  assert.deepEqual(review.definition.transport === 'stdio' && review.definition.env, [{ name: 'API_KEY' }, { name: 'MODE', value: 'fast' }, { name: 'PYTHONUSERBASE', value: '/tmp/evil' }]);
  assert.deepEqual(review.changes, [
    'The value of API_KEY changed (it looks like a secret, so it is not shown).',
    'The environment variable PYTHONUSERBASE changed from “/home/me/.local” to “/tmp/evil”.',
  ]);
  assert.doesNotMatch(JSON.stringify(review), /rotated|abcdefghijklmnop/);
  assert.ok(review.risks.some((risk) => risk.kind === 'code-loading-env' && /PYTHONUSERBASE/.test(risk.message)));
});

test('a local script named in the arguments is pinned by its content: edited, it asks again and says which file changed', async () => {
  const script = join(home, 'server.js');
  await writeFile(script, 'console.log("approved")\n');
  const approvals = await open();
  const definition = server('local', ['./server.js'], {}, 'node');
  const withCwd = { ...definition, cwd: home } as ServerDefinition;
  await approvals.approve(withCwd);
  assert.equal(approvals.check(withCwd), undefined);
  // The environment the server gets, as the launch builds it (the login shell's PATH first).
  const environment = await buildServerEnvironment({});
  assert.equal(await approvals.confirm(withCwd, environment), undefined);

  await writeFile(script, 'require("child_process").execSync("touch /tmp/pwned")\n');
  assert.equal(approvals.check(withCwd), undefined, 'the definition itself is unchanged');
  assert.equal(await approvals.confirm(withCwd, environment), 'changed', 'the file it runs is not the one approved');
  const review = await approvals.review(withCwd);
  assert.deepEqual(review.changes, [`The file ${script} changed since you approved it.`]);
  assert.ok(review.definition.transport === 'stdio' && review.definition.scripts?.includes(script));
});

test('a program put earlier on the PATH changes what a bare command runs: it asks again, naming where it is found now', async () => {
  const first = join(home, 'first');
  const second = join(home, 'second');
  for (const folder of [first, second]) await mkdir(folder);
  const tool = async (folder: string) => {
    await writeFile(join(folder, 'mcp-tool'), '#!/bin/sh\nexit 0\n');
    await chmod(join(folder, 'mcp-tool'), 0o755);
  };
  await tool(second);
  const definition = server('tool', [], { PATH: `${first}:${second}` }, 'mcp-tool');
  const approvals = await open();
  await approvals.approve(definition);
  assert.equal(await approvals.confirm(definition, { PATH: `${first}:${second}` }), undefined);
  await tool(first);
  assert.equal(await approvals.confirm(definition, { PATH: `${first}:${second}` }), 'changed');
  const review = await approvals.review(definition);
  assert.deepEqual(review.changes, [`mcp-tool is now found at ${join(first, 'mcp-tool')}; when you approved it, it was ${join(second, 'mcp-tool')}.`]);
});

test('approving names what was seen; a rename with the same definition keeps it', async () => {
  const approvals = await open();
  const seen = (await approvals.review(server('s', ['old']))).hash;
  await assert.rejects(approvals.approve(server('s', ['new']), seen), /changed while you were looking/);
  await approvals.approve(server('s', ['new']), (await approvals.review(server('s', ['new']))).hash);
  const review = await approvals.review(server('s', ['newer']));
  assert.deepEqual(review.approved, { transport: 'stdio', command: process.execPath, args: ['new'], env: [], program: process.execPath, scripts: [] });
  assert.equal(review.current, false);
  await approvals.rename('s', server('t', ['new']));
  assert.equal(approvals.check(server('t', ['new'])), undefined);
  assert.equal(approvals.check(server('s', ['new'])), 'new');
});

test('a front end with a keychain key believes only its own approvals, and signs its approvals for the folder’s key too', async () => {
  const folderKey = key;
  const keychain = randomBytes(32);
  const desktop: LaunchPinKeys = { own: async () => keychain, alsoSignWith: [async () => folderKey] };
  const cli = await open();
  await cli.approve(server('from-cli'));
  const app = await open(notDue, desktop);
  assert.equal(app.check(server('from-cli')), 'new', 'the command line’s key is not the keychain’s');
  assert.match((await app.review(server('from-cli'))).changes.join(' '), /approved it on the command line or in the browser mode/);
  assert.deepEqual((await app.review(server('from-cli'))).risks, [], 'not a forgery: the app can verify it');
  await app.approve(server('from-app'));
  assert.equal((await open()).check(server('from-app')), undefined, 'the command line takes the app’s approval');
});
