// One task on its server, as the connection follows it: its status as it moves, how it ended, and the
// person's Cancel (tasks/cancel, never notifications/cancelled). The tasks library polls tasks/get (no
// sooner than the server's pollInterval), listens to the server's status notifications and fetches the
// result; what it cannot do is added here, beside it:
//
// - On 2025-11-25, a task that needs input says `input_required` and sends its question only on an open
//   tasks/result (the spec's input flow; server-everything does so). The library asks for the result only
//   once the task has ended, so such a task would wait for ever: here tasks/result is sent as soon as the
//   task asks for input, and the result it brings is the task's.
// - A task whose connection ends is not failed: it is interrupted, and may be followed again on the next
//   connection (a remote server keeps its tasks; a stdio server's die with its process).

import type { CallToolResult } from '@modelcontextprotocol/client';
import type { SerializedTaskReference, TaskOutcome, TaskView, ToolExecution } from '@modelcontextprotocol/ext-tasks/client';
import type { RawAnswer } from '../../connection/toolCallChannel.ts';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

export interface TaskState {
  status: TaskStatus;
  /** The server's words: untrusted text. */
  statusMessage?: string;
}

/** How a task ended, as far as this connection can tell. */
export type TaskRunEnd =
  | { kind: 'completed'; result: CallToolResult }
  | { kind: 'failed'; message: string }
  | { kind: 'cancelled'; reason?: string }
  /** The connection ended first (or Atrium stopped following it): the task itself may still run. */
  | { kind: 'interrupted'; message: string };

/** What a task is named by across restarts: the tasks library's reference (endpoint, revision, id). */
export type TaskReference = SerializedTaskReference;

type TaskExecution = Extract<ToolExecution<unknown>, { kind: 'task' }>;

export interface TaskRunOptions {
  serverId: string;
  execution: TaskExecution;
  /** 2025-11-25 only: tasks/result sent at once, answered when the task ends (its questions come on it meanwhile). */
  fetchResult?: (signal: AbortSignal) => Promise<RawAnswer>;
  /** Why this connection ended, once it has: a failure then is an interruption, not the task's. */
  connectionLost(): string | undefined;
  /** The result as Atrium takes it (its shape, its tool's output schema); throws with the reason otherwise. */
  checkResult(result: unknown): CallToolResult;
  /** Why the task was cancelled when Atrium cancelled it for the person (a question they declined). */
  cancelReason?(): string | undefined;
  log(text: string): void;
}

export class TaskRun {
  readonly serverId: string;
  readonly taskId: string;
  readonly reference: TaskReference;
  /** Resolves once, when the task ended or this connection stopped following it. */
  readonly ended: Promise<TaskRunEnd>;
  readonly #options: TaskRunOptions;
  readonly #execution: TaskExecution;
  readonly #listeners = new Set<(state: TaskState) => void>();
  readonly #early = new AbortController();
  #state: TaskState;
  #settle: (end: TaskRunEnd) => void = () => undefined;
  #settled = false;
  #detached = false;
  #askedEarly = false;

  constructor(options: TaskRunOptions) {
    this.#options = options;
    this.#execution = options.execution;
    this.serverId = options.serverId;
    this.taskId = options.execution.handle.taskId;
    this.reference = options.execution.serializeReference();
    // The status it was created with comes first on its updates, at once.
    this.#state = { status: 'working' };
    this.ended = new Promise((resolve) => {
      this.#settle = (end) => {
        if (this.#settled) return;
        this.#settled = true;
        this.#early.abort();
        if (end.kind === 'completed' || end.kind === 'failed' || end.kind === 'cancelled') this.#set({ ...this.#state, status: end.kind });
        resolve(end);
      };
    });
    void this.#follow();
    void this.#execution.result().then((outcome) => this.#settle(this.#endOf(outcome)));
  }

  get state(): TaskState {
    return this.#state;
  }

  get isOver(): boolean {
    return this.#settled;
  }

  /** Told of every change of status or message, and of the last one when the task ends. */
  onChange(listener: (state: TaskState) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** tasks/cancel; resolves once the server acknowledged it (the task then ends as cancelled). */
  async cancel(): Promise<void> {
    if (this.#settled) return;
    await this.#execution.cancel();
  }

  /** Stops following the task without cancelling it (Atrium quits; a remote task is followed again at the next start). */
  detach(reason: string): void {
    if (this.#settled) return;
    this.#detached = true;
    this.#settle({ kind: 'interrupted', message: reason });
    void this.#execution.detach();
  }

  /** The result, or the reason it did not come, as an error. */
  async result(): Promise<CallToolResult> {
    const end = await this.ended;
    if (end.kind === 'completed') return end.result;
    throw new Error(end.kind === 'cancelled' ? 'the task was cancelled' : end.message);
  }

  async #follow(): Promise<void> {
    try {
      for await (const event of this.#execution.updates()) if (event.type === 'task') this.#moved(event.task);
    } catch {
      // The outcome says how it ended.
    }
  }

  #moved(view: TaskView): void {
    if (this.#settled) return;
    this.#set(stateOf(view));
    if (view.status === 'input_required') void this.#fetchEarly();
  }

  #set(state: TaskState): void {
    const before = this.#state;
    this.#state = state;
    if (before.status === state.status && before.statusMessage === state.statusMessage) return;
    for (const listener of [...this.#listeners]) listener(state);
  }

  /** 2025-11-25: the task asks for input, which its server sends only on an open tasks/result. */
  async #fetchEarly(): Promise<void> {
    const fetchResult = this.#options.fetchResult;
    if (!fetchResult || this.#askedEarly) return;
    this.#askedEarly = true;
    this.#options.log(`task ${this.taskId} needs input: its result is asked for now (tasks/result), which is where its server sends the question`);
    while (!this.#settled) {
      let answer: RawAnswer;
      try {
        answer = await fetchResult(this.#early.signal);
      } catch (error) {
        if (this.#settled || this.#options.connectionLost() !== undefined) return;
        // A long question may outlast one request's time limit: ask again while the task runs.
        if (/timed out|timeout/i.test((error as Error).message)) continue;
        this.#options.log(`task ${this.taskId}: tasks/result failed (${(error as Error).message}); its status is still polled`);
        return;
      }
      if (answer.kind === 'error') {
        // A failed or cancelled task answers tasks/result with an error: its status says which.
        this.#options.log(`task ${this.taskId}: tasks/result answered ${answer.error.message}; its status is still polled`);
        return;
      }
      this.#settle(this.#checked(answer.result));
      // Its result is in: polling it any further would only ask about a task that ended.
      void this.#execution.detach();
      return;
    }
  }

  #checked(result: unknown): TaskRunEnd {
    try {
      return { kind: 'completed', result: this.#options.checkResult(result) };
    } catch (error) {
      return { kind: 'failed', message: (error as Error).message };
    }
  }

  #endOf(outcome: TaskOutcome<unknown>): TaskRunEnd {
    if (outcome.status === 'completed') return this.#checked(outcome.result);
    if (outcome.status === 'cancelled') {
      const reason = this.#options.cancelReason?.();
      return { kind: 'cancelled', ...(reason ? { reason } : {}) };
    }
    const lost = this.#detached ? 'Atrium stopped following it' : this.#options.connectionLost();
    if (lost !== undefined) return { kind: 'interrupted', message: lost };
    // Neither the server's word that it failed nor its error: a poll that timed out or could not be sent.
    // The task itself may run on; it is followed again rather than given up.
    if (outcome.task === undefined && outcome.error.code === undefined) return { kind: 'interrupted', message: outcome.error.message };
    return { kind: 'failed', message: outcome.error.message };
  }
}

function stateOf(view: TaskView): TaskState {
  return { status: view.status, ...(view.statusMessage !== undefined ? { statusMessage: view.statusMessage } : {}) };
}
