// The person's lasting answers about tool calls (grants) and the audit log of decisions and calls.

import type { ServerId } from './serverId.ts';

export type GrantScope = 'once' | 'conversation' | 'always';
export type GrantEffect = 'allow' | 'deny';

export interface GrantTarget {
  serverId: ServerId;
  /** Absent: every tool of the server (that it listed when the person answered). */
  tool?: string;
  /** A server-wide grant for only the tools that declared themselves read-only when the person answered. */
  only?: 'read-only';
}

/** An answer the person gave that decides later tool calls, as the ledger keeps it and the window lists it. */
export interface Grant {
  id: string;
  scope: GrantScope;
  target: GrantTarget;
  effect: GrantEffect;
  /**
   * Tool name → fingerprint of every tool the grant covers, as the person saw it: the one tool of a
   * per-tool grant, the tools the server listed at the time of a per-server grant.
   */
  fingerprints: Readonly<Record<string, string>>;
  /** Set for 'once' and 'conversation' grants. */
  conversationId?: string;
  createdAt: number;
}

export type AuditDecision = 'allow' | 'deny';
export type AuditDecidedBy = 'person' | 'policy' | 'grant' | 'mode';
export type AuditOutcome = 'allowed' | 'denied' | 'ok' | 'error' | 'cancelled';

export interface AuditEntryInput {
  at: number;
  serverId: string;
  tool: string;
  /** Redacted and shortened as the audit log keeps them. */
  arguments: unknown;
  decision: AuditDecision;
  decidedBy: AuditDecidedBy;
  durationMs?: number;
  outcome: AuditOutcome;
  detail?: string;
  conversationId?: string;
  callId?: string;
}

/** One line of the audit log: a decision, or the end of a call that ran. */
export interface AuditEntry extends AuditEntryInput {
  /** Position in the log, increasing with every append. */
  seq: number;
}
