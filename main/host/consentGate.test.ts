import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolSummary } from '../../shared/domain.ts';
import { openDatabase } from '../store/database.ts';
import { AuditLog, auditMigrations } from './approval/auditLog.ts';
import type { ApprovalMode } from './approval/grantLedger.ts';
import { GrantLedger, grantMigrations } from './approval/grantLedger.ts';
import { ConversationTaint, taintMigrations } from './approval/conversationTaint.ts';
import { historyMigrations, HistoryStore } from '../store/historyStore.ts';
import type { ToolApprovalAnswer } from './consentGate.ts';
import { createConsentGate } from './consentGate.ts';
import { PendingRequests } from './pendingRequests.ts';

const readOnly: ToolSummary = { serverId: 'docs', name: 'search', modelName: 'docs__search', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, enabled: true };
const destructive: ToolSummary = { serverId: 'fs', name: 'delete', modelName: 'fs__delete', inputSchema: { type: 'object' }, annotations: { destructiveHint: true }, enabled: true };

function setup(options: { trusted?: string[]; mode?: ApprovalMode | (() => ApprovalMode); answer?: ToolApprovalAnswer } = {}) {
  const { mode = 'ask' } = options;
  const db = openDatabase(':memory:', [...historyMigrations, ...grantMigrations, ...auditMigrations, ...taintMigrations]);
  const history = new HistoryStore(db);
  const ledger = new GrantLedger(db);
  const taint = new ConversationTaint(db);
  const audit = new AuditLog(db);
  const asked: string[] = [];
  const reasons: string[] = [];
  const pending: PendingRequests = new PendingRequests({
    opened: (record) => {
      asked.push(`${record.serverId}/${(record.payload as { tool: ToolSummary }).tool.name}`);
      reasons.push((record.payload as { reason: string }).reason);
      queueMicrotask(() => pending.respond(record.id, options.answer ?? { effect: 'deny', scope: 'once', target: 'tool' }));
    },
    closed: () => undefined,
  });
  const gate = createConsentGate({ ledger, audit, pending, taint, mode: typeof mode === 'function' ? mode : () => mode, isTrusted: (id) => (options.trusted ?? []).includes(id), toolsOf: (id) => [readOnly, destructive].filter((t) => t.serverId === id) });
  const check = (tool: ToolSummary, conversationId = 'c1') => gate.check({ tool, arguments: { path: '/x', token: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' }, conversationId, signal: new AbortController().signal });
  return { gate, check, asked, reasons, audit, ledger, history };
}

test('a trusted read-only tool is allowed without asking', async () => {
  const { check, asked } = setup({ trusted: ['docs'] });
  const decision = await check(readOnly);
  assert.deepEqual([decision.allowed, decision.decidedBy], [true, 'policy']);
  assert.deepEqual(asked, []);
});

test("a lying untrusted server's read-only annotation is not believed: the person is asked", async () => {
  const { check, asked } = setup();
  assert.equal((await check(readOnly)).allowed, false);
  assert.deepEqual(asked, ['docs/search']);
});

test('a destructive tool asks; "always allow" becomes a grant, so the next call does not ask', async () => {
  const { check, asked } = setup({ trusted: ['fs'], answer: { effect: 'allow', scope: 'always', target: 'tool' } });
  assert.equal((await check(destructive)).allowed, true);
  const second = await check(destructive, 'another conversation');
  assert.deepEqual([second.allowed, second.decidedBy], [true, 'grant']);
  assert.deepEqual(asked, ['fs/delete']);
});

const web: ToolSummary = { serverId: 'web', name: 'fetch', modelName: 'web__fetch', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: true }, enabled: true };
const notes: ToolSummary = { serverId: 'docs', name: 'notes', modelName: 'docs__notes', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true, openWorldHint: false }, enabled: true };

test('after an open-world result, a destructive tool allowed "always" asks again in that conversation only, saying why', async () => {
  const { check, gate, asked, reasons, history } = setup({ trusted: ['fs', 'web', 'docs'], answer: { effect: 'allow', scope: 'always', target: 'tool' } });
  const c1 = history.createConversation({}).id;
  const c2 = history.createConversation({}).id;
  await check(destructive, c1);
  assert.deepEqual((await check(destructive, c1)).decidedBy, 'grant');
  gate.tookIn(notes, c1);
  assert.deepEqual((await check(destructive, c1)).decidedBy, 'grant', 'a closed-world result of a trusted server does not raise the bar');
  gate.tookIn(web, c1);
  assert.deepEqual([(await check(destructive, c1)).decidedBy, asked.length], ['person', 2]);
  assert.equal(reasons[1], 'this conversation has read content from web/fetch, which may carry instructions');
  assert.deepEqual((await check(destructive, c2)).decidedBy, 'grant', 'another conversation is not affected');
  assert.deepEqual((await check(notes, c1)).decidedBy, 'policy', 'a read-only closed-world tool still runs');
  assert.deepEqual((await check(web, c1)).decidedBy, 'person', 'an open-world tool asks too');
});

test("an untrusted server's result raises the bar, and its tools' annotations are not believed", async () => {
  const { check, gate, asked, history } = setup({ trusted: ['fs'], answer: { effect: 'allow', scope: 'once', target: 'tool' } });
  const c1 = history.createConversation({}).id;
  gate.tookIn(notes, c1);
  const decision = await check(destructive, c1);
  assert.deepEqual([decision.decidedBy, asked], ['person', ['fs/delete']]);
});

test('in a tainted conversation --approve readonly denies an open-world read-only tool it cannot ask about; --approve all still allows', async () => {
  let mode: ApprovalMode = 'readonly';
  const { check, gate, history } = setup({ trusted: ['web'], mode: () => mode });
  const c1 = history.createConversation({}).id;
  assert.equal((await check(web, c1)).allowed, true);
  gate.tookIn(web, c1);
  const denied = await check(web, c1);
  assert.deepEqual([denied.allowed, denied.decidedBy], [false, 'mode']);
  assert.match(denied.reason, /read content from web\/fetch/);
  mode = 'all';
  assert.equal((await check(web, c1)).allowed, true);
});

test('every decision is in the audit log, with secrets in the arguments redacted', async () => {
  const { check, audit } = setup({ mode: 'none' });
  await check(destructive);
  const [entry] = audit.list({ limit: 10 });
  assert.equal(entry?.decision, 'deny');
  assert.equal(entry?.decidedBy, 'mode');
  assert.deepEqual(entry?.arguments, { path: '/x', token: '[redacted]' });
});

test('the mode is read at every call: "ask for every call" chosen meanwhile asks for a trusted read-only tool', async () => {
  let mode: ApprovalMode = 'ask';
  const { check, asked } = setup({ trusted: ['docs'], mode: () => mode, answer: { effect: 'allow', scope: 'once', target: 'tool' } });
  assert.deepEqual([(await check(readOnly)).decidedBy, asked], ['policy', []]);
  mode = 'ask-every';
  const second = await check(readOnly);
  assert.deepEqual([second.allowed, second.decidedBy, asked], [true, 'person', ['docs/search']]);
  mode = 'none';
  assert.deepEqual([(await check(readOnly)).allowed, asked.length], [false, 1]);
});

test('MCP Apps: a view’s call is asked as the view’s, and a conversation grant holds for it after untrusted content (the raised bar is for the model’s calls)', async () => {
  const { gate, history, asked, audit } = setup({ answer: { effect: 'allow', scope: 'conversation', target: 'tool' } });
  const c1 = history.createConversation({}).id;
  gate.tookIn(readOnly, c1); // an untrusted server's result: the conversation is marked
  const fromView = { serverId: 'docs', tool: 'show' };
  const viewCall = () => gate.check({ tool: readOnly, arguments: {}, conversationId: c1, signal: new AbortController().signal, fromView });
  assert.deepEqual([(await viewCall()).decidedBy, asked], ['person', ['docs/search']]);
  assert.deepEqual([(await viewCall()).decidedBy, asked.length], ['grant', 1]);
  assert.match(audit.list({ limit: 1 })[0]?.detail ?? '', /asked by the view of docs\/show/);
  // The model's own call in the same marked conversation still asks, whatever was granted.
  await gate.check({ tool: readOnly, arguments: {}, conversationId: c1, signal: new AbortController().signal });
  assert.equal(asked.length, 2);
});
