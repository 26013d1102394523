import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from '../../store/database.ts';
import { AUDIT_STRING_LIMIT, AuditLog, auditMigrations } from './auditLog.ts';
import { REDACTED } from '../../redactSecrets.ts';

function freshLog() {
  const db = openDatabase(':memory:', auditMigrations);
  return { db, log: new AuditLog(db) };
}

test('entries are appended and listed newest first, with every field', () => {
  const { log } = freshLog();
  log.append({ at: 1, serverId: 'fs', tool: 'read_file', arguments: { path: '/a' }, decision: 'allow', decidedBy: 'policy', outcome: 'allowed', callId: 'c1', conversationId: 'k' });
  log.append({ at: 2, serverId: 'fs', tool: 'read_file', arguments: { path: '/a' }, decision: 'allow', decidedBy: 'policy', durationMs: 12.4, outcome: 'ok', callId: 'c1', conversationId: 'k' });
  log.append({ at: 3, serverId: 'gh', tool: 'delete_repo', arguments: { repo: 'x' }, decision: 'deny', decidedBy: 'person', outcome: 'denied', detail: 'not now' });
  const all = log.list({ limit: 10 });
  assert.deepEqual(all.map((e) => [e.seq, e.tool, e.outcome]), [[3, 'delete_repo', 'denied'], [2, 'read_file', 'ok'], [1, 'read_file', 'allowed']]);
  assert.deepEqual(all[1], { seq: 2, at: 2, serverId: 'fs', tool: 'read_file', arguments: { path: '/a' }, decision: 'allow', decidedBy: 'policy', durationMs: 12, outcome: 'ok', callId: 'c1', conversationId: 'k' });
  assert.deepEqual(all[0], { seq: 3, at: 3, serverId: 'gh', tool: 'delete_repo', arguments: { repo: 'x' }, decision: 'deny', decidedBy: 'person', outcome: 'denied', detail: 'not now' });
  assert.deepEqual(log.list({ limit: 10, serverId: 'gh' }).map((e) => e.seq), [3]);
  assert.deepEqual(log.list({ limit: 1 }).map((e) => e.seq), [3]);
  assert.deepEqual(log.list({ limit: 10, conversationId: 'k' }).map((e) => e.seq), [2, 1]);
});

test('the audit log is append-only: UPDATE and DELETE raise, even from raw SQL', () => {
  const { db, log } = freshLog();
  log.append({ at: 1, serverId: 'fs', tool: 'write_file', arguments: {}, decision: 'allow', decidedBy: 'grant', outcome: 'allowed' });
  assert.throws(() => db.prepare("UPDATE audit_log SET decision = 'deny'").run(), /append-only/);
  assert.throws(() => db.prepare('DELETE FROM audit_log').run(), /append-only/);
  assert.throws(() => db.exec("INSERT OR REPLACE INTO audit_log (seq, at, server_id, tool, arguments, decision, decided_by, outcome) VALUES (1, 9, 'x', 'y', '{}', 'deny', 'person', 'denied')"), /append-only/);
  assert.throws(() => db.exec("INSERT INTO audit_log (seq, at, server_id, tool, arguments, decision, decided_by, outcome) VALUES (1, 9, 'x', 'y', '{}', 'deny', 'person', 'denied') ON CONFLICT (seq) DO UPDATE SET decision = 'deny'"), /append-only/);
  assert.deepEqual(log.list({ limit: 10 }).map((e) => [e.seq, e.decision]), [[1, 'allow']]);
});

test('invalid values are refused by the table itself', () => {
  const { db } = freshLog();
  assert.throws(() => db.exec("INSERT INTO audit_log (at, server_id, tool, arguments, decision, decided_by, outcome) VALUES (1, 'x', 'y', '{}', 'maybe', 'person', 'denied')"));
});

test('arguments and detail are stored with secrets redacted', () => {
  const { db, log } = freshLog();
  log.append({
    at: 1,
    serverId: 'http',
    tool: 'fetch',
    arguments: { url: 'https://u:pw@x.test/', headers: { Authorization: 'Bearer abc123def456ghi789' }, body: [{ token: 'T' }] },
    decision: 'allow',
    decidedBy: 'person',
    outcome: 'error',
    detail: 'request with key sk-proj-abcdefghijklmnop1234 failed',
  });
  const raw = db.prepare('SELECT arguments, detail FROM audit_log').get() as { arguments: string; detail: string };
  assert.ok(!raw.arguments.includes('abc123def456ghi789') && !raw.arguments.includes('pw@') && !raw.arguments.includes('"T"'));
  assert.deepEqual(JSON.parse(raw.arguments), { url: `https://u:${REDACTED}@x.test/`, headers: { Authorization: REDACTED }, body: [{ token: REDACTED }] });
  assert.equal(raw.detail, `request with key ${REDACTED} failed`);
});

test('long strings are shortened; missing arguments are stored as null', () => {
  const { log } = freshLog();
  const content = 'x'.repeat(AUDIT_STRING_LIMIT + 10);
  log.append({ at: 1, serverId: 'fs', tool: 'write_file', arguments: { content }, decision: 'allow', decidedBy: 'person', outcome: 'ok' });
  log.append({ at: 2, serverId: 'fs', tool: 'list', arguments: undefined, decision: 'allow', decidedBy: 'policy', outcome: 'ok' });
  const [second, first] = log.list({ limit: 2 });
  assert.equal(second?.arguments, null);
  assert.deepEqual(first?.arguments, { content: `${'x'.repeat(AUDIT_STRING_LIMIT)}…[10 more characters]` });
});
