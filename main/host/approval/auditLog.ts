// Every decision and every tool call, in a table that can only grow: triggers refuse UPDATE and DELETE,
// so no code path (ours or a bug's) can rewrite what happened. A call usually leaves two rows with the
// same callId: the decision (outcome allowed/denied) and, when it ran, its end (ok/error/cancelled).
// Arguments are stored with secrets redacted and long strings shortened.

import type { AuditEntry, AuditEntryInput } from '../../../shared/domain.ts';
import { withoutDiskWait } from '../../store/database.ts';
import type { Database, Migration } from '../../store/database.ts';
import { readRows, RowReader } from '../../store/rowReader.ts';
import { redactSecrets, redactString } from '../../redactSecrets.ts';

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

export class AuditLog {
  private readonly db: Database;

  /** `db` must have been opened with `auditMigrations`. */
  constructor(db: Database) {
    this.db = db;
  }

  /**
   * `waitForDisk: false` for a line that may follow the disk a little later (a call's outcome inside a
   * turn, which puts it there as it ends): see withoutDiskWait.
   */
  append(entry: AuditEntryInput, { waitForDisk = true } = {}): AuditEntry {
    return waitForDisk ? this.insert(entry) : withoutDiskWait(this.db, () => this.insert(entry));
  }

  private insert(entry: AuditEntryInput): AuditEntry {
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
    const row = this.db.prepare('SELECT * FROM audit_log WHERE seq = ?').get(result.lastInsertRowid);
    if (!row) throw new Error('the audit entry was not stored');
    return readEntry(new RowReader('audit_log', row));
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
    return readRows('audit_log', this.db.prepare(sql).all(...params, limit), readEntry);
  }
}

function readEntry(row: RowReader): AuditEntry {
  const durationMs = row.optInt('duration_ms');
  const detail = row.optText('detail');
  const conversationId = row.optText('conversation_id');
  const callId = row.optText('call_id');
  return {
    seq: row.int('seq'),
    at: row.int('at'),
    serverId: row.text('server_id'),
    tool: row.text('tool'),
    arguments: row.json('arguments'),
    decision: row.oneOf('decision', ['allow', 'deny']),
    decidedBy: row.oneOf('decided_by', ['person', 'policy', 'grant', 'mode']),
    ...(durationMs === undefined ? {} : { durationMs }),
    outcome: row.oneOf('outcome', ['allowed', 'denied', 'ok', 'error', 'cancelled']),
    ...(detail === undefined ? {} : { detail }),
    ...(conversationId === undefined ? {} : { conversationId }),
    ...(callId === undefined ? {} : { callId }),
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
