import assert from 'node:assert/strict';
import { test } from 'node:test';
import { defaultRestartPolicy, nextRestartDelay } from './restartPolicy.ts';

test('restarts back off exponentially, are capped, and stop after repeated failures', () => {
  const policy = { ...defaultRestartPolicy, baseDelayMs: 100, maxDelayMs: 1000, maxConsecutiveFailures: 6 };
  assert.deepEqual([1, 2, 3, 4, 5].map((n) => nextRestartDelay(policy, n)), [100, 200, 400, 800, 1000]);
  assert.equal(nextRestartDelay(policy, 6), null);
});
