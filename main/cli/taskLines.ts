// Tasks on the terminal (MCP Tasks): a call that runs as a task says where it stands on stderr as it moves
// (status and the server's message, as the window's card does), and Ctrl+C cancels what still runs with
// tasks/cancel before the command ends; a stdio server's tasks would end with it anyway, but its server
// is told.

import type { RunningHost } from '../app/hostCore.ts';
import type { TaskView } from '../../shared/contract.ts';
import { visible } from './formatOutput.ts';

/** How long Ctrl+C waits for the servers to acknowledge their tasks' cancellation. */
const CANCEL_WAIT_MS = 3_000;

export interface TaskLines {
  /** The tasks of `conversationId` (every task, without one) still running, as last heard. */
  running(conversationId?: string): TaskView[];
  /** Resolves once every task of `conversationId` (every task, without one) has ended. */
  allEnded(conversationId?: string): Promise<TaskView[]>;
  /** Cancels every running task (tasks/cancel), waiting a few seconds at most; returns how many. */
  cancelRunning(): Promise<number>;
  stop(): void;
}

export function followTasks(core: RunningHost, err: (text: string) => void): TaskLines {
  const said = new Map<string, string>();
  const latest = new Map<string, TaskView>();
  const waiters = new Set<() => void>();
  const off = core.events.on('taskChanged', (task) => {
    latest.set(task.key, task);
    const line = statusLine(task);
    if (said.get(task.key) !== line) {
      said.set(task.key, line);
      err(line);
    }
    for (const waiter of [...waiters]) waiter();
  });
  const running = (conversationId?: string) => [...latest.values()].filter((task) => task.endedAt === undefined && (conversationId === undefined || task.conversationId === conversationId));
  return {
    running,
    allEnded: (conversationId) =>
      new Promise((resolve) => {
        const check = () => {
          if (running(conversationId).length > 0) return;
          waiters.delete(check);
          resolve([...latest.values()].filter((task) => conversationId === undefined || task.conversationId === conversationId));
        };
        waiters.add(check);
        check();
      }),
    cancelRunning: async () => {
      const tasks = running();
      const cancelled = tasks.map((task) =>
        core.api.cancelTask({ key: task.key }).then(
          () => err(`atrium: cancelled task ${visible(task.taskId)} of ${visible(task.serverId)}/${visible(task.tool)}`),
          (error: unknown) => err(`atrium: could not cancel task ${visible(task.taskId)}: ${(error as Error).message}`),
        ),
      );
      await Promise.race([Promise.all(cancelled), new Promise((resolve) => setTimeout(resolve, CANCEL_WAIT_MS).unref())]);
      return tasks.length;
    },
    stop: off,
  };
}

/** `atrium: task <server>/<tool> (<id>): working — <message>`, in the person's words. */
export function statusLine(task: TaskView): string {
  const what = `task ${visible(task.serverId)}/${visible(task.tool)} (${visible(task.taskId)})`;
  const status = task.waiting ?? (task.status === 'input_required' ? 'needs your answer' : task.status);
  const message = task.statusMessage && task.endedAt === undefined ? ` — ${visible(task.statusMessage)}` : '';
  const reason = task.reason && task.endedAt !== undefined ? `: ${visible(task.reason)}` : '';
  return `atrium: ${what}: ${status}${message}${reason}`;
}
