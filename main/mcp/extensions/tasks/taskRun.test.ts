// How a task's end is read: the server's word that it failed, or its error answer, fail it; a poll that got
// no answer at all (timed out, could not be sent) only interrupts following it, so it is followed again.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { TaskFailedError } from '@modelcontextprotocol/ext-tasks/client';
import type { TaskOutcome, TaskView } from '@modelcontextprotocol/ext-tasks/client';
import { TaskRun } from './taskRun.ts';
import type { TaskRunOptions } from './taskRun.ts';

/** A task the library follows, whose outcome is the test's. */
function runEndingWith(outcome: TaskOutcome<unknown>): TaskRun {
  const execution = {
    kind: 'task',
    handle: { taskId: 'task-1' },
    serializeReference: () => ({ endpointId: 'e', generation: 'v2', taskId: 'task-1' }),
    updates: async function* () {},
    result: async () => outcome,
    cancel: async () => undefined,
    detach: async () => undefined,
  };
  return new TaskRun({
    serverId: 'research',
    execution: execution as unknown as TaskRunOptions['execution'],
    connectionLost: () => undefined,
    checkResult: (result) => result as CallToolResult,
    log: () => undefined,
  });
}

const failedTask = { taskId: 'task-1', status: 'failed', retentionMs: null, ttl: null, raw: {}, extensions: {} } as unknown as TaskView;

test('a poll that timed out interrupts following the task; it does not fail it', async () => {
  const end = await runEndingWith({ status: 'failed', error: new TaskFailedError('Request timed out') }).ended;
  assert.deepEqual(end, { kind: 'interrupted', message: 'Request timed out' });
});

test("the server's error answer and the server's word that the task failed fail it", async () => {
  const answered = await runEndingWith({ status: 'failed', error: new TaskFailedError('Task not found', { code: -32602 }) }).ended;
  assert.deepEqual(answered, { kind: 'failed', message: 'Task not found' });
  const said = await runEndingWith({ status: 'failed', error: new TaskFailedError('the search backend is down'), task: failedTask }).ended;
  assert.deepEqual(said, { kind: 'failed', message: 'the search backend is down' });
});
