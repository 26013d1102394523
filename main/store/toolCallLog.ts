// The tool calls the model made in each conversation: recorded when decided, updated as they run and
// end, listed with their conversation. One of the history's stores (historyStore.ts opens the tables).

import type { Database } from './database.ts';
import type { OutputSchemaAtCall } from '../../shared/domain.ts';
import type { SavedToolResult, ToolCallRecord, ToolCallStatus, ToolDecision } from '../../shared/conversation.ts';
import { readRows, RowReader } from './rowReader.ts';

export interface ToolCallUpdate {
  decision?: ToolDecision;
  decidedBy?: string;
  status?: ToolCallStatus;
  result?: SavedToolResult;
  isError?: boolean;
  /** When the call began running, for a call recorded only once it ended. */
  startedAt?: number;
}

const TERMINAL_TOOL_STATUSES: ReadonlySet<ToolCallStatus> = new Set(['done', 'error', 'denied', 'cancelled']);
const toolCallStatuses = ['pending', 'running', 'done', 'error', 'denied', 'cancelled'] as const satisfies readonly ToolCallStatus[];

/** A saved result is an object (the server's result, checked by the SDK when it came, or `{ error }`). */
function savedToolResult(value: unknown): SavedToolResult | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) return { error: 'The saved result of this call cannot be read.' };
  const result = value as SavedToolResult;
  return result.content === undefined || Array.isArray(result.content) ? result : { error: 'The saved result of this call cannot be read.' };
}

function readToolCall(row: RowReader): ToolCallRecord {
  const args = row.json('arguments');
  if (typeof args !== 'object' || args === null || Array.isArray(args)) throw new Error('history: column arguments is not an object');
  const call: ToolCallRecord = {
    id: row.text('id'),
    conversationId: row.text('conversation_id'),
    messageId: row.text('message_id'),
    serverId: row.text('server_id'),
    tool: row.text('tool'),
    modelName: row.text('model_name'),
    arguments: args as Record<string, unknown>,
    status: row.oneOf('status', toolCallStatuses),
    isError: row.int('is_error') !== 0,
    createdAt: row.int('created_at'),
  };
  const decision = row.optText('decision') === undefined ? undefined : row.oneOf('decision', ['allow', 'deny']);
  const decidedBy = row.optText('decided_by');
  const result = savedToolResult(row.optJson('result'));
  const startedAt = row.optInt('started_at');
  const finishedAt = row.optInt('finished_at');
  const durationMs = row.optInt('duration_ms');
  // Written by this store from an OutputSchemaAtCall.
  const outputSchema = row.optJson('output_schema') as OutputSchemaAtCall | undefined;
  if (decision !== undefined) call.decision = decision;
  if (decidedBy !== undefined) call.decidedBy = decidedBy;
  if (result !== undefined) call.result = result;
  if (startedAt !== undefined) call.startedAt = startedAt;
  if (finishedAt !== undefined) call.finishedAt = finishedAt;
  if (durationMs !== undefined) call.durationMs = durationMs;
  if (outputSchema !== undefined) call.outputSchema = outputSchema;
  return call;
}

function prepareStatements(db: Database) {
  return {
    insertToolCall: db.prepare(`
      INSERT INTO tool_calls (conversation_id, id, message_id, server_id, tool, model_name, arguments, decision, decided_by, status, output_schema, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`),
    getToolCall: db.prepare('SELECT * FROM tool_calls WHERE conversation_id = ? AND id = ?'),
    // NULL keeps a column as it is; started_at is set the first time the call runs (or as given, for a call
    // recorded once it ended), finished_at and the duration when it reaches a final status.
    updateToolCall: db.prepare(`
      UPDATE tool_calls SET
        decision = COALESCE(:decision, decision),
        decided_by = COALESCE(:decidedBy, decided_by),
        status = COALESCE(:status, status),
        result = COALESCE(:result, result),
        is_error = COALESCE(:isError, is_error),
        started_at = CASE WHEN :startedAt IS NOT NULL THEN :startedAt WHEN :status = 'running' AND started_at IS NULL THEN :now ELSE started_at END,
        finished_at = CASE WHEN :terminal THEN :now ELSE finished_at END,
        duration_ms = CASE WHEN :terminal AND COALESCE(:startedAt, started_at) IS NOT NULL THEN MAX(0, :now - COALESCE(:startedAt, started_at)) ELSE duration_ms END
      WHERE conversation_id = :conversationId AND id = :id`),
    listToolCalls: db.prepare('SELECT * FROM tool_calls WHERE conversation_id = ? ORDER BY created_at, rowid'),
    cancelInterruptedToolCalls: db.prepare(`
      UPDATE tool_calls SET status = 'cancelled', finished_at = ?,
        duration_ms = CASE WHEN started_at IS NOT NULL THEN ? - started_at END
      WHERE status IN ('pending', 'running')
        AND json_array(conversation_id, id) NOT IN (SELECT value FROM json_each(?))`),
  };
}

export class ToolCallLog {
  private readonly sql: ReturnType<typeof prepareStatements>;
  private readonly now: () => number;

  /** `db` must have been opened with `historyMigrations` among its migrations. */
  constructor(db: Database, now: () => number = Date.now) {
    this.sql = prepareStatements(db);
    this.now = now;
  }

  record(call: {
    conversationId: string;
    messageId: string;
    id: string;
    serverId: string;
    tool: string;
    modelName: string;
    arguments: Record<string, unknown>;
    status?: ToolCallStatus;
    decision?: ToolDecision;
    decidedBy?: string;
    outputSchema?: OutputSchemaAtCall;
  }): ToolCallRecord {
    const now = this.now();
    const outputSchema = call.outputSchema === undefined ? null : JSON.stringify(call.outputSchema);
    this.sql.insertToolCall.run(call.conversationId, call.id, call.messageId, call.serverId, call.tool, call.modelName, JSON.stringify(call.arguments), call.decision ?? null, call.decidedBy ?? null, call.status ?? 'pending', outputSchema, now);
    return this.require(call.conversationId, call.id);
  }

  /** Changes what is given; 'running' stamps the start, a final status the finish and the duration. */
  update(conversationId: string, id: string, update: ToolCallUpdate): ToolCallRecord {
    const result = this.sql.updateToolCall.run({
      conversationId,
      id,
      now: this.now(),
      decision: update.decision ?? null,
      decidedBy: update.decidedBy ?? null,
      status: update.status ?? null,
      result: update.result === undefined ? null : JSON.stringify(update.result),
      isError: update.isError === undefined ? null : update.isError ? 1 : 0,
      startedAt: update.startedAt ?? null,
      terminal: update.status !== undefined && TERMINAL_TOOL_STATUSES.has(update.status) ? 1 : 0,
    });
    if (Number(result.changes) === 0) throw new Error(`history: no tool call ${id} in conversation ${conversationId}`);
    return this.require(conversationId, id);
  }

  has(conversationId: string, id: string): boolean {
    return this.sql.getToolCall.get(conversationId, id) !== undefined;
  }

  list(conversationId: string): ToolCallRecord[] {
    return readRows('tool_calls', this.sql.listToolCalls.all(conversationId), readToolCall);
  }

  private require(conversationId: string, id: string): ToolCallRecord {
    const row = this.sql.getToolCall.get(conversationId, id);
    if (row === undefined) throw new Error(`history: no tool call ${id} in conversation ${conversationId}`);
    return readToolCall(new RowReader('tool_calls', row));
  }

  /** Calls pending or running when the process died: cancelled with it, but those still running elsewhere (as tasks). Returns how many. */
  cancelInterrupted(stillRunning: readonly { conversationId: string; callId: string }[] = []): number {
    const now = this.now();
    const kept = JSON.stringify(stillRunning.map(({ conversationId, callId }) => [conversationId, callId]));
    return Number(this.sql.cancelInterruptedToolCalls.run(now, now, kept).changes);
  }
}
