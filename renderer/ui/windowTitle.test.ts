import assert from 'node:assert/strict';
import { test } from 'node:test';
import { windowTitle } from './windowTitle.ts';

test('the window is named after what is open, with the requests waiting for an answer first', () => {
  assert.equal(windowTitle({ place: 'garden tips', waiting: 0 }), 'garden tips — Atrium');
  assert.equal(windowTitle({ place: 'Servers', waiting: 2 }), '(2) Servers — Atrium');
  assert.equal(windowTitle({ place: null, waiting: 0 }), 'Atrium', 'nothing open yet');
});
