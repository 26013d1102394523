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

