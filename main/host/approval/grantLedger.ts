// The person's answers that outlive one question: allow or deny, for one tool, a server's read-only tools
// or a whole server, once, for a conversation, or always. A grant remembers the fingerprint of every tool it covers, as the person
// saw it; an allow grant stops applying to a tool whose fingerprint changed, so that tool asks again (the
// changed definition itself is withheld from the model by toolPins until the person approves it).
// `decide` turns grants, the approval mode (chosen in Settings, or the CLI's --approve for one run) and
// the annotation policy into one answer for one call.

import { randomUUID } from 'node:crypto';
import type { Grant, GrantEffect, GrantScope, GrantTarget, ServerId, ToolSummary } from '../../../shared/domain.ts';
import { transaction } from '../../store/database.ts';
import type { Database, Migration } from '../../store/database.ts';
import { ChangeListeners } from '../../changeListeners.ts';
import { readRows } from '../../store/rowReader.ts';
import type { RowReader } from '../../store/rowReader.ts';
import { effectiveHints } from '../../../shared/toolHints.ts';
import { believedHints, defaultDecision } from './annotationPolicy.ts';
import type { DecisionKind } from './annotationPolicy.ts';
import { toolFingerprint } from './toolFingerprint.ts';

/**
 * How calls no grant decides are decided: ask = the annotation policy (asking when it says so); ask-every =
 * ask for every call, even a trusted server's read-only tool; readonly = allow read-only tools of trusted
 * servers and deny the rest without asking; all = allow; none = deny.
 */
export type ApprovalMode = 'ask' | 'ask-every' | 'readonly' | 'all' | 'none';

/**
 * What the person answered about: one tool as shown, or a whole server with the tools it lists now (with
 * `only: 'read-only'`, those of them that declare they only read).
 */
export type GrantSubject = { tool: ToolSummary } | { serverId: ServerId; tools: readonly ToolSummary[]; only?: 'read-only' };

export interface GrantRequest {
  scope: GrantScope;
  effect: GrantEffect;
  subject: GrantSubject;
  conversationId?: string;
}

export interface DecideInput {
  tool: ToolSummary;
  serverTrusted: boolean;
  conversationId: string;
  mode?: ApprovalMode;
}

export interface Decision {
  kind: DecisionKind;
  by: 'grant' | 'policy' | 'mode';
  /** The grant that decided; a 'once' grant must be spent with `consumeOnce` when the call starts. */
  grantId?: string;
  grantScope?: GrantScope;
  reason: string;
  elevated: boolean;
  record: boolean;
  /** An allow grant exists for an older version of this tool and none for this one: ask again. */
  changedSinceApproval: boolean;
}

export const grantMigrations: readonly Migration[] = [
  {
    id: 'approval-grants-1',
    sql: `
      CREATE TABLE approval_grants (
        id TEXT PRIMARY KEY,
        scope TEXT NOT NULL CHECK (scope IN ('conversation', 'always')),
        server_id TEXT NOT NULL,
        tool TEXT,
        effect TEXT NOT NULL CHECK (effect IN ('allow', 'deny')),
        fingerprints TEXT NOT NULL,
        conversation_id TEXT,
        created_at INTEGER NOT NULL,
        CHECK ((scope = 'conversation') = (conversation_id IS NOT NULL))
      );
      CREATE INDEX approval_grants_server ON approval_grants (server_id);
      CREATE INDEX approval_grants_conversation ON approval_grants (conversation_id);
    `,
  },
  {
    id: 'approval-grants-2',
    sql: "ALTER TABLE approval_grants ADD COLUMN only_tools TEXT CHECK (only_tools IS NULL OR (only_tools = 'read-only' AND tool IS NULL));",
  },
];

export interface GrantLedgerOptions {
  now?: () => number;
  newId?: () => string;
}

/** A grant the person asked for that cannot be made as asked; the message is for the person. */
export class GrantError extends Error {
  readonly code = 'failed';
}

// Among grants of the same rank, a 'once' grant is reported first so the call spends it.
const SCOPE_ORDER: Record<GrantScope, number> = { once: 0, conversation: 1, always: 2 };

export class GrantLedger {
  private readonly db: Database;
  private readonly now: () => number;
  private readonly newId: () => string;
  // 'once' grants answer one pending call; after a restart that call is gone, so they are not stored.
  private readonly onceGrants = new Map<string, Grant>();
  private readonly changes = new ChangeListeners<void>();

  /** `db` must have been opened with `grantMigrations`. */
  constructor(db: Database, options: GrantLedgerOptions = {}) {
    this.db = db;
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? randomUUID;
  }

  /** Records the person's answer; it replaces an earlier answer for the same target, scope and conversation. */
  grant(request: GrantRequest): Grant {
    const { target, fingerprints } = describeSubject(request.subject);
    if (request.scope !== 'always' && request.conversationId === undefined) {
      throw new Error(`a '${request.scope}' grant needs the conversation it belongs to`);
    }
    const conversationId = request.scope === 'always' ? undefined : request.conversationId;
    const grant: Grant = {
      id: this.newId(),
      scope: request.scope,
      target,
      effect: request.effect,
      fingerprints,
      ...(conversationId === undefined ? {} : { conversationId }),
      createdAt: this.now(),
    };
    const sameSlot = (g: Grant) =>
      g.scope === grant.scope && g.target.serverId === target.serverId && g.target.tool === target.tool && g.target.only === target.only && g.conversationId === conversationId;
    if (grant.scope === 'once') {
      for (const existing of [...this.onceGrants.values()]) if (sameSlot(existing)) this.onceGrants.delete(existing.id);
      this.onceGrants.set(grant.id, grant);
      this.changes.tell();
      return grant;
    }
    transaction(this.db, () => {
      this.db
        .prepare('DELETE FROM approval_grants WHERE scope = ? AND server_id = ? AND tool IS ? AND only_tools IS ? AND conversation_id IS ?')
        .run(grant.scope, target.serverId, target.tool ?? null, target.only ?? null, conversationId ?? null);
      this.db
        .prepare(
          `INSERT INTO approval_grants (id, scope, server_id, tool, only_tools, effect, fingerprints, conversation_id, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(grant.id, grant.scope, target.serverId, target.tool ?? null, target.only ?? null, grant.effect, JSON.stringify(fingerprints), conversationId ?? null, grant.createdAt);
    });
    this.changes.tell();
    return grant;
  }

  /** Every grant, newest first; optionally only those of one server or one conversation (plus the 'always' ones). */
  list(filter: { serverId?: ServerId; conversationId?: string } = {}): Grant[] {
    const stored = readRows('approval_grants', this.db.prepare('SELECT * FROM approval_grants').all(), readGrant);
    return [...stored, ...this.onceGrants.values()]
      .filter((g) => filter.serverId === undefined || g.target.serverId === filter.serverId)
      .filter((g) => filter.conversationId === undefined || g.conversationId === undefined || g.conversationId === filter.conversationId)
      .sort((a, b) => b.createdAt - a.createdAt)
      .map(copyGrant);
  }

  /** Removes a grant; false when there was none with this id. */
  revoke(id: string): boolean {
    const revoked = this.onceGrants.delete(id) || Number(this.db.prepare('DELETE FROM approval_grants WHERE id = ?').run(id).changes) > 0;
    if (revoked) this.changes.tell();
    return revoked;
  }

  /**
   * Spends a 'once' grant. Call it as the call starts; false means it was already spent (by a call running
   * in parallel) or revoked, and the call must be decided again.
   */
  consumeOnce(id: string): boolean {
    const spent = this.onceGrants.delete(id);
    if (spent) this.changes.tell();
    return spent;
  }

  /** Forgets the grants of a conversation that was deleted. */
  forgetConversation(conversationId: string): void {
    for (const grant of [...this.onceGrants.values()]) if (grant.conversationId === conversationId) this.onceGrants.delete(grant.id);
    this.db.prepare('DELETE FROM approval_grants WHERE conversation_id = ?').run(conversationId);
    this.changes.tell();
  }

  /** Told after every change: a grant given, spent, revoked or forgotten with its conversation. */
  onChange(listener: () => void): () => void {
    return this.changes.add(listener);
  }

  decide(input: DecideInput): Decision {
    const { tool, serverTrusted, conversationId, mode = 'ask' } = input;
    const policy = defaultDecision(tool, serverTrusted);
    const { winner, changedSinceApproval } = this.match(tool, conversationId);

    if (winner) {
      const what = winner.target.tool !== undefined ? 'this tool' : winner.target.only === 'read-only' ? `the read-only tools of ${winner.target.serverId}` : `every tool of ${winner.target.serverId}`;
      const when = winner.scope === 'always' ? 'always' : winner.scope === 'conversation' ? 'in this conversation' : 'once';
      return {
        kind: winner.effect,
        by: 'grant',
        grantId: winner.id,
        grantScope: winner.scope,
        reason: `you ${winner.effect === 'allow' ? 'allowed' : 'denied'} ${what} ${when}`,
        elevated: false,
        record: winner.effect === 'allow' ? policy.record : true,
        changedSinceApproval,
      };
    }

    if (mode === 'all') {
      return { kind: 'allow', by: 'mode', reason: '--approve all allows every tool', elevated: false, record: true, changedSinceApproval };
    }
    if (mode === 'none') {
      return { kind: 'deny', by: 'mode', reason: 'every tool call is denied (approval mode "none")', elevated: false, record: true, changedSinceApproval };
    }
    if (mode === 'ask-every') {
      // The policy still says how dangerous the tool is, so the question carries its warning.
      const why = changedSinceApproval ? 'this tool changed since you approved it' : policy.reason;
      return { kind: 'ask', by: 'mode', reason: `you asked to approve every tool call; ${why}`, elevated: policy.kind === 'ask' && policy.elevated, record: true, changedSinceApproval };
    }
    if (mode === 'readonly') {
      const readOnly = believedHints(tool.annotations, serverTrusted).readOnly && !changedSinceApproval;
      return readOnly
        ? { kind: 'allow', by: 'mode', reason: '--approve readonly allows read-only tools of trusted servers', elevated: false, record: policy.record, changedSinceApproval }
        : {
            kind: 'deny',
            by: 'mode',
            reason: changedSinceApproval
              ? 'this tool changed since you approved it, and --approve readonly cannot ask'
              : '--approve readonly denies tools that are not read-only on a trusted server',
            elevated: false,
            record: true,
            changedSinceApproval,
          };
    }

    // A tool that changed after approval asks again, even when the policy alone would let it run.
    if (changedSinceApproval && policy.kind === 'allow') {
      return { kind: 'ask', by: 'policy', reason: 'this tool changed since you approved it', elevated: false, record: true, changedSinceApproval };
    }
    return {
      kind: policy.kind,
      by: 'policy',
      reason: changedSinceApproval ? `this tool changed since you approved it; ${policy.reason}` : policy.reason,
      elevated: policy.kind === 'ask' && policy.elevated,
      record: policy.record,
      changedSinceApproval,
    };
  }

  // The deciding grant: a per-tool grant beats a per-server one; at the same level deny beats allow.
  // A deny applies whatever the tool's fingerprint (a server must not escape a "never" by editing a
  // description); an allow only while the fingerprint is the one the person saw.
  private match(tool: ToolSummary, conversationId: string): { winner?: Grant; changedSinceApproval: boolean } {
    const current = toolFingerprint(tool);
    const applicable = this.grantsFor(tool.serverId, conversationId).filter(
      (g) => g.target.tool === undefined || g.target.tool === tool.name,
    );
    let stale = false;
    let approved = false;
    const live: Grant[] = [];
    for (const grant of applicable) {
      if (grant.effect === 'deny') {
        live.push(grant);
        continue;
      }
      const seen = grant.fingerprints[tool.name];
      // A per-server allow does not cover a tool the server did not list when the person answered.
      if (seen === undefined) continue;
      if (seen === current) {
        approved = true;
        live.push(grant);
      } else {
        stale = true;
      }
    }
    const rank = (g: Grant) => (g.target.tool === undefined ? 2 : 0) + (g.effect === 'deny' ? 0 : 1);
    live.sort((a, b) => rank(a) - rank(b) || SCOPE_ORDER[a.scope] - SCOPE_ORDER[b.scope] || b.createdAt - a.createdAt);
    const winner = live[0];
    return { ...(winner ? { winner } : {}), changedSinceApproval: stale && !approved };
  }

  private grantsFor(serverId: ServerId, conversationId: string): Grant[] {
    const stored = readRows(
      'approval_grants',
      this.db.prepare("SELECT * FROM approval_grants WHERE server_id = ? AND (scope = 'always' OR conversation_id = ?)").all(serverId, conversationId),
      readGrant,
    );
    const once = [...this.onceGrants.values()].filter((g) => g.target.serverId === serverId && g.conversationId === conversationId);
    return [...stored, ...once];
  }
}

function describeSubject(subject: GrantSubject): { target: GrantTarget; fingerprints: Record<string, string> } {
  if ('tool' in subject) {
    const { tool } = subject;
    return { target: { serverId: tool.serverId, tool: tool.name }, fingerprints: { [tool.name]: toolFingerprint(tool) } };
  }
  const fingerprints: Record<string, string> = {};
  for (const tool of subject.tools) {
    if (tool.serverId !== subject.serverId) throw new Error(`tool ${tool.name} belongs to ${tool.serverId}, not ${subject.serverId}`);
    if (subject.only === 'read-only' && !effectiveHints(tool.annotations).readOnly) continue;
    fingerprints[tool.name] = toolFingerprint(tool);
  }
  if (subject.only === 'read-only') {
    if (Object.keys(fingerprints).length === 0) throw new GrantError(`${subject.serverId} lists no tool that declares it only reads`);
    return { target: { serverId: subject.serverId, only: 'read-only' }, fingerprints };
  }
  return { target: { serverId: subject.serverId }, fingerprints };
}

function readGrant(row: RowReader): Grant {
  const tool = row.optText('tool');
  const only = row.optText('only_tools');
  const conversationId = row.optText('conversation_id');
  return {
    id: row.text('id'),
    scope: row.oneOf('scope', ['once', 'conversation', 'always']),
    target: tool !== undefined ? { serverId: row.text('server_id'), tool } : only === 'read-only' ? { serverId: row.text('server_id'), only } : { serverId: row.text('server_id') },
    effect: row.oneOf('effect', ['allow', 'deny']),
    fingerprints: fingerprintsOf(row.json('fingerprints')),
    ...(conversationId === undefined ? {} : { conversationId }),
    createdAt: row.int('created_at'),
  };
}

/** Tool name → fingerprint, as saved: anything else in the column is a damaged row. */
function fingerprintsOf(value: unknown): Record<string, string> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) {
    throw new Error('approval_grants: column fingerprints is not a map of tool fingerprints');
  }
  return value as Record<string, string>;
}

function copyGrant(grant: Grant): Grant {
  return { ...grant, target: { ...grant.target }, fingerprints: { ...grant.fingerprints } };
}
