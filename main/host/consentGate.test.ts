import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolSummary } from '../../shared/domain.ts';
import { openDatabase } from '../store/database.ts';
import { AuditLog, auditMigrations } from './approval/auditLog.ts';
import type { ApprovalMode } from './approval/grantLedger.ts';
import { GrantLedger, grantMigrations } from './approval/grantLedger.ts';
import { ConversationTaint, taintMigrations } from './approval/conversationTaint.ts';
import { historyMigrations, HistoryStore } from '../store/historyStore.ts';
import type { ToolApprovalAnswer, ToolApprovalPayload } from './consentGate.ts';
import { createConsentGate } from './consentGate.ts';
import { PendingRequests } from './pendingRequests.ts';

const readOnly: ToolSummary = { serverId: 'docs', name: 'search', modelName: 'docs__search', inputSchema: { type: 'object' }, annotations: { readOnlyHint: true }, enabled: true };
const destructive: ToolSummary = { serverId: 'fs', name: 'delete', modelName: 'fs__delete', inputSchema: { type: 'object' }, annotations: { destructiveHint: true }, enabled: true };

const echo: ToolSummary = {
  serverId: 'pasted',
  name: 'echo',
  modelName: 'pasted__echo',
  inputSchema: { type: 'object' },
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  enabled: true,
};
const peek: ToolSummary = { ...echo, name: 'peek', modelName: 'pasted__peek' };
const wipe: ToolSummary = { serverId: 'pasted', name: 'wipe', modelName: 'pasted__wipe', inputSchema: { type: 'object' }, annotations: { destructiveHint: true, openWorldHint: false }, enabled: true };
const allTools = (): ToolSummary[] => [readOnly, destructive, echo, peek, wipe];

type Answering = ToolApprovalAnswer | ((payload: ToolApprovalPayload) => ToolApprovalAnswer);

function setup(options: { trusted?: string[]; mode?: ApprovalMode | (() => ApprovalMode); answer?: Answering } = {}) {
  const { mode = 'ask' } = options;
  const db = openDatabase(':memory:', [...historyMigrations, ...grantMigrations, ...auditMigrations, ...taintMigrations]);
  const history = new HistoryStore(db);
  const ledger = new GrantLedger(db);
  const taint = new ConversationTaint(db);
  const audit = new AuditLog(db);
  const asked: string[] = [];
  const reasons: string[] = [];
  const payloads: ToolApprovalPayload[] = [];
  const pending: PendingRequests = new PendingRequests({
    opened: (record) => {
      const payload = record.payload as ToolApprovalPayload;
      asked.push(`${record.serverId}/${payload.tool.name}`);
      reasons.push(payload.reason);
      payloads.push(payload);
      const answer = options.answer ?? { effect: 'deny', scope: 'once', target: 'tool' };
      queueMicrotask(() => pending.respond(record.id, typeof answer === 'function' ? answer(payload) : answer));
    },
    closed: () => undefined,
  });
  const gate = createConsentGate({ ledger, audit, pending, taint, mode: typeof mode === 'function' ? mode : () => mode, isTrusted: (id) => (options.trusted ?? []).includes(id), toolsOf: (id) => allTools().filter((t) => t.serverId === id) });
  const check = (tool: ToolSummary, conversationId = 'c1') => gate.check({ tool, arguments: { path: '/x', token: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789' }, conversationId, signal: new AbortController().signal });
  return { gate, check, asked, reasons, payloads, audit, ledger, history };
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
  gate.tookIn({ kind: 'tool', tool: notes }, c1);
  assert.deepEqual((await check(destructive, c1)).decidedBy, 'grant', 'a closed-world result of a trusted server does not raise the bar');
  gate.tookIn({ kind: 'tool', tool: web }, c1);
  assert.deepEqual([(await check(destructive, c1)).decidedBy, asked.length], ['person', 2]);
  assert.equal(reasons[1], 'this conversation holds what web/fetch returned (a tool that reads from beyond this computer), which may carry instructions');
  assert.deepEqual((await check(destructive, c2)).decidedBy, 'grant', 'another conversation is not affected');
  assert.deepEqual((await check(notes, c1)).decidedBy, 'policy', 'a read-only closed-world tool still runs');
  assert.deepEqual((await check(web, c1)).decidedBy, 'person', 'an open-world tool asks too');
});

test("an untrusted server's result raises the bar, and its tools' annotations are not believed", async () => {
  const { check, gate, asked, history } = setup({ trusted: ['fs'], answer: { effect: 'allow', scope: 'once', target: 'tool' } });
  const c1 = history.createConversation({}).id;
  gate.tookIn({ kind: 'tool', tool: notes }, c1);
  const decision = await check(destructive, c1);
  assert.deepEqual([decision.decidedBy, asked], ['person', ['fs/delete']]);
});

test('in a tainted conversation --approve readonly denies an open-world read-only tool it cannot ask about; --approve all still allows', async () => {
  let mode: ApprovalMode = 'readonly';
  const { check, gate, history } = setup({ trusted: ['web'], mode: () => mode });
  const c1 = history.createConversation({}).id;
  assert.equal((await check(web, c1)).allowed, true);
  gate.tookIn({ kind: 'tool', tool: web }, c1);
  const denied = await check(web, c1);
  assert.deepEqual([denied.allowed, denied.decidedBy], [false, 'mode']);
  assert.match(denied.reason, /holds what web\/fetch returned/);
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
  gate.tookIn({ kind: 'tool', tool: readOnly }, c1); // an untrusted server's result: the conversation is marked
  const fromView = { serverId: 'docs', tool: 'show' };
  const viewCall = () => gate.check({ tool: readOnly, arguments: {}, conversationId: c1, signal: new AbortController().signal, fromView });
  assert.deepEqual([(await viewCall()).decidedBy, asked], ['person', ['docs/search']]);
  assert.deepEqual([(await viewCall()).decidedBy, asked.length], ['grant', 1]);
  assert.match(audit.list({ limit: 1 })[0]?.detail ?? '', /asked by the view of docs\/show/);
  // The model's own call in the same marked conversation still asks, whatever was granted.
  await gate.check({ tool: readOnly, arguments: {}, conversationId: c1, signal: new AbortController().signal });
  assert.equal(asked.length, 2);
});

// ── the person's answers mean what they say ───────────────────────────────────────────────────────────

test("a pasted server's read-only, closed-world tool allowed “always” does not ask again after its own result; a destructive one allowed always does, naming the source", async () => {
  const { check, gate, asked, payloads, history } = setup({ answer: { effect: 'allow', scope: 'always', target: 'tool' } });
  const c1 = history.createConversation({}).id;
  assert.equal((await check(echo, c1)).decidedBy, 'person');
  assert.equal(payloads[0]?.keepsAfterUntrusted, true, 'the question says, before the answer, that “always” holds after untrusted content');
  gate.tookIn({ kind: 'tool', tool: echo }, c1);
  assert.deepEqual([(await check(echo, c1)).decidedBy, (await check(echo, c1)).decidedBy], ['grant', 'grant']);
  assert.deepEqual(asked, ['pasted/echo']);

  const c2 = history.createConversation({}).id;
  assert.equal((await check(wipe, c2)).decidedBy, 'person');
  assert.equal(payloads[1]?.keepsAfterUntrusted, false, 'the question says, before the answer, that “always” gives way to untrusted content');
  assert.equal((await check(wipe, c2)).decidedBy, 'grant');
  gate.tookIn({ kind: 'tool', tool: echo }, c2);
  const raised = await check(wipe, c2);
  assert.deepEqual([raised.decidedBy, asked.length], ['person', 3]);
  assert.deepEqual(payloads[2]?.raisedBy, { serverId: 'pasted', kind: 'tool', name: 'echo', why: 'untrusted' });
  assert.equal(payloads[2]?.reason, 'this conversation holds what pasted/echo returned (a server you do not trust), which may carry instructions');
});

test('“Allow in this conversation” holds there for a read-only, closed-world tool after untrusted content, and the question about it is not raised', async () => {
  const { check, gate, asked, payloads, history } = setup({ answer: { effect: 'allow', scope: 'conversation', target: 'tool' } });
  const c1 = history.createConversation({}).id;
  gate.tookIn({ kind: 'tool', tool: readOnly }, c1);
  assert.equal((await check(echo, c1)).decidedBy, 'person');
  assert.equal(payloads[0]?.raisedBy, undefined, 'no red warning: the answer it asks for will hold');
  assert.deepEqual(payloads[0]?.untrustedContent, { serverId: 'docs', kind: 'tool', name: 'search', why: 'untrusted' }, 'what the conversation holds is said');
  gate.tookIn({ kind: 'tool', tool: echo }, c1);
  assert.deepEqual([(await check(echo, c1)).decidedBy, asked], ['grant', ['pasted/echo']]);
  assert.equal((await check(echo, history.createConversation({}).id)).decidedBy, 'person', 'not in another conversation');
});

test('untrusted content by any path — an attached resource, a prompt, a view’s report — makes a destructive tool allowed “always” ask, naming it; a trusted server’s does not', async () => {
  const { check, gate, asked, reasons, history } = setup({ trusted: ['fs', 'docs'], answer: { effect: 'allow', scope: 'always', target: 'tool' } });
  await check(destructive, history.createConversation({}).id);
  const paths = [
    { content: { kind: 'resource' as const, serverId: 'pasted', name: 'file:///notes.txt' }, said: 'the resource file:///notes.txt of pasted (a server you do not trust)' },
    { content: { kind: 'prompt' as const, serverId: 'pasted', name: 'summarise' }, said: 'the prompt “summarise” of pasted (a server you do not trust)' },
    { content: { kind: 'view' as const, serverId: 'pasted', name: 'chart' }, said: 'what the view of pasted/chart reported (a server you do not trust)' },
  ];
  for (const { content, said } of paths) {
    const trustedOnly = history.createConversation({}).id;
    gate.tookIn({ ...content, serverId: 'docs' }, trustedOnly);
    assert.equal((await check(destructive, trustedOnly)).decidedBy, 'grant', `a trusted server's ${content.kind} does not raise the bar`);
    const conversation = history.createConversation({}).id;
    gate.tookIn(content, conversation);
    const before = asked.length;
    assert.equal((await check(destructive, conversation)).decidedBy, 'person', `after an untrusted ${content.kind}`);
    assert.equal(asked.length, before + 1);
    assert.equal(reasons.at(-1), `this conversation holds ${said}, which may carry instructions`);
  }
});

test('“its read-only tools without asking” covers the read-only tools the server lists, not the others, and holds after untrusted content for the closed-world ones', async () => {
  const { check, gate, asked, ledger, history } = setup({ answer: { effect: 'allow', scope: 'always', target: 'read-only-tools' } });
  const c1 = history.createConversation({}).id;
  assert.equal((await check(echo, c1)).decidedBy, 'person');
  const [grant] = ledger.list();
  assert.deepEqual([grant?.target, Object.keys(grant?.fingerprints ?? {}).sort()], [{ serverId: 'pasted', only: 'read-only' }, ['echo', 'peek']]);
  gate.tookIn({ kind: 'tool', tool: echo }, c1);
  assert.deepEqual([(await check(peek, c1)).decidedBy, asked], ['grant', ['pasted/echo']]);
  assert.equal((await check(wipe, c1)).decidedBy, 'person', 'a tool that is not read-only still asks');
});

test('several calls of one step: the question lists the later ones that ask too, and one answer decides them all, each as it was shown', async () => {
  const { gate, asked, payloads, history, audit } = setup({ trusted: ['docs'], answer: { effect: 'allow', scope: 'step', target: 'tool' } });
  const c1 = history.createConversation({}).id;
  const later = [
    { callId: 'call-2', tool: wipe, arguments: { path: '/tmp/a' } },
    { callId: 'call-3', tool: notes, arguments: {} }, // a trusted read-only tool runs anyway: not listed
    { callId: 'call-4', tool: wipe, arguments: { path: '/tmp/b' } },
  ];
  const step = (index: number) => ({ id: 'message-1', later: async () => later.slice(index) });
  const call = (callId: string, tool: ToolSummary, args: Record<string, unknown>, index: number) => gate.check({ tool, arguments: args, conversationId: c1, signal: new AbortController().signal, callId, step: step(index) });
  assert.equal((await call('call-1', echo, { text: 'hi' }, 0)).allowed, true);
  assert.deepEqual(payloads[0]?.alongside?.map((a) => [a.callId, a.tool.name, a.arguments]), [['call-2', 'wipe', { path: '/tmp/a' }], ['call-4', 'wipe', { path: '/tmp/b' }]]);
  const second = await call('call-2', wipe, { path: '/tmp/a' }, 1);
  assert.deepEqual([second.allowed, second.decidedBy], [true, 'person']);
  assert.match(audit.list({ limit: 1 })[0]?.detail ?? '', /with the other calls of this step/);
  assert.equal((await call('call-3', notes, {}, 2)).decidedBy, 'policy');
  // Not what the person saw: other arguments under the same call id ask.
  assert.equal((await call('call-4', wipe, { path: '/home' }, 3)).decidedBy, 'person');
  assert.deepEqual(asked, ['pasted/echo', 'pasted/wipe']);
  // The answer was for that step only.
  await gate.check({ tool: wipe, arguments: { path: '/tmp/a' }, conversationId: c1, signal: new AbortController().signal, callId: 'call-2', step: { id: 'message-2', later: async () => [] } });
  assert.equal(asked.length, 3);
});
