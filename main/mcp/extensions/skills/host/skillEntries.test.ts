import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SKILL_LIMITS as SDK_LIMITS } from '@modelcontextprotocol/client/ext/skills';
import type { Skill } from '@modelcontextprotocol/client/ext/skills';
import { SKILL_LIMITS, allowedToolsOf, approvalHolds, changeSince, filesOf, refusalOf, sameFrontmatter } from './skillEntries.ts';

const digest = (n: number) => `sha256:${n.toString(16).padStart(64, '0')}`;

function skill(files: number, size = 1, extra: Partial<Skill> = {}): Skill {
  const resources = [{ uri: 'skill://bulk/SKILL.md', digest: digest(0), size }];
  for (let index = 1; index < files; index++) resources.push({ uri: `skill://bulk/parts/part-${index}.txt`, digest: digest(index), size });
  return { uri: 'skill://bulk/SKILL.md', frontmatter: { name: 'bulk', description: 'Many files.' }, resources, ...extra };
}

test('SEP-2640 limits: a host accepts up to 512 files and 16 MiB, and says why it refuses beyond, from the entry alone', () => {
  assert.deepEqual({ ...SKILL_LIMITS }, { ...SDK_LIMITS }, "Atrium's limits are the SDK's");
  assert.equal(refusalOf(skill(512)), undefined);
  assert.equal(refusalOf(skill(513)), 'it has 513 files; Atrium loads skills of up to 512 files');
  assert.equal(refusalOf(skill(2, 8 * 1024 * 1024)), undefined, 'exactly 16 MiB');
  assert.equal(refusalOf(skill(2, 8 * 1024 * 1024 + 1)), 'its files come to 16,777,218 bytes; Atrium loads skills of up to 16,777,216 bytes (16 MiB)');
  assert.match(refusalOf(skill(1, 1, { resources: 'dynamic' })) ?? '', /cannot be checked/);
});

test('SEP-2640 content-bound approval: any file added, removed or changed is a change; the same set in another order is not', () => {
  const approved = [
    { uri: 'skill://bulk/SKILL.md', digest: digest(0) },
    { uri: 'skill://bulk/parts/part-1.txt', digest: digest(1) },
    { uri: 'skill://bulk/parts/part-2.txt', digest: digest(2) },
  ];
  assert.deepEqual(changeSince([...approved].reverse(), skill(3)), { added: [], removed: [], changed: [] });
  const now: Skill = { ...skill(3), resources: [{ uri: 'skill://bulk/SKILL.md', digest: digest(9), size: 1 }, { uri: 'skill://bulk/parts/part-1.txt', digest: digest(1), size: 1 }, { uri: 'skill://bulk/parts/new.txt', digest: digest(3), size: 1 }] };
  assert.deepEqual(changeSince(approved, now), { added: ['parts/new.txt'], removed: ['parts/part-2.txt'], changed: ['SKILL.md'] });
  const record = { serverId: 's', uri: 'skill://bulk/SKILL.md', files: approved, toolsGranted: [], approvedAt: 1 };
  assert.equal(approvalHolds(record, skill(3)), true);
  assert.equal(approvalHolds({ ...record, revokedAt: 2 }, skill(3)), false, 'a revoked approval does not hold again when the files come back');
  assert.equal(approvalHolds(record, now), false);
});

test('files are listed SKILL.md first, then by path, decoded', () => {
  const entry: Skill = {
    uri: 'skill://docs/SKILL.md',
    frontmatter: { name: 'docs', description: 'd' },
    resources: [
      { uri: 'skill://docs/z.md', digest: digest(1), size: 1 },
      { uri: 'skill://docs/Q%26A.md', digest: digest(2), size: 1 },
      { uri: 'skill://docs/SKILL.md', digest: digest(3), size: 1 },
    ],
  };
  const files = filesOf(entry);
  assert.deepEqual(files === 'dynamic' ? [] : files.map((file) => file.path), ['SKILL.md', 'Q&A.md', 'z.md']);
});

test("allowed-tools is read as the Agent Skills format writes it (space-separated) or as a list; anything else asks for nothing", () => {
  const entry = (value: unknown): Skill => ({ ...skill(1), frontmatter: { name: 'bulk', description: 'd', 'allowed-tools': value } });
  assert.deepEqual(allowedToolsOf(entry('note_order  Bash(git:*)')), ['note_order', 'Bash(git:*)']);
  assert.deepEqual(allowedToolsOf(entry(['note_order', 3, ''])), ['note_order']);
  assert.deepEqual(allowedToolsOf(entry({ all: true })), []);
});

test('frontmatter is compared field by field: key order does not count, array order and types do', () => {
  assert.equal(sameFrontmatter({ name: 'a', metadata: { x: '1', y: '2' } }, { metadata: { y: '2', x: '1' }, name: 'a' }), true);
  assert.equal(sameFrontmatter({ tags: ['a', 'b'] }, { tags: ['b', 'a'] }), false);
  assert.equal(sameFrontmatter({ version: 1 }, { version: '1' }), false);
  assert.equal(sameFrontmatter({ name: 'a' }, { name: 'a', extra: null }), false);
  assert.equal(sameFrontmatter(undefined, { name: 'a' }), false, 'nothing kept is no match');
});
