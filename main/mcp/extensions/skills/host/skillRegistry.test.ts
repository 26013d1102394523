import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import { openDatabase } from '../../../../store/database.ts';
import type { ConnectionSkills } from '../connectionSkills.ts';
import { SkillApprovalStore, skillApprovalMigrations } from '../store/skillApprovalStore.ts';
import { approvedFilesOf } from './skillEntries.ts';
import { SkillRegistry } from './skillRegistry.ts';

const digest = (n: number) => `sha256:${n.toString(16).padStart(64, '0')}`;
const refunds = (policyDigest: number): Skill => ({
  uri: 'skill://refunds/SKILL.md',
  frontmatter: { name: 'refunds', description: 'Refunds.' },
  resources: [
    { uri: 'skill://refunds/SKILL.md', digest: digest(1), size: 10 },
    { uri: 'skill://refunds/policy.md', digest: digest(policyDigest), size: 10 },
  ],
});

/** A server's skills as a test sets them, counting what it was asked. */
function fakeServer(ttlMs: number | undefined) {
  const asked: string[] = [];
  let listed = [refunds(2)];
  let served = refunds(2);
  let getFails = false;
  const connection: ConnectionSkills = {
    offered: async () => true,
    list: async () => {
      asked.push('list');
      return { skills: listed, invalid: [], ...(ttlMs !== undefined ? { ttlMs } : {}) };
    },
    get: async (uri) => {
      asked.push(`get ${uri}`);
      if (getFails) throw new Error('skills/get is not implemented');
      return { skill: served, ...(ttlMs !== undefined ? { ttlMs } : {}) };
    },
    read: async () => {
      throw new Error('the registry never reads a file');
    },
  };
  return {
    asked,
    connection,
    change: (skill: Skill) => {
      listed = [skill];
      served = skill;
    },
    failGets: () => (getFails = true),
  };
}

function registryOver(server: ReturnType<typeof fakeServer>, now: () => number) {
  const approvals = new SkillApprovalStore(openDatabase(':memory:', skillApprovalMigrations));
  return { approvals, registry: new SkillRegistry({ connectionOf: () => server.connection, approvals, now }) };
}

test("a listing is current for its ttlMs: a use within it asks the server for nothing, one after it asks for the skill's entry (skills/get)", async () => {
  let clock = 0;
  const server = fakeServer(60_000);
  const { registry } = registryOver(server, () => clock);
  await registry.list('shop');
  await registry.entry('shop', 'skill://refunds/SKILL.md');
  assert.deepEqual(server.asked, ['list']);
  clock = 60_000;
  await registry.entry('shop', 'skill://refunds/SKILL.md');
  assert.deepEqual(server.asked, ['list', 'get skill://refunds/SKILL.md']);
});

test('SEP-2640 content-bound approval: an entry listing other files revokes the approval, and it stays revoked when the files come back', async () => {
  const server = fakeServer(0);
  const { registry, approvals } = registryOver(server, () => 0);
  await registry.list('shop');
  approvals.approve('shop', 'skill://refunds/SKILL.md', approvedFilesOf(refunds(2)), []);
  server.change(refunds(3));
  await registry.entry('shop', 'skill://refunds/SKILL.md');
  assert.equal(registry.current('shop')[0]?.skills[0]?.approval.kind, 'changed');
  server.change(refunds(2));
  await registry.entry('shop', 'skill://refunds/SKILL.md');
  assert.equal(registry.current('shop')[0]?.skills[0]?.approval.kind, 'changed', 'a revoked approval is asked for again');
});

test('a listing may be partial: a skill it does not name is found by its URI; a server that cannot answer skills/get is held to the entry it listed', async () => {
  const server = fakeServer(0);
  const { registry } = registryOver(server, () => 0);
  await registry.list('shop');
  const unlisted = await registry.entry('shop', 'skill://other/SKILL.md');
  assert.equal(unlisted.listed, false, 'found by skills/get');
  server.failGets();
  const held = await registry.entry('shop', 'skill://refunds/SKILL.md');
  assert.deepEqual([held.listed, held.skill.uri], [true, 'skill://refunds/SKILL.md']);
  await assert.rejects(registry.entry('shop', 'skill://nowhere/SKILL.md'), /skills\/get is not implemented/);
});
