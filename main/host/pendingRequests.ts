// A request from a server (or from the agent loop) to the person becomes a pending record with an id,
// settled by one `respond(id, outcome)`. It is withdrawn when its server disconnects or its caller gives
// up (the signal), and the waiting side is told why. Front ends list the open ones and settle them:
// the CLI from flags or the terminal, the renderer's dialogs later.

import { randomUUID } from 'node:crypto';
import type { PendingKind, PendingOf, PendingRequestView } from '../../shared/pendingPayloads.ts';
import type { FieldProblem } from '../../shared/fieldProblems.ts';

export type { PendingKind };

/** An open request as the host keeps it: exactly what front ends are shown. */
export type PendingRecord = PendingRequestView;

export class PendingWithdrawnError extends Error {}

/** The answer does not fit the request (a malformed approval, a form answer that breaks its schema). */
export class InvalidOutcomeError extends Error {
  readonly code = 'invalid_params';
  /** For an answer to a form: each field at fault, worded for the person (the front end shows them beside the fields). */
  readonly fields: FieldProblem[] | undefined;

  constructor(problem: string | FieldProblem[]) {
    super(typeof problem === 'string' ? problem : problem.map((p) => p.message).join(' '));
    this.fields = typeof problem === 'string' ? undefined : problem;
  }
}

export interface PendingListener {
  opened(record: PendingRecord): void;
  /** `outcome` is the answer as it may be kept (secrets already masked); absent when withdrawn. */
  closed(record: PendingRecord, how: 'settled' | 'withdrawn', reason?: string, outcome?: unknown): void;
}

export interface PendingOptions<O> {
  conversationId?: string;
  /** The task of the server's the request is for, shown with it. */
  task?: { taskId: string; tool: string };
  signal?: AbortSignal;
  /** Why an answer is unacceptable (a form's answer: each field's problem), or undefined when it is fine; a refused answer leaves the request open. */
  check?(outcome: unknown): string | FieldProblem[] | undefined;
  /** The answer as history and listeners may keep it: secret fields masked. */
  redact?(outcome: O): unknown;
}

interface Waiter {
  record: PendingRecord;
  check?(outcome: unknown): string | FieldProblem[] | undefined;
  redact?(outcome: unknown): unknown;
  resolve(outcome: unknown): void;
  reject(error: Error): void;
}

export class PendingRequests {
  private readonly open = new Map<string, Waiter>();
  private readonly listener: PendingListener;

  constructor(listener: PendingListener) {
    this.listener = listener;
  }

  /** Opens a record and resolves with the outcome the person gives (or rejects when it is withdrawn). */
  request<K extends PendingKind, O>(kind: K, serverId: string, payload: PendingOf<K>['payload'], options: PendingOptions<O> = {}): Promise<O> {
    // The kind and its payload go together (the signature says so); TypeScript cannot follow K into the union.
    const record = {
      id: randomUUID(),
      kind,
      serverId,
      payload,
      createdAt: Date.now(),
      ...(options.conversationId ? { conversationId: options.conversationId } : {}),
      ...(options.task ? { task: options.task } : {}),
    } as PendingOf<K>;
    return new Promise<O>((resolve, reject) => {
      const onAbort = () => this.withdraw(record.id, 'the request was cancelled');
      options.signal?.addEventListener('abort', onAbort, { once: true });
      const cleanup = () => options.signal?.removeEventListener('abort', onAbort);
      this.open.set(record.id, {
        record,
        ...(options.check ? { check: options.check } : {}),
        ...(options.redact ? { redact: options.redact as (outcome: unknown) => unknown } : {}),
        resolve: (outcome) => {
          cleanup();
          resolve(outcome as O);
        },
        reject: (error) => {
          cleanup();
          reject(error);
        },
      });
      this.listener.opened(record);
      if (options.signal?.aborted) onAbort();
    });
  }

  list(): PendingRecord[] {
    return [...this.open.values()].map((waiter) => waiter.record);
  }

  /**
   * Settles a record; false when it is no longer open (already settled or withdrawn). An answer the
   * request cannot take throws InvalidOutcomeError and the record stays open for a better one.
   */
  respond(id: string, outcome: unknown): boolean {
    const waiter = this.open.get(id);
    if (!waiter) return false;
    const problem = waiter.check?.(outcome);
    if (problem !== undefined) throw new InvalidOutcomeError(problem);
    this.open.delete(id);
    this.listener.closed(waiter.record, 'settled', undefined, waiter.redact ? waiter.redact(outcome) : outcome);
    waiter.resolve(outcome);
    return true;
  }

  withdraw(id: string, reason: string): void {
    const waiter = this.open.get(id);
    if (!waiter) return;
    this.open.delete(id);
    this.listener.closed(waiter.record, 'withdrawn', reason);
    waiter.reject(new PendingWithdrawnError(reason));
  }

  /** A server that disconnects takes its open requests with it. */
  withdrawForServer(serverId: string, reason: string): void {
    for (const waiter of [...this.open.values()]) if (waiter.record.serverId === serverId) this.withdraw(waiter.record.id, reason);
  }
}
