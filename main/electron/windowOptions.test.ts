import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildWebPreferences, buildWindowOptions, windowSizes } from './windowOptions.ts';

const preload = '/opt/Atrium/resources/app.asar/dist/electron/preload.cjs';

test('the renderer is isolated and sandboxed, with no Node access', () => {
  const prefs = buildWebPreferences(preload);
  assert.equal(prefs.contextIsolation, true);
  assert.equal(prefs.sandbox, true);
  assert.equal(prefs.nodeIntegration, false);
  assert.equal(prefs.nodeIntegrationInWorker, false);
  assert.equal(prefs.nodeIntegrationInSubFrames, false);
});

test('none of the switches that weaken web security are on', () => {
  const prefs = buildWebPreferences(preload);
  assert.equal(prefs.webSecurity, true);
  assert.equal(prefs.allowRunningInsecureContent, false);
  assert.equal(prefs.experimentalFeatures, false);
  assert.equal(prefs.webviewTag, false);
  assert.equal(prefs.navigateOnDragDrop, false);
  assert.equal(prefs.disableBlinkFeatures, 'Auxclick', 'a middle click opens no window');
});

test('the preload is the path given, and the window uses these preferences', () => {
  assert.equal(buildWebPreferences(preload).preload, preload);
  const options = buildWindowOptions(preload);
  assert.deepEqual(options.webPreferences, buildWebPreferences(preload));
  assert.equal(options.show, false);
});

test('the window opens at the restored bounds, centred when there is no position, never below its minimum size', () => {
  const placed = buildWindowOptions(preload, { x: 40, y: 60, width: 1000, height: 700 });
  assert.deepEqual([placed.x, placed.y, placed.width, placed.height], [40, 60, 1000, 700]);
  const centred = buildWindowOptions(preload, { width: 1000, height: 700 });
  assert.equal('x' in centred || 'y' in centred, false);
  const first = buildWindowOptions(preload);
  assert.deepEqual([first.width, first.height, first.minWidth, first.minHeight], [windowSizes.width, windowSizes.height, 640, 480]);
});
