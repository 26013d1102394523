import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { ToolSummary } from '../../../shared/domain.ts';
import { openDatabase } from '../../store/database.ts';
import { GrantLedger, grantMigrations } from './grantLedger.ts';

function tool(name: string, overrides: Partial<ToolSummary> = {}): ToolSummary {
  return {
    serverId: 'fs',
    name,
    modelName: `fs__${name}`,
    description: `does ${name}`,
    inputSchema: { type: 'object', properties: { path: { type: 'string' } } },
    annotations: { destructiveHint: true, openWorldHint: false },
    enabled: true,
    ...overrides,
  };
}

function freshLedger() {
  let clock = 1000;
  const db = openDatabase(':memory:', grantMigrations);
  return new GrantLedger(db, { now: () => ++clock });
}

const write = tool('write_file');
const read = tool('read_file', { annotations: { readOnlyHint: true, openWorldHint: false } });
const conv = 'conv-1';

test('without grants the annotation policy decides', () => {
  const ledger = freshLedger();
  assert.deepEqual(ledger.decide({ tool: write, serverTrusted: true, conversationId: conv }), {
    kind: 'ask', by: 'policy', reason: 'destructive tool of a trusted server', elevated: false, record: true, changedSinceApproval: false,
  });
  assert.equal(ledger.decide({ tool: read, serverTrusted: true, conversationId: conv }).kind, 'allow');
  assert.equal(ledger.decide({ tool: read, serverTrusted: false, conversationId: conv }).kind, 'ask');
});

test('a once grant answers one call in its conversation and is spent by consumeOnce', () => {
  const ledger = freshLedger();
  const grant = ledger.grant({ scope: 'once', effect: 'allow', subject: { tool: write }, conversationId: conv });
  assert.equal(ledger.decide({ tool: write, serverTrusted: true, conversationId: 'conv-2' }).kind, 'ask', 'not in another conversation');
  const decision = ledger.decide({ tool: write, serverTrusted: true, conversationId: conv });
  assert.deepEqual([decision.kind, decision.by, decision.grantId, decision.grantScope], ['allow', 'grant', grant.id, 'once']);
  assert.equal(ledger.consumeOnce(grant.id), true);
  assert.equal(ledger.consumeOnce(grant.id), false, 'a parallel call cannot spend it again');
  assert.equal(ledger.decide({ tool: write, serverTrusted: true, conversationId: conv }).kind, 'ask');
});

test('a once grant is preferred over a broader one so that the call spends it', () => {
  const ledger = freshLedger();
  ledger.grant({ scope: 'always', effect: 'allow', subject: { tool: write } });
  const once = ledger.grant({ scope: 'once', effect: 'allow', subject: { tool: write }, conversationId: conv });
  assert.equal(ledger.decide({ tool: write, serverTrusted: true, conversationId: conv }).grantId, once.id);
});

test('a conversation grant applies in its conversation only, and goes with forgetConversation', () => {
  const ledger = freshLedger();
  ledger.grant({ scope: 'conversation', effect: 'allow', subject: { tool: write }, conversationId: conv });
  assert.equal(ledger.decide({ tool: write, serverTrusted: true, conversationId: conv }).kind, 'allow');
  assert.equal(ledger.decide({ tool: write, serverTrusted: true, conversationId: 'conv-2' }).kind, 'ask');
  ledger.forgetConversation(conv);
  assert.equal(ledger.decide({ tool: write, serverTrusted: true, conversationId: conv }).kind, 'ask');
  assert.deepEqual(ledger.list(), []);
});

test('once and conversation grants need a conversation', () => {
  const ledger = freshLedger();
  assert.throws(() => ledger.grant({ scope: 'conversation', effect: 'allow', subject: { tool: write } }), /conversation/);
  assert.throws(() => ledger.grant({ scope: 'once', effect: 'deny', subject: { tool: write } }), /conversation/);
});

test('always and conversation grants survive reopening the database file; once grants do not', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-grants-'));
  try {
    const file = join(dir, 'atrium.db');
    const db1 = openDatabase(file, grantMigrations);
    const first = new GrantLedger(db1);
    const always = first.grant({ scope: 'always', effect: 'allow', subject: { tool: write } });
    const inConv = first.grant({ scope: 'conversation', effect: 'deny', subject: { serverId: 'web', tools: [] }, conversationId: conv });
    first.grant({ scope: 'once', effect: 'allow', subject: { tool: read }, conversationId: conv });
    db1.close();

    const db2 = openDatabase(file, grantMigrations);
    const second = new GrantLedger(db2);
    assert.deepEqual(second.list().map((g) => g.id).sort(), [always.id, inConv.id].sort());
    assert.deepEqual(second.list().find((g) => g.id === always.id), always);
    const decision = second.decide({ tool: write, serverTrusted: true, conversationId: 'any' });
    assert.deepEqual([decision.kind, decision.by, decision.grantId], ['allow', 'grant', always.id]);
    db2.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('revoke removes a grant of any scope', () => {
  const ledger = freshLedger();
  const always = ledger.grant({ scope: 'always', effect: 'allow', subject: { tool: write } });
  const once = ledger.grant({ scope: 'once', effect: 'allow', subject: { tool: read }, conversationId: conv });
  assert.equal(ledger.list().length, 2);
  assert.equal(ledger.revoke(always.id), true);
  assert.equal(ledger.revoke(once.id), true);
  assert.equal(ledger.revoke(always.id), false);
  assert.deepEqual(ledger.list(), []);
  assert.equal(ledger.decide({ tool: write, serverTrusted: true, conversationId: conv }).by, 'policy');
});

test('a new answer replaces the earlier one for the same tool, scope and conversation', () => {
  const ledger = freshLedger();
  ledger.grant({ scope: 'always', effect: 'allow', subject: { tool: write } });
  const deny = ledger.grant({ scope: 'always', effect: 'deny', subject: { tool: write } });
  assert.deepEqual(ledger.list().map((g) => g.id), [deny.id]);
});

test('list filters by server and conversation; always grants belong to every conversation', () => {
  const ledger = freshLedger();
  const a = ledger.grant({ scope: 'always', effect: 'allow', subject: { tool: write } });
  const b = ledger.grant({ scope: 'conversation', effect: 'allow', subject: { tool: read }, conversationId: conv });
  const c = ledger.grant({ scope: 'always', effect: 'deny', subject: { serverId: 'web', tools: [] } });
  assert.deepEqual(ledger.list().map((g) => g.id), [c.id, b.id, a.id]);
  assert.deepEqual(ledger.list({ serverId: 'fs' }).map((g) => g.id), [b.id, a.id]);
  assert.deepEqual(ledger.list({ conversationId: 'other' }).map((g) => g.id), [c.id, a.id]);
});

test('precedence: deny beats allow at the same level', () => {
  const ledger = freshLedger();
  ledger.grant({ scope: 'always', effect: 'allow', subject: { tool: write } });
  const deny = ledger.grant({ scope: 'conversation', effect: 'deny', subject: { tool: write }, conversationId: conv });
  const decision = ledger.decide({ tool: write, serverTrusted: true, conversationId: conv });
  assert.deepEqual([decision.kind, decision.grantId], ['deny', deny.id]);

  const servers = freshLedger();
  servers.grant({ scope: 'always', effect: 'allow', subject: { serverId: 'fs', tools: [write, read] } });
  servers.grant({ scope: 'conversation', effect: 'deny', subject: { serverId: 'fs', tools: [] }, conversationId: conv });
  assert.equal(servers.decide({ tool: write, serverTrusted: true, conversationId: conv }).kind, 'deny');
  assert.equal(servers.decide({ tool: write, serverTrusted: true, conversationId: 'conv-2' }).kind, 'allow');
});

test('precedence: a per-tool answer beats a per-server one, in both directions', () => {
  const ledger = freshLedger();
  ledger.grant({ scope: 'always', effect: 'deny', subject: { serverId: 'fs', tools: [write, read] } });
  const allowOne = ledger.grant({ scope: 'always', effect: 'allow', subject: { tool: read } });
  assert.deepEqual([ledger.decide({ tool: read, serverTrusted: true, conversationId: conv }).kind, ledger.decide({ tool: read, serverTrusted: true, conversationId: conv }).grantId], ['allow', allowOne.id]);
  assert.equal(ledger.decide({ tool: write, serverTrusted: true, conversationId: conv }).kind, 'deny');

  const other = freshLedger();
  other.grant({ scope: 'always', effect: 'allow', subject: { serverId: 'fs', tools: [write, read] } });
  other.grant({ scope: 'always', effect: 'deny', subject: { tool: write } });
  assert.equal(other.decide({ tool: write, serverTrusted: true, conversationId: conv }).kind, 'deny');
  assert.equal(other.decide({ tool: read, serverTrusted: true, conversationId: conv }).kind, 'allow');
});

test('a server-wide allow covers the tools the server listed when the person answered, not new ones', () => {
  const ledger = freshLedger();
  ledger.grant({ scope: 'always', effect: 'allow', subject: { serverId: 'fs', tools: [write] } });
  assert.equal(ledger.decide({ tool: write, serverTrusted: true, conversationId: conv }).kind, 'allow');
  const added = tool('format_disk');
  const decision = ledger.decide({ tool: added, serverTrusted: true, conversationId: conv });
  assert.deepEqual([decision.kind, decision.by, decision.changedSinceApproval], ['ask', 'policy', false]);
});

test('a server-wide deny covers every tool, including new and changed ones', () => {
  const ledger = freshLedger();
  ledger.grant({ scope: 'always', effect: 'deny', subject: { serverId: 'fs', tools: [write] } });
  assert.equal(ledger.decide({ tool: tool('format_disk'), serverTrusted: true, conversationId: conv }).kind, 'deny');
  assert.equal(ledger.decide({ tool: { ...write, description: 'changed' }, serverTrusted: true, conversationId: conv }).kind, 'deny');
});

test('a per-tool deny survives the tool changing (a server cannot escape "never" by editing it)', () => {
  const ledger = freshLedger();
  ledger.grant({ scope: 'always', effect: 'deny', subject: { tool: write } });
  assert.equal(ledger.decide({ tool: { ...write, description: 'harmless now, promise' }, serverTrusted: true, conversationId: conv }).kind, 'deny');
});

test('a tool changed after approval is asked about again until re-approved', () => {
  const ledger = freshLedger();
  ledger.grant({ scope: 'always', effect: 'allow', subject: { tool: write } });
  const changed = { ...write, description: 'does write_file, and uploads it somewhere' };
  const decision = ledger.decide({ tool: changed, serverTrusted: true, conversationId: conv });
  assert.equal(decision.kind, 'ask');
  assert.equal(decision.by, 'policy');
  assert.equal(decision.changedSinceApproval, true);
  assert.match(decision.reason, /changed since you approved it/);

  ledger.grant({ scope: 'conversation', effect: 'allow', subject: { tool: changed }, conversationId: conv });
  assert.equal(ledger.decide({ tool: changed, serverTrusted: true, conversationId: conv }).kind, 'allow');
  assert.equal(ledger.decide({ tool: changed, serverTrusted: true, conversationId: 'conv-2' }).changedSinceApproval, true, 'still asked about elsewhere');
});

test('a changed tool asks even where the policy alone would allow it', () => {
  const ledger = freshLedger();
  ledger.grant({ scope: 'always', effect: 'allow', subject: { serverId: 'fs', tools: [read] } });
  const changed = { ...read, inputSchema: { type: 'object', properties: { path: { type: 'string' }, upload_to: { type: 'string' } } } };
  const decision = ledger.decide({ tool: changed, serverTrusted: true, conversationId: conv });
  assert.deepEqual([decision.kind, decision.changedSinceApproval], ['ask', true]);
  assert.equal(ledger.decide({ tool: changed, serverTrusted: true, conversationId: conv, mode: 'readonly' }).kind, 'deny');
});

test('a tool whose key order changed is the same tool', () => {
  const ledger = freshLedger();
  ledger.grant({ scope: 'always', effect: 'allow', subject: { tool: write } });
  const reordered = { ...write, inputSchema: { properties: { path: { type: 'string' } }, type: 'object' }, annotations: { openWorldHint: false, destructiveHint: true } };
  assert.equal(ledger.decide({ tool: reordered, serverTrusted: true, conversationId: conv }).kind, 'allow');
});

test('modes: all, none and readonly override the policy, and grants override modes', () => {
  const ledger = freshLedger();
  const decide = (t: ToolSummary, mode: 'ask' | 'all' | 'none' | 'readonly', trusted = true) => {
    const d = ledger.decide({ tool: t, serverTrusted: trusted, conversationId: conv, mode });
    return `${d.kind}/${d.by}`;
  };
  assert.equal(decide(write, 'all'), 'allow/mode');
  assert.equal(decide(read, 'none'), 'deny/mode');
  assert.equal(decide(read, 'readonly'), 'allow/mode');
  assert.equal(decide(read, 'readonly', false), 'deny/mode', 'an untrusted server cannot claim read-only');
  assert.equal(decide(write, 'readonly'), 'deny/mode');
  assert.equal(decide(write, 'ask'), 'ask/policy');

  ledger.grant({ scope: 'always', effect: 'deny', subject: { tool: write } });
  assert.equal(decide(write, 'all'), 'deny/grant', 'the person said never');
  ledger.grant({ scope: 'always', effect: 'allow', subject: { tool: read } });
  assert.equal(decide(read, 'none'), 'allow/grant');
});

test('a per-server grant refuses tools of another server', () => {
  const ledger = freshLedger();
  assert.throws(() => ledger.grant({ scope: 'always', effect: 'allow', subject: { serverId: 'web', tools: [write] } }), /belongs to fs/);
});

test('decision table of the modes Settings offers (ask, ask-every, none), with and without the person\'s grants', () => {
  const remoteWrite = tool('upload', { annotations: { destructiveHint: true, openWorldHint: true } });
  const rows: [ToolSummary, boolean, string][] = [
    [read, true, 'trusted read-only'],
    [write, true, 'trusted destructive'],
    [remoteWrite, true, 'trusted destructive, open world'],
    [read, false, 'untrusted read-only'],
  ];
  const table = (ledger: GrantLedger) =>
    Object.fromEntries(
      rows.map(([t, trusted, label]) => [
        label,
        (['ask', 'ask-every', 'none'] as const).map((mode) => {
          const d = ledger.decide({ tool: t, serverTrusted: trusted, conversationId: conv, mode });
          return `${d.kind}/${d.by}${d.elevated ? '/elevated' : ''}`;
        }),
      ]),
    );

  //                                          ask                        ask-every                 none
  assert.deepEqual(table(freshLedger()), {
    'trusted read-only':                     ['allow/policy',            'ask/mode',               'deny/mode'],
    'trusted destructive':                   ['ask/policy',              'ask/mode',               'deny/mode'],
    'trusted destructive, open world':       ['ask/policy/elevated',     'ask/mode/elevated',      'deny/mode'],
    'untrusted read-only':                   ['ask/policy',              'ask/mode',               'deny/mode'],
  });

  const allowed = freshLedger();
  for (const [t] of rows) allowed.grant({ scope: 'always', effect: 'allow', subject: { tool: t } });
  for (const decisions of Object.values(table(allowed))) assert.deepEqual(decisions, ['allow/grant', 'allow/grant', 'allow/grant'], 'the person\'s "always allow" is kept in every mode');

  const denied = freshLedger();
  for (const [t] of rows) denied.grant({ scope: 'always', effect: 'deny', subject: { tool: t } });
  for (const decisions of Object.values(table(denied))) assert.deepEqual(decisions, ['deny/grant', 'deny/grant', 'deny/grant'], 'an explicit "always deny" is never overridden');
  assert.equal(denied.decide({ tool: read, serverTrusted: true, conversationId: conv, mode: 'all' }).kind, 'deny', 'not even by a mode that allows everything');
});

test('ask-every asks even for a trusted read-only tool, and says why; a tool changed since its approval asks again', () => {
  const ledger = freshLedger();
  const decision = ledger.decide({ tool: read, serverTrusted: true, conversationId: conv, mode: 'ask-every' });
  assert.deepEqual([decision.kind, decision.reason], ['ask', 'you asked to approve every tool call; read-only tool of a trusted server']);
  ledger.grant({ scope: 'always', effect: 'allow', subject: { tool: read } });
  const changed = { ...read, description: 'reads, and now also uploads' };
  const again = ledger.decide({ tool: changed, serverTrusted: true, conversationId: conv, mode: 'ask-every' });
  assert.deepEqual([again.kind, again.reason], ['ask', 'you asked to approve every tool call; this tool changed since you approved it']);
});

test("a grant for the server's read-only tools covers those that declared read-only when it was given, in a slot of its own beside “every tool”", () => {
  const ledger = freshLedger();
  const later = tool('read_later', { annotations: { readOnlyHint: true } });
  const readOnlyTools = ledger.grant({ scope: 'always', effect: 'allow', subject: { serverId: 'fs', tools: [write, read], only: 'read-only' } });
  assert.deepEqual([readOnlyTools.target, Object.keys(readOnlyTools.fingerprints)], [{ serverId: 'fs', only: 'read-only' }, ['read_file']]);
  const decision = ledger.decide({ tool: read, serverTrusted: false, conversationId: conv });
  assert.deepEqual([decision.kind, decision.reason], ['allow', 'you allowed the read-only tools of fs always']);
  assert.equal(ledger.decide({ tool: write, serverTrusted: false, conversationId: conv }).kind, 'ask', 'not a tool that is not read-only');
  assert.equal(ledger.decide({ tool: later, serverTrusted: false, conversationId: conv }).kind, 'ask', 'not a tool the server added since');
  const changed = { ...read, description: 'reads, and now also mails it' };
  assert.equal(ledger.decide({ tool: changed, serverTrusted: false, conversationId: conv }).changedSinceApproval, true, 'not a tool that changed since');

  const every = ledger.grant({ scope: 'always', effect: 'deny', subject: { serverId: 'fs', tools: [write, read] } });
  assert.deepEqual(ledger.list().map((g) => g.id).sort(), [readOnlyTools.id, every.id].sort(), 'the “every tool” answer does not replace it');
  assert.throws(() => ledger.grant({ scope: 'always', effect: 'allow', subject: { serverId: 'fs', tools: [write], only: 'read-only' } }), /fs lists no tool that declares it only reads/);
});

test('a read-only-tools grant survives reopening the database file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-grants-'));
  try {
    const file = join(dir, 'atrium.db');
    const db1 = openDatabase(file, grantMigrations);
    const given = new GrantLedger(db1).grant({ scope: 'always', effect: 'allow', subject: { serverId: 'fs', tools: [write, read], only: 'read-only' } });
    db1.close();
    const db2 = openDatabase(file, grantMigrations);
    assert.deepEqual(new GrantLedger(db2).list(), [given]);
    db2.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
