import assert from 'node:assert/strict';
import { test } from 'node:test';
import { durationText } from './durationText.ts';

test('a duration is said the same everywhere: milliseconds, tenths of a second, minutes, hours', () => {
  assert.deepEqual([386, 840.4, 2400, 18_240, 185_000, 3_725_000].map((ms) => durationText(ms)), ['386 ms', '840 ms', '2.4 s', '18.2 s', '3 min 5 s', '1 h 2 min']);
  assert.deepEqual([2000, 60_000, 120_000].map((ms) => durationText(ms)), ['2 s', '1 min', '2 min'], 'a time limit as a person would say it');
});

test("a trace's quick requests are said to the hundredth of a millisecond", () => {
  assert.deepEqual([0.4236, 12.4, 2400].map((ms) => durationText(ms, { fine: true })), ['0.42 ms', '12 ms', '2.4 s']);
  assert.equal(durationText(0.4236), '0 ms');
});
