import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { openDatabase } from '../../store/database.ts';
import { historyMigrations, HistoryStore } from '../../store/historyStore.ts';
import { ConversationTaint, taintMigrations, taintOf, taintReason } from './conversationTaint.ts';

test('a mark made before other paths were counted reads back as a tool result, and the first mark is the one kept', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-taint-'));
  try {
    const file = join(dir, 'atrium.db');
    const before = openDatabase(file, [...historyMigrations, ...taintMigrations.slice(0, 1)]);
    const conversationId = new HistoryStore(before).createConversation({}).id;
    before.prepare("INSERT INTO conversation_taint (conversation_id, server_id, tool, why, tainted_at) VALUES (?, 'web', 'fetch', 'open-world', 5)").run(conversationId);
    before.close();

    const db = openDatabase(file, [...historyMigrations, ...taintMigrations]);
    const taint = new ConversationTaint(db);
    assert.deepEqual(taint.of(conversationId), { serverId: 'web', kind: 'tool', name: 'fetch', why: 'open-world', at: 5 });
    taint.mark(conversationId, { serverId: 'pasted', kind: 'resource', name: 'file:///a', why: 'untrusted' });
    assert.equal(taint.of(conversationId)?.serverId, 'web');
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("what counts as untrusted: any content of a server that is not trusted; of a trusted one, only an open-world tool's result", () => {
  const trusted = (serverId: string) => serverId === 'docs';
  const tool = (serverId: string, annotations?: object) => ({ kind: 'tool' as const, tool: { serverId, name: 't', modelName: `${serverId}__t`, inputSchema: {}, enabled: true, ...(annotations ? { annotations } : {}) } });
  assert.equal(taintOf(tool('docs', { readOnlyHint: true, openWorldHint: false }), trusted), undefined);
  assert.equal(taintOf(tool('docs', { readOnlyHint: true }), trusted)?.why, 'open-world', 'a missing openWorldHint means open-world');
  assert.equal(taintOf(tool('pasted', { readOnlyHint: true, openWorldHint: false }), trusted)?.why, 'untrusted', "an untrusted server's word does not make its text trusted");
  assert.equal(taintOf({ kind: 'resource', serverId: 'docs', name: 'file:///a' }, trusted), undefined);
  assert.deepEqual(taintOf({ kind: 'prompt', serverId: 'pasted', name: 'p' }, trusted), { kind: 'prompt', serverId: 'pasted', name: 'p', why: 'untrusted' });
});

test("a skill is untrusted whoever serves it (it is instructions by design), and its mark is kept across the migration that admits it", () => {
  assert.deepEqual(taintOf({ kind: 'skill', serverId: 'docs', name: 'refunds' }, () => true), { kind: 'skill', serverId: 'docs', name: 'refunds', why: 'untrusted' });
  const dir = mkdtempSync(join(tmpdir(), 'atrium-taint-'));
  try {
    const file = join(dir, 'atrium.db');
    const before = openDatabase(file, [...historyMigrations, ...taintMigrations.slice(0, 2)]);
    const history = new HistoryStore(before);
    const earlier = history.createConversation({}).id;
    new ConversationTaint(before).mark(earlier, { serverId: 'pasted', kind: 'prompt', name: 'p', why: 'untrusted' });
    before.close();

    const db = openDatabase(file, [...historyMigrations, ...taintMigrations]);
    const taint = new ConversationTaint(db);
    assert.deepEqual({ ...taint.of(earlier), at: 0 }, { serverId: 'pasted', kind: 'prompt', name: 'p', why: 'untrusted', at: 0 });
    const later = new HistoryStore(db).createConversation({}).id;
    taint.mark(later, { serverId: 'docs', kind: 'skill', name: 'refunds', why: 'untrusted' });
    const skill = taint.of(later);
    assert.equal(skill?.kind, 'skill');
    if (skill) assert.equal(taintReason(skill), 'this conversation holds the skill “refunds” of docs (skills are not trusted, whoever serves them), which may carry instructions');
    new HistoryStore(db).deleteConversation(later);
    assert.equal(taint.of(later), undefined, 'the mark goes with its conversation');
    db.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
