import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { parseWindowState, readWindowState, restoreWindow, WINDOW_STATE_FILE, writeWindowState } from './windowState.ts';

const sizes = { width: 1200, height: 800, minWidth: 640, minHeight: 480 };
const laptop = { x: 0, y: 0, width: 1440, height: 875 };
const rightMonitor = { x: 1440, y: -200, width: 2560, height: 1415 };

test('a first start opens at the default size, centred (no position)', () => {
  assert.deepEqual(restoreWindow(undefined, [laptop], sizes), { bounds: { width: 1200, height: 800 }, maximized: false });
});

test('a window left on a display that is still there opens exactly where it was', () => {
  const saved = { bounds: { x: 1600, y: -100, width: 1400, height: 900 }, maximized: false };
  assert.deepEqual(restoreWindow(saved, [laptop, rightMonitor], sizes), { bounds: saved.bounds, maximized: false });
  assert.deepEqual(restoreWindow({ ...saved, maximized: true }, [laptop, rightMonitor], sizes).maximized, true);
});

test('a window left on a monitor that was unplugged opens centred on the primary display', () => {
  const saved = { bounds: { x: 1600, y: -100, width: 1400, height: 900 }, maximized: true };
  assert.deepEqual(restoreWindow(saved, [laptop], sizes), { bounds: { width: 1400, height: 875 }, maximized: true });
});

test('a window hanging mostly off the screen is pulled fully inside the display it overlaps', () => {
  const saved = { bounds: { x: 1200, y: 700, width: 1000, height: 700 }, maximized: false };
  assert.deepEqual(restoreWindow(saved, [laptop], sizes).bounds, { x: 440, y: 175, width: 1000, height: 700 });
  const above = { bounds: { x: 100, y: -500, width: 1000, height: 700 }, maximized: false };
  assert.deepEqual(restoreWindow(above, [laptop], sizes).bounds, { x: 100, y: 0, width: 1000, height: 700 });
});

test('a sliver of a window left on screen is not enough: it opens centred instead', () => {
  const saved = { bounds: { x: 1400, y: 100, width: 1000, height: 700 }, maximized: false };
  assert.deepEqual(restoreWindow(saved, [laptop], sizes).bounds, { width: 1000, height: 700 });
});

test('a window bigger than the display (the resolution dropped) is shrunk to it, never below the minimum size', () => {
  const saved = { bounds: { x: 0, y: 0, width: 3000, height: 2000 }, maximized: false };
  assert.deepEqual(restoreWindow(saved, [laptop], sizes).bounds, { x: 0, y: 0, width: 1440, height: 875 });
  const tiny = { x: 0, y: 0, width: 600, height: 400 };
  assert.deepEqual(restoreWindow({ bounds: { x: 0, y: 0, width: 100, height: 50 }, maximized: false }, [laptop], sizes).bounds, { width: 640, height: 480 });
  assert.deepEqual(restoreWindow(undefined, [tiny], sizes).bounds, { width: 640, height: 480 });
});

test('a missing, broken or foreign state file is ignored', () => {
  for (const text of [undefined, '', 'not json', 'null', '[]', '{"bounds":{"x":"1"}}', '{"bounds":{"x":0,"y":0,"width":0,"height":10}}', '{"bounds":{"x":0,"y":0,"width":1e400,"height":10}}']) {
    assert.equal(parseWindowState(text), undefined, String(text));
  }
  assert.deepEqual(parseWindowState('{"bounds":{"x":10.4,"y":-3,"width":900,"height":700},"maximized":"yes"}'), {
    bounds: { x: 10, y: -3, width: 900, height: 700 },
    maximized: false,
  });
});

test('the state is saved to the data folder and read back on the next start', async () => {
  const home = await makeTempDir('atrium-window-');
  try {
    assert.equal(await readWindowState(home), undefined);
    const state = { bounds: { x: 40, y: 50, width: 1000, height: 700 }, maximized: true };
    await writeWindowState(home, state);
    assert.deepEqual(await readWindowState(home), state);
    assert.deepEqual(JSON.parse(await readFile(join(home, WINDOW_STATE_FILE), 'utf8')), state);
    await writeFile(join(home, WINDOW_STATE_FILE), '{broken');
    assert.equal(await readWindowState(home), undefined);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
