// Servers that exit together reach the reaper as one line, one pass of its process-table scan for all.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ExitBatch } from './exitBatch.ts';

test('servers exiting together are told to the reaper in one line; one exiting later in a line of its own', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const lines: string[] = [];
  const batch = new ExitBatch((line) => lines.push(line), 100);
  batch.add(101);
  batch.add(102);
  t.mock.timers.tick(60);
  batch.add(103);
  assert.deepEqual(lines, [], 'nothing is told while servers may still be exiting together');
  t.mock.timers.tick(40);
  assert.deepEqual(lines, ['- 101 102 103']);
  batch.add(104);
  t.mock.timers.tick(100);
  assert.deepEqual(lines, ['- 101 102 103', '- 104']);
});
