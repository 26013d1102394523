// How a task's state is said in the window: its status in words, and how long it has run.

import type { TaskView } from '../contract/tasksContract.ts';

const said: Record<TaskView['status'], string> = {
  working: 'Running as a task',
  input_required: 'Needs your answer',
  completed: 'Task finished',
  failed: 'Task failed',
  cancelled: 'Task cancelled',
  lost: 'Task lost',
};

export function taskStatusText(task: TaskView): string {
  if (task.waiting !== undefined && task.endedAt === undefined) return 'Waiting for its server';
  return said[task.status];
}

/** "840 ms", "12 s", "3 min 5 s", "1 h 2 min". */
export function elapsed(ms: number): string {
  const seconds = Math.max(0, Math.round(ms / 1000));
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
  return `${Math.floor(seconds / 3600)} h ${Math.floor((seconds % 3600) / 60)} min`;
}
