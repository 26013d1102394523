// Tasks' section of the contract: the tasks calls started (a call its server runs on as a task), as the
// window's cards and Tasks panel show them, and what the person does with one. Registered with the other
// sections in shared/contract.ts.

import type { ParamsSchema } from '../../../../../shared/contract/schemaParts.ts';
import { noParams, serverId } from '../../../../../shared/contract/schemaParts.ts';

/** The tasks extension's identifier, as the `extensions` capability names it (2026-07-28). */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** Where a task stands: its server's word, or `lost` (its server's process ended, or the server forgot it). */
export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled' | 'lost';

export const endedTaskStatuses: readonly TaskStatus[] = ['completed', 'failed', 'cancelled', 'lost'];

/** One task a call started, as the window shows it. Text from its server is untrusted. */
export interface TaskView {
  /** Names the task in Atrium (cancelTask, setTaskFollowUp). */
  key: string;
  serverId: string;
  tool: string;
  /** The server's name for it. */
  taskId: string;
  /** The tool call it runs: its card in the conversation. */
  callId: string;
  /** Absent for the person's own call (`atrium call`, a front end's callTool request). */
  conversationId?: string;
  status: TaskStatus;
  /** What the server says it is doing (untrusted text). */
  statusMessage?: string;
  /** Set while it is not followed: its server is not connected now (it is followed again once it is). */
  waiting?: string;
  /** False for a local (stdio) server's task: it ends with the server's process, so with Atrium. */
  outlivesAtrium: boolean;
  /** The model answers as soon as its result comes, without waiting for the person's next message. */
  followUp: boolean;
  startedAt: number;
  updatedAt: number;
  endedAt?: number;
  /** Why it failed, was cancelled or lost, in words. */
  reason?: string;
}

/** A task a server lists of its own (tasks/list), whoever started it. */
export interface ServerTaskView {
  taskId: string;
  status: string;
  statusMessage?: string;
}

/** What each request of this section resolves with; its params are its schema's (`tasksRequests`). */
export interface TasksResults {
  /** Every task Atrium follows or followed, across conversations, the newest first (the Tasks panel). */
  listTasks: TaskView[];
  /** Cancels a running task: tasks/cancel to its server (never notifications/cancelled). */
  cancelTask: null;
  /** Whether the model answers at once when this task's result comes, or with the person's next message. */
  setTaskFollowUp: null;
  /** The tasks a server lists itself (tasks/list), where it offers the list. */
  listServerTasks: ServerTaskView[];
}

export interface TasksEvents {
  /** A task started, moved (status, message, waiting for its server) or ended: as it is now. */
  taskChanged: TaskView;
}

const key = { type: 'string', minLength: 1, maxLength: 100 } as const;

/** The JSON Schema of each request's params: the runtime half of this section. */
export const tasksRequests = {
  listTasks: noParams,
  cancelTask: { type: 'object', additionalProperties: false, required: ['key'], properties: { key } },
  setTaskFollowUp: { type: 'object', additionalProperties: false, required: ['key', 'followUp'], properties: { key, followUp: { type: 'boolean' } } },
  listServerTasks: { type: 'object', additionalProperties: false, required: ['serverId'], properties: { serverId } },
} as const satisfies { readonly [K in keyof TasksResults]: ParamsSchema };

/** A record rather than a list, so an event added to TasksEvents but not here fails the type-check. */
export const tasksEvents: { readonly [K in keyof TasksEvents]: true } = {
  taskChanged: true,
};
