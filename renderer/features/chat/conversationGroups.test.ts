import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dateGroupOf, groupByDate } from './conversationGroups.ts';

const now = new Date(2026, 10, 27, 9, 30);
const at = (daysAgo: number, hour = 12) => new Date(2026, 10, 27 - daysAgo, hour).getTime();

test('a conversation falls in the span of its last message, counted in the person’s days', () => {
  assert.equal(dateGroupOf(new Date(2026, 10, 27, 0, 5).getTime(), now), 'Today');
  assert.equal(dateGroupOf(new Date(2026, 10, 26, 23, 55).getTime(), now), 'Yesterday', 'before midnight is yesterday, however near');
  assert.equal(dateGroupOf(at(6), now), 'Previous 7 days');
  assert.equal(dateGroupOf(at(20), now), 'Previous 30 days');
  assert.equal(dateGroupOf(at(90), now), 'Older');
});

test('the list keeps its order, cut into the spans that have conversations', () => {
  const summary = (id: string, updatedAt: number) => ({ id, title: id, createdAt: updatedAt, updatedAt });
  const groups = groupByDate([summary('a', at(0)), summary('b', at(0, 8)), summary('c', at(3)), summary('d', at(200))], now);
  assert.deepEqual(
    groups.map(({ group, conversations }) => [group, conversations.map((c) => c.id)]),
    [
      ['Today', ['a', 'b']],
      ['Previous 7 days', ['c']],
      ['Older', ['d']],
    ],
  );
});
