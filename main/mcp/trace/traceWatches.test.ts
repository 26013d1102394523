import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TraceWatches } from './traceWatches.ts';

function watchesAt(): { watches: TraceWatches; changes: [string, boolean][]; clock: { now: number } } {
  const changes: [string, boolean][] = [];
  const clock = { now: 0 };
  const watches = new TraceWatches((serverId, watched) => changes.push([serverId, watched]), { leaseMs: 60_000, now: () => clock.now });
  return { watches, changes, clock };
}

test('a server is watched from its first watch until its last one ends', () => {
  const { watches, changes } = watchesAt();
  const first = watches.watch('a');
  const second = watches.watch('a');
  watches.watch('b');
  assert.deepEqual(changes, [
    ['a', true],
    ['b', true],
  ]);
  watches.unwatch(first);
  assert.equal(watches.isWatched('a'), true);
  watches.unwatch(second);
  watches.unwatch(second);
  assert.deepEqual(changes.at(-1), ['a', false]);
  assert.equal(changes.length, 3);
});

test('a watch nobody renews ends with its lease, as when the window that asked went away', () => {
  const { watches, changes, clock } = watchesAt();
  const kept = watches.watch('a');
  const forgotten = watches.watch('b');
  assert.equal(watches.renewWithinMs, 20_000);
  clock.now = 40_000;
  assert.equal(watches.renew(kept), true);
  clock.now = 60_000;
  assert.equal(watches.renew(kept), true);
  assert.equal(watches.renew(forgotten), false, 'its lease ran out');
  assert.deepEqual(changes.at(-1), ['b', false]);
  assert.equal(watches.isWatched('a'), true);
  watches.unwatch(kept);
});
