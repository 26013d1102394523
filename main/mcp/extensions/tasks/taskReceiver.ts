// A server's sampling or elicitation request sent as a task (2025-11-25: `params.task`): the tasks
// library's receiver answers at once with a task, runs the request through the same brokers as any other
// (the person's dialogs, the CLI's answers), and answers the server's tasks/get, tasks/result, tasks/list
// and tasks/cancel while the person takes their time. A request without `params.task` goes to the
// client's own handler, as before.

import type { Client } from '@modelcontextprotocol/client';
import { bindTaskReceiver } from '@modelcontextprotocol/ext-tasks/receiver';
import type { TaskReceiverBinding } from '@modelcontextprotocol/ext-tasks/receiver';
import type { JsonValue } from '@modelcontextprotocol/ext-tasks/core';
import type { ElicitationBroker, ElicitationParams, SamplingBroker, SamplingParams } from '../../connection/connectionServices.ts';

/** How long a finished request task stays readable by its server. */
const RECEIVED_TASK_TTL_MS = 30 * 60_000;

export interface ReceiverServices {
  serverId: string;
  sampling: SamplingBroker;
  elicitation: ElicitationBroker;
  note(text: string, level?: 'info' | 'notice'): void;
}

/** Binds the receiver to a client whose own sampling and elicitation handlers are already set. */
export function receiveTasks(client: Client, services: ReceiverServices): TaskReceiverBinding {
  const { serverId, sampling, elicitation, note } = services;
  return bindTaskReceiver(client, {
    methods: { 'sampling/createMessage': true, 'elicitation/create': true },
    ttlMs: RECEIVED_TASK_TTL_MS,
    sampling: async (request, { signal }) => (await sampling.createMessage({ serverId, params: withoutTask(request.params) as unknown as SamplingParams, signal, note })) as unknown as Record<string, JsonValue>,
    elicitation: async (request, { signal }) => (await elicitation.elicit({ serverId, params: withoutTask(request.params) as unknown as ElicitationParams, signal, note })) as unknown as Record<string, JsonValue>,
    onError: (error, context) => note(`a ${context.method} task${context.taskId ? ` (${context.taskId})` : ''} failed: ${error instanceof Error ? error.message : String(error)}`),
  });
}

/** The request as the brokers read it: what it asks, without how it is to be run. */
function withoutTask(params: Readonly<Record<string, JsonValue>>): Record<string, JsonValue> {
  const { task: _task, ...asked } = params;
  return asked;
}
