// Tasks' slice of the window's one store: a mirror of the tasks the host follows (read on every
// (re)connect, then kept by `taskChanged`), and whether the Tasks panel is open.

import type { TaskView } from '../contract/tasksContract.ts';
import type { SliceCreator } from '../../../../../renderer/store/AtriumState.ts';

export interface TasksSlice {
  /** Every task the host follows or followed, by its key. */
  tasks: Record<string, TaskView>;
  setTasks(tasks: TaskView[]): void;
  applyTask(task: TaskView): void;
  tasksPanelOpen: boolean;
  setTasksPanelOpen(open: boolean): void;
}

export const createTasksSlice: SliceCreator<TasksSlice> = (set) => ({
  tasks: {},
  setTasks: (tasks) => set({ tasks: Object.fromEntries(tasks.map((task) => [task.key, task])) }),
  applyTask: (task) => set((state) => ({ tasks: { ...state.tasks, [task.key]: task } })),
  tasksPanelOpen: false,
  setTasksPanelOpen: (tasksPanelOpen) => set({ tasksPanelOpen }),
});

/** The task a tool call of a conversation runs as, if it runs as one. */
export function taskOfCall(tasks: Record<string, TaskView>, conversationId: string | undefined, callId: string): TaskView | undefined {
  for (const task of Object.values(tasks)) if (task.callId === callId && task.conversationId === conversationId) return task;
  return undefined;
}

export function isRunning(task: TaskView): boolean {
  return task.endedAt === undefined;
}
