// Every decision and every tool call, in a table that can only grow: triggers refuse UPDATE and DELETE,
// so no code path (ours or a bug's) can rewrite what happened. A call usually leaves two rows with the
// same callId: the decision (outcome allowed/denied) and, when it ran, its end (ok/error/cancelled).
// Arguments are stored with secrets redacted and long strings shortened.

import type { Database, Migration } from '../../store/database.ts';
import { redactSecrets, redactString } from './redactSecrets.ts';

export type AuditDecision = 'allow' | 'deny';
export type AuditDecidedBy = 'person' | 'policy' | 'grant' | 'mode';
export type AuditOutcome = 'allowed' | 'denied' | 'ok' | 'error' | 'cancelled';

export interface AuditEntryInput {
  at: number;
  serverId: string;
  tool: string;
  arguments: unknown;
  decision: AuditDecision;
  decidedBy: AuditDecidedBy;
  durationMs?: number;
  outcome: AuditOutcome;
  detail?: string;
  conversationId?: string;
  callId?: string;
}

export interface AuditEntry extends AuditEntryInput {
  /** Position in the log, increasing with every append. */
  seq: number;
}

export const auditMigrations: readonly Migration[] = [
  {
    id: 'approval-audit-1',
    sql: `
      CREATE TABLE audit_log (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        at INTEGER NOT NULL,
        server_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        arguments TEXT NOT NULL,
        decision TEXT NOT NULL CHECK (decision IN ('allow', 'deny')),
        decided_by TEXT NOT NULL CHECK (decided_by IN ('person', 'policy', 'grant', 'mode')),
        duration_ms INTEGER,
        outcome TEXT NOT NULL CHECK (outcome IN ('allowed', 'denied', 'ok', 'error', 'cancelled')),
        detail TEXT,
        conversation_id TEXT,
        call_id TEXT
      );
      CREATE INDEX audit_log_server ON audit_log (server_id, seq);
      CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
      CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
      -- INSERT OR REPLACE deletes the old row without firing DELETE triggers (recursive_triggers is off).
      CREATE TRIGGER audit_log_no_replace BEFORE INSERT ON audit_log
        WHEN EXISTS (SELECT 1 FROM audit_log WHERE seq = NEW.seq)
        BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
    `,
  },
];

/** A string argument longer than this keeps its start and says how much was left out. */
export const AUDIT_STRING_LIMIT = 4096;

interface AuditRow {
  seq: number;
  at: number;
  server_id: string;
  tool: string;
  arguments: string;
  decision: AuditDecision;
  decided_by: AuditDecidedBy;
  duration_ms: number | null;
  outcome: AuditOutcome;
  detail: string | null;
  conversation_id: string | null;
  call_id: string | null;
}

export class AuditLog {
  private readonly db: Database;

  /** `db` must have been opened with `auditMigrations`. */
  constructor(db: Database) {
    this.db = db;
  }

  append(entry: AuditEntryInput): AuditEntry {
    const args = shorten(redactSecrets(entry.arguments ?? null));
    const detail = entry.detail === undefined ? null : redactString(entry.detail);
    const result = this.db
      .prepare(
        `INSERT INTO audit_log (at, server_id, tool, arguments, decision, decided_by, duration_ms, outcome, detail, conversation_id, call_id)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        entry.at,
        entry.serverId,
        entry.tool,
        JSON.stringify(args) ?? 'null',
        entry.decision,
        entry.decidedBy,
        entry.durationMs === undefined ? null : Math.round(entry.durationMs),
        entry.outcome,
        detail,
        entry.conversationId ?? null,
        entry.callId ?? null,
      );
    const row = this.db.prepare('SELECT * FROM audit_log WHERE seq = ?').get(result.lastInsertRowid) as AuditRow | undefined;
    if (!row) throw new Error('the audit entry was not stored');
    return fromRow(row);
  }

  /** The newest entries first, at most `limit` of them. */
  list(options: { limit: number; serverId?: string; conversationId?: string }): AuditEntry[] {
    const where: string[] = [];
    const params: (string | number)[] = [];
    if (options.serverId !== undefined) {
      where.push('server_id = ?');
      params.push(options.serverId);
    }
    if (options.conversationId !== undefined) {
      where.push('conversation_id = ?');
      params.push(options.conversationId);
    }
    const limit = Math.max(0, Math.floor(options.limit));
    const sql = `SELECT * FROM audit_log ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC LIMIT ?`;
    return (this.db.prepare(sql).all(...params, limit) as unknown as AuditRow[]).map(fromRow);
  }
}

function fromRow(row: AuditRow): AuditEntry {
  return {
    seq: row.seq,
    at: row.at,
    serverId: row.server_id,
    tool: row.tool,
    arguments: JSON.parse(row.arguments) as unknown,
    decision: row.decision,
    decidedBy: row.decided_by,
    ...(row.duration_ms === null ? {} : { durationMs: row.duration_ms }),
    outcome: row.outcome,
    ...(row.detail === null ? {} : { detail: row.detail }),
    ...(row.conversation_id === null ? {} : { conversationId: row.conversation_id }),
    ...(row.call_id === null ? {} : { callId: row.call_id }),
  };
}

// A file written by a tool can be megabytes; the audit log keeps what identifies the call, not the payload.
function shorten(value: unknown): unknown {
  if (typeof value === 'string') {
    return value.length > AUDIT_STRING_LIMIT ? `${value.slice(0, AUDIT_STRING_LIMIT)}…[${value.length - AUDIT_STRING_LIMIT} more characters]` : value;
  }
  if (Array.isArray(value)) return value.map(shorten);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, item]) => [key, shorten(item)]));
  }
  return value;
}
