import assert from 'node:assert/strict';
import { test } from 'node:test';
import { expiryText, timeFromNow } from './timeFromNow.ts';

const now = Date.UTC(2026, 0, 1, 12, 0, 0);
const minutes = (n: number) => now + n * 60_000;

test('a time ahead reads as how long until it, rounded to the minute', () => {
  assert.equal(timeFromNow(now + 20_000, now), 'in less than a minute');
  assert.equal(timeFromNow(minutes(52) + 10_000, now), 'in 52 min');
  assert.equal(timeFromNow(minutes(59) + 50_000, now), 'in 1 h', 'an hour token read a few seconds later');
  assert.equal(timeFromNow(minutes(65), now), 'in 1 h 5 min');
  assert.equal(timeFromNow(minutes(47 * 60 + 59), now), 'in 47 h 59 min');
  assert.equal(timeFromNow(minutes(3 * 24 * 60), now), 'in 3 days');
});

test('a time gone by reads as how long ago', () => {
  assert.equal(timeFromNow(now - 5_000, now), 'less than a minute ago');
  assert.equal(timeFromNow(minutes(-2), now), '2 min ago');
  assert.equal(timeFromNow(minutes(-120), now), '2 h ago');
});

test('a token\'s lifetime says whether it expires or already expired, and when', () => {
  assert.equal(expiryText(minutes(60), now), 'expires in 1 h');
  assert.equal(expiryText(now + 20_000, now), 'expires in less than a minute');
  assert.equal(expiryText(minutes(180), now), 'expires in 3 h');
  assert.equal(expiryText(minutes(60 * 24 * 30), now), 'expires in 30 days');
  assert.equal(expiryText(minutes(-5), now), 'expired 5 min ago');
});
