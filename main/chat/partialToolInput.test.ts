import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import { PartialToolInputs } from './partialToolInput.ts';

function recorder(options: { intervalMs: number; now: () => number }) {
  const shown: Array<[string, Record<string, unknown>]> = [];
  const inputs = new PartialToolInputs((callId, soFar) => shown.push([callId, soFar]), options);
  return { inputs, shown };
}

test('a call’s arguments are read as far as they go, whole numbers and words only, each change once', () => {
  let clock = 0;
  const { inputs, shown } = recorder({ intervalMs: 0, now: () => clock++ });
  inputs.add('a', '');
  inputs.add('a', '{"title": "Sal');
  inputs.add('a', 'es", "values": [1');
  inputs.add('a', '00, 2');
  inputs.add('a', '');
  inputs.add('a', '5]}');
  inputs.add('b', '{"x": true}');
  inputs.add('c', '[1, 2]');
  inputs.add('d', 'not json');
  assert.deepEqual(shown, [
    ['a', { title: 'Sal' }],
    ['a', { title: 'Sales', values: [] }],
    ['a', { title: 'Sales', values: [100] }],
    ['a', { title: 'Sales', values: [100, 25] }],
    ['b', { x: true }],
  ]);
});

test('shown at most once per interval however fast the pieces come, and the last piece is shown after a pause', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    let clock = 1_000;
    const { inputs, shown } = recorder({ intervalMs: 50, now: () => clock });
    inputs.add('a', '{"n": "a');
    inputs.add('a', 'b');
    clock += 20;
    inputs.add('a', 'c');
    assert.deepEqual(shown, [['a', { n: 'a' }]], 'within the interval, nothing more yet');
    clock += 30;
    mock.timers.tick(50);
    assert.deepEqual(shown.at(-1), ['a', { n: 'abc' }], 'what came in the interval is shown at its end');
    inputs.add('a', 'd');
    inputs.end('a');
    mock.timers.tick(100);
    assert.equal(shown.length, 2, 'a call whose whole arguments arrived is shown no more');
  } finally {
    mock.timers.reset();
  }
});
