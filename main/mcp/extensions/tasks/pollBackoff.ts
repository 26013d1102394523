// How often a task is polled when its server gives no pollInterval. The tasks library polls every second
// then, for the task's whole life; a task that runs for an hour would be asked 3,600 times. Here a task
// without a hint is polled after 1 s, then twice as long each time up to 30 s, and from 1 s again once
// its status moves (it is doing something, its next step may be near). A server's own pollInterval is
// always what it says: the hint is only added where the server gave none.

const FIRST_MS = 1_000;
const CAP_MS = 30_000;

interface Seen {
  status: unknown;
  statusMessage: unknown;
  nextMs: number;
}

export class PollBackoff {
  readonly #tasks = new Map<string, Seen>();

  /**
   * The `tasks/get` result as the tasks library should read it: with `pollInterval` (2025-11-25) or
   * `pollIntervalMs` (2026-07-28) set to the backoff when the server sent none. A task that ended is forgotten.
   */
  hint(result: unknown, field: 'pollInterval' | 'pollIntervalMs'): unknown {
    if (typeof result !== 'object' || result === null || Array.isArray(result)) return result;
    const task = result as Record<string, unknown>;
    const taskId = task.taskId;
    if (typeof taskId !== 'string') return result;
    if (task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled') {
      this.#tasks.delete(taskId);
      return result;
    }
    if (typeof task[field] === 'number') return result;
    const seen = this.#tasks.get(taskId);
    const moved = seen === undefined || seen.status !== task.status || seen.statusMessage !== task.statusMessage;
    const delayMs = moved ? FIRST_MS : seen.nextMs;
    this.#tasks.set(taskId, { status: task.status, statusMessage: task.statusMessage, nextMs: Math.min(CAP_MS, delayMs * 2) });
    return { ...task, [field]: delayMs };
  }

  forget(taskId: string): void {
    this.#tasks.delete(taskId);
  }
}
