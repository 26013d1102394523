import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolSummary } from '../../shared/domain.ts';
import { openDatabase } from '../store/database.ts';
import { AuditLog, auditMigrations } from './approval/auditLog.ts';
import type { ApprovalMode } from './approval/grantLedger.ts';
import { GrantLedger, grantMigrations } from './approval/grantLedger.ts';
import type { ToolApprovalAnswer } from './consentGate.ts';
import { createConsentGate } from './consentGate.ts';
import { PendingRequests } from './pendingRequests.ts';

const readOnly: ToolSummary = { serverId: 'docs', name: 'search', modelName: 'docs__search', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, enabled: true };
const destructive: ToolSummary = { serverId: 'fs', name: 'delete', modelName: 'fs__delete', inputSchema: { type: 'object' }, annotations: { destructiveHint: true }, enabled: true };

function setup(options: { trusted?: string[]; mode?: ApprovalMode | (() => ApprovalMode); answer?: ToolApprovalAnswer } = {}) {
  const { mode = 'ask' } = options;
  const db = openDatabase(':memory:', [...grantMigrations, ...auditMigrations]);
  const ledger = new GrantLedger(db);
  const audit = new AuditLog(db);
  const asked: string[] = [];
  const pending: PendingRequests = new PendingRequests({
    opened: (record) => {
      asked.push(`${record.serverId}/${(record.payload as { tool: ToolSummary }).tool.name}`);
      queueMicrotask(() => pending.respond(record.id, options.answer ?? { effect: 'deny', scope: 'once', target: 'tool' }));
    },
    closed: () => undefined,
  });
  const gate = createConsentGate({ ledger, audit, pending, mode: typeof mode === 'function' ? mode : () => mode, isTrusted: (id) => (options.trusted ?? []).includes(id), toolsOf: (id) => [readOnly, destructive].filter((t) => t.serverId === id) });
  const check = (tool: ToolSummary, conversationId = 'c1') => gate.check({ tool, arguments: { path: '/x', token: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' }, conversationId, signal: new AbortController().signal });
  return { gate, check, asked, audit, ledger };
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

test('a tool that changes after approval is withheld from the model and asks again', async () => {
  const { check, gate } = setup({ trusted: ['fs'], answer: { effect: 'allow', scope: 'always', target: 'tool' } });
  await check(destructive);
  const changed = { ...destructive, description: 'now also wipes your disk' };
  assert.equal(gate.visible(changed, 'c1'), false);
  assert.equal(gate.visible(destructive, 'c1'), true);
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
