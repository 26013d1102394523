import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ServerDefinition } from '../config/serverConfig.ts';
import { LaunchApprovals, launchApprovalsPath } from './launchApprovals.ts';
import { launchHash } from './launchDefinition.ts';

const server = (id: string, args: string[] = []): ServerDefinition => ({ id, disabled: false, transport: 'stdio', command: 'node', args, env: {} });

test('the first open approves the enabled servers as they stand, once; later additions ask', async () => {
  const home = await mkdtemp(join(tmpdir(), 'atrium-approvals-'));
  try {
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { on: { command: 'node', args: ['a'] }, off: { command: 'node', disabled: true } } }));
    const approvals = await LaunchApprovals.open(home);
    assert.equal(approvals.check(server('on', ['a'])), undefined);
    assert.equal(approvals.check(server('on', ['b'])), 'changed');
    assert.equal(approvals.check(server('off')), 'new');
    // A second open reads the file: nothing added since is approved by the migration.
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { later: { command: 'node' } } }));
    assert.equal((await LaunchApprovals.open(home)).check(server('later')), 'new');
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test('approving names the definition seen; a rename with the same definition keeps it; a damaged file approves nothing and is kept aside', async () => {
  const home = await mkdtemp(join(tmpdir(), 'atrium-approvals-'));
  try {
    const approvals = await LaunchApprovals.open(home);
    await assert.rejects(approvals.approve(server('s', ['new']), launchHash(server('s', ['old']))), /changed while you were looking/);
    await approvals.approve(server('s', ['new']), launchHash(server('s', ['new'])));
    const review = approvals.review(server('s', ['newer']));
    assert.deepEqual(review.approved, { transport: 'stdio', command: 'node', args: ['new'], envNames: [] });
    assert.equal(review.current, false);
    await approvals.rename('s', server('t', ['new']));
    assert.equal(approvals.check(server('t', ['new'])), undefined);
    assert.equal(approvals.check(server('s', ['new'])), 'new');

    await writeFile(launchApprovalsPath(home), '{"servers": {"t": ');
    const reopened = await LaunchApprovals.open(home);
    assert.equal(reopened.check(server('t', ['new'])), 'new');
    const kept = (await readdir(home)).filter((name) => name.startsWith('launch-approvals.json.damaged-'));
    assert.equal(kept.length, 1);
    assert.equal(await readFile(join(home, kept[0] ?? ''), 'utf8'), '{"servers": {"t": ');
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
