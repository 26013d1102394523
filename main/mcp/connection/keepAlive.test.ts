import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startKeepAlive } from './keepAlive.ts';

test('MCP 2024-11-05 Ping (SHOULD periodically ping; no answer means stale): keep-alive declares a server hung after the allowed misses in a row, and a success resets the count', async (t) => {
  t.mock.timers.enable({ apis: ['setInterval'] });
  const answers = [false, true, false, false];
  const misses: number[] = [];
  let hung = 0;
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  startKeepAlive({
    intervalMs: 100,
    missesAllowed: 2,
    ping: async () => {
      if (!answers.shift()) throw new Error('timeout');
    },
    onMiss: (count) => misses.push(count),
    onHung: () => hung++,
  });
  for (let tick = 0; tick < 6; tick++) {
    t.mock.timers.tick(100);
    await settle();
  }
  assert.deepEqual(misses, [1, 1, 2]);
  assert.equal(hung, 1, 'declared hung once, then it stops pinging');
});

test('an interval of 0 never pings', () => {
  let pinged = false;
  const stop = startKeepAlive({ intervalMs: 0, missesAllowed: 1, ping: async () => (pinged = true), onMiss: () => undefined, onHung: () => undefined });
  stop();
  assert.equal(pinged, false);
});
