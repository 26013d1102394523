// The tasks calls started, kept with their conversation: what names each on its server (the tasks
// library's reference), the call it runs and how it was decided, where it stands, and whether its end
// was put in its conversation. So a task on a remote server is followed again after a restart and its
// result lands where it belongs; a stdio server's task is known to have ended with its process.

import type { Database, Migration } from '../../../../store/database.ts';
import { RowReader } from '../../../../store/rowReader.ts';
import type { ToolSummary } from '../../../../../shared/domain.ts';
import type { TaskStatus } from '../contract/tasksContract.ts';

export const taskMigrations: readonly Migration[] = [
  {
    id: 'tasks-1',
    sql: `
      CREATE TABLE tasks (
        key TEXT PRIMARY KEY,
        server_id TEXT NOT NULL,
        task_id TEXT NOT NULL,
        reference TEXT NOT NULL,
        call_id TEXT NOT NULL,
        conversation_id TEXT REFERENCES conversations (id) ON DELETE CASCADE,
        origin TEXT NOT NULL,
        tool TEXT NOT NULL,
        arguments TEXT NOT NULL,
        decision TEXT NOT NULL,
        outlives_atrium INTEGER NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('working', 'input_required', 'completed', 'failed', 'cancelled', 'lost')),
        status_message TEXT,
        reason TEXT,
        follow_up INTEGER NOT NULL DEFAULT 0,
        started_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        ended_at INTEGER,
        landing TEXT,
        landed INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX tasks_unfinished ON tasks (server_id) WHERE ended_at IS NULL OR landed = 0;
    `,
  },
];

/**
 * A task as kept. What the layers above own (the tasks library's reference, who asked for the call, how it
 * was decided) is kept as they wrote it, and read back by them.
 */
export interface TaskRecord {
  key: string;
  serverId: string;
  taskId: string;
  reference: Record<string, unknown>;
  callId: string;
  conversationId?: string;
  origin: Record<string, unknown>;
  /** The tool as it was called (its annotations decide what its result means for the conversation). */
  tool: ToolSummary;
  arguments: Record<string, unknown>;
  decision: { decidedBy: string; reason: string };
  outlivesAtrium: boolean;
  status: TaskStatus;
  statusMessage?: string;
  reason?: string;
  followUp: boolean;
  startedAt: number;
  updatedAt: number;
  endedAt?: number;
  /** What its conversation is to be told of its end, kept until it is saved there. */
  landing?: Record<string, unknown>;
  /** Its end was put in its conversation (or it has none). */
  landed: boolean;
}

/** How many ended tasks the Tasks panel lists besides those still running. */
const ENDED_LISTED = 200;

export class TaskStore {
  private readonly db: Database;

  /** `db` must have been opened with `taskMigrations` among its migrations. */
  constructor(db: Database) {
    this.db = db;
  }

  add(task: TaskRecord): void {
    this.db
      .prepare(
        `INSERT INTO tasks (key, server_id, task_id, reference, call_id, conversation_id, origin, tool, arguments, decision, outlives_atrium, status, status_message, reason, follow_up, started_at, updated_at, ended_at, landed)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        task.key,
        task.serverId,
        task.taskId,
        JSON.stringify(task.reference),
        task.callId,
        task.conversationId ?? null,
        JSON.stringify(task.origin),
        JSON.stringify(task.tool),
        JSON.stringify(task.arguments),
        JSON.stringify(task.decision),
        task.outlivesAtrium ? 1 : 0,
        task.status,
        task.statusMessage ?? null,
        task.reason ?? null,
        task.followUp ? 1 : 0,
        task.startedAt,
        task.updatedAt,
        task.endedAt ?? null,
        task.landed ? 1 : 0,
      );
  }

  /** Saves where a task stands now (its status, message, why it ended, when). */
  update(task: Pick<TaskRecord, 'key' | 'status' | 'statusMessage' | 'reason' | 'followUp' | 'updatedAt' | 'endedAt' | 'landing' | 'landed'>): void {
    this.db
      .prepare('UPDATE tasks SET status = ?, status_message = ?, reason = ?, follow_up = ?, updated_at = ?, ended_at = ?, landing = ?, landed = ? WHERE key = ?')
      .run(
        task.status,
        task.statusMessage ?? null,
        task.reason ?? null,
        task.followUp ? 1 : 0,
        task.updatedAt,
        task.endedAt ?? null,
        task.landing === undefined ? null : JSON.stringify(task.landing),
        task.landed ? 1 : 0,
        task.key,
      );
  }

  /** Tasks still to follow or whose end is still to be put in their conversation. */
  unfinished(): TaskRecord[] {
    return this.db
      .prepare('SELECT * FROM tasks WHERE ended_at IS NULL OR landed = 0 ORDER BY started_at')
      .all()
      .map((row) => readTask(new RowReader('tasks', row)));
  }

  /** Every running task and the latest ended ones, the newest first. */
  list(): TaskRecord[] {
    return this.db
      .prepare(`SELECT * FROM tasks WHERE ended_at IS NULL UNION ALL SELECT * FROM (SELECT * FROM tasks WHERE ended_at IS NOT NULL ORDER BY ended_at DESC LIMIT ${ENDED_LISTED}) ORDER BY started_at DESC`)
      .all()
      .map((row) => readTask(new RowReader('tasks', row)));
  }

  /** The calls (conversation and call id) of tasks still running: they stay running across a restart. */
  runningCalls(): { conversationId: string; callId: string }[] {
    return this.db
      .prepare('SELECT conversation_id, call_id FROM tasks WHERE ended_at IS NULL AND conversation_id IS NOT NULL')
      .all()
      .map((found) => {
        const row = new RowReader('tasks', found);
        return { conversationId: row.text('conversation_id'), callId: row.text('call_id') };
      });
  }
}

const statuses = ['working', 'input_required', 'completed', 'failed', 'cancelled', 'lost'] as const satisfies readonly TaskStatus[];

function readTask(row: RowReader): TaskRecord {
  const task: TaskRecord = {
    key: row.text('key'),
    serverId: row.text('server_id'),
    taskId: row.text('task_id'),
    reference: row.json('reference') as Record<string, unknown>,
    callId: row.text('call_id'),
    origin: row.json('origin') as Record<string, unknown>,
    tool: row.json('tool') as ToolSummary,
    arguments: row.json('arguments') as Record<string, unknown>,
    decision: row.json('decision') as TaskRecord['decision'],
    outlivesAtrium: row.int('outlives_atrium') !== 0,
    status: row.oneOf('status', statuses),
    followUp: row.int('follow_up') !== 0,
    startedAt: row.int('started_at'),
    updatedAt: row.int('updated_at'),
    landed: row.int('landed') !== 0,
  };
  const conversationId = row.optText('conversation_id');
  const statusMessage = row.optText('status_message');
  const reason = row.optText('reason');
  const endedAt = row.optInt('ended_at');
  const landing = row.optJson('landing');
  if (landing !== undefined && landing !== null) task.landing = landing as Record<string, unknown>;
  if (conversationId !== undefined) task.conversationId = conversationId;
  if (statusMessage !== undefined) task.statusMessage = statusMessage;
  if (reason !== undefined) task.reason = reason;
  if (endedAt !== undefined) task.endedAt = endedAt;
  return task;
}
