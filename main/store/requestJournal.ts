// The requests from servers (and the agent loop) a person was asked to settle — tool approvals,
// sampling, elicitation and skills — with their payload and how each ended: answered (the answer, secrets
// masked) or withdrawn (why). One of the history's stores (historyStore.ts opens the tables).

import type { Database } from './database.ts';
import { readOne, readRows } from './rowReader.ts';
import type { RowReader } from './rowReader.ts';

export type PendingRequestKind = 'sampling' | 'elicitation' | 'tool_approval' | 'skill';
export type PendingRequestStatus = 'open' | 'settled' | 'withdrawn';

export interface PendingRequestRecord {
  id: string;
  conversationId?: string;
  serverId: string;
  kind: PendingRequestKind;
  payload: unknown;
  outcome?: unknown;
  status: PendingRequestStatus;
  createdAt: number;
  settledAt?: number;
}

function readPendingRequest(row: RowReader): PendingRequestRecord {
  const request: PendingRequestRecord = {
    id: row.text('id'),
    serverId: row.text('server_id'),
    kind: row.oneOf('kind', ['sampling', 'elicitation', 'tool_approval', 'skill']),
    payload: row.optJson('payload'),
    status: row.oneOf('status', ['open', 'settled', 'withdrawn']),
    createdAt: row.int('created_at'),
  };
  const conversationId = row.optText('conversation_id');
  const outcome = row.optJson('outcome');
  const settledAt = row.optInt('settled_at');
  if (conversationId !== undefined) request.conversationId = conversationId;
  if (outcome !== undefined) request.outcome = outcome;
  if (settledAt !== undefined) request.settledAt = settledAt;
  return request;
}

function prepareStatements(db: Database) {
  return {
    insertRequest: db.prepare(`
      INSERT INTO pending_requests (id, conversation_id, server_id, kind, payload, status, created_at)
      VALUES (?, ?, ?, ?, ?, 'open', ?)`),
    getRequest: db.prepare('SELECT * FROM pending_requests WHERE id = ?'),
    listOpenRequests: db.prepare("SELECT * FROM pending_requests WHERE status = 'open' ORDER BY created_at, rowid"),
    settleRequest: db.prepare("UPDATE pending_requests SET status = 'settled', outcome = ?, settled_at = ? WHERE id = ? AND status = 'open'"),
    withdrawRequest: db.prepare("UPDATE pending_requests SET status = 'withdrawn', outcome = ?, settled_at = ? WHERE id = ? AND status = 'open'"),
    withdrawServerRequests: db.prepare("UPDATE pending_requests SET status = 'withdrawn', settled_at = ? WHERE server_id = ? AND status = 'open'"),
    withdrawAllRequests: db.prepare("UPDATE pending_requests SET status = 'withdrawn', settled_at = ? WHERE status = 'open'"),
  };
}

export class RequestJournal {
  private readonly sql: ReturnType<typeof prepareStatements>;
  private readonly now: () => number;
  private readonly newId: () => string;

  /** `db` must have been opened with `historyMigrations` among its migrations. */
  constructor(db: Database, now: () => number, newId: () => string) {
    this.sql = prepareStatements(db);
    this.now = now;
    this.newId = newId;
  }

  record(request: { id?: string; conversationId?: string; serverId: string; kind: PendingRequestKind; payload: unknown }): PendingRequestRecord {
    const id = request.id ?? this.newId();
    this.sql.insertRequest.run(id, request.conversationId ?? null, request.serverId, request.kind, JSON.stringify(request.payload ?? null), this.now());
    return this.require(id);
  }

  /** Records the person's answer; false when the request was already settled or withdrawn. */
  settle(id: string, outcome: unknown): boolean {
    return Number(this.sql.settleRequest.run(JSON.stringify(outcome ?? null), this.now(), id).changes) > 0;
  }

  /** The request was withdrawn (its server left, its caller gave up); `reason` is kept as its outcome. */
  withdraw(id: string, reason: string): boolean {
    return Number(this.sql.withdrawRequest.run(JSON.stringify({ withdrawn: reason }), this.now(), id).changes) > 0;
  }

  /** The server went away: its open requests can no longer be answered. Returns how many were open. */
  withdrawForServer(serverId: string): number {
    return Number(this.sql.withdrawServerRequests.run(this.now(), serverId).changes);
  }



  get(id: string): PendingRequestRecord | undefined {
    return readOne('pending_requests', this.sql.getRequest.get(id), readPendingRequest);
  }

  listOpen(): PendingRequestRecord[] {
    return readRows('pending_requests', this.sql.listOpenRequests.all(), readPendingRequest);
  }

  private require(id: string): PendingRequestRecord {
    const request = this.get(id);
    if (request === undefined) throw new Error(`history: request ${id} was not saved`);
    return request;
  }

  /** Requests open when the process died: withdrawn with it. Returns how many. */
  withdrawAll(): number {
    return Number(this.sql.withdrawAllRequests.run(this.now()).changes);
  }
}
