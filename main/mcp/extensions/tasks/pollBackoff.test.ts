// The backoff used when a server gives no pollInterval: 1 s, doubling to 30 s, back to 1 s when the task
// moves; a server's own interval is never changed.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PollBackoff } from './pollBackoff.ts';

const working = (statusMessage?: string) => ({ taskId: 't', status: 'working', ...(statusMessage ? { statusMessage } : {}) });
const interval = (value: unknown) => (value as { pollInterval?: number }).pollInterval;

test('without a pollInterval a task is polled after 1 s, then twice as long each time, never more than 30 s apart', () => {
  const backoff = new PollBackoff();
  const seen = Array.from({ length: 8 }, () => interval(backoff.hint(working(), 'pollInterval')));
  assert.deepEqual(seen, [1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
});

test('a task whose status or message moved is polled after 1 s again', () => {
  const backoff = new PollBackoff();
  for (let i = 0; i < 4; i++) backoff.hint(working('step 1'), 'pollInterval');
  assert.equal(interval(backoff.hint(working('step 2'), 'pollInterval')), 1_000);
  assert.equal(interval(backoff.hint({ taskId: 't', status: 'input_required', statusMessage: 'step 2' }, 'pollInterval')), 1_000);
});

test("the server's own interval is kept as it said, in both revisions' field names", () => {
  const backoff = new PollBackoff();
  assert.equal(interval(backoff.hint({ ...working(), pollInterval: 250 }, 'pollInterval')), 250);
  const modern = backoff.hint({ taskId: 't', status: 'working', pollIntervalMs: 300 }, 'pollIntervalMs') as { pollIntervalMs: number };
  assert.equal(modern.pollIntervalMs, 300);
  const hinted = backoff.hint({ taskId: 'u', status: 'working' }, 'pollIntervalMs') as { pollIntervalMs: number; pollInterval?: number };
  assert.deepEqual([hinted.pollIntervalMs, hinted.pollInterval], [1_000, undefined]);
});

test('an ended task gets no hint and is forgotten; what is not a task passes as it is', () => {
  const backoff = new PollBackoff();
  backoff.hint(working(), 'pollInterval');
  const done = { taskId: 't', status: 'completed' };
  assert.equal(backoff.hint(done, 'pollInterval'), done);
  assert.equal(interval(backoff.hint(working(), 'pollInterval')), 1_000);
  for (const value of [null, 'text', [1], { status: 'working' }]) assert.equal(backoff.hint(value, 'pollInterval'), value);
});
