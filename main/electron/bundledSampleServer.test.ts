import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { bundledSampleServer, unpackedPath } from './bundledSampleServer.ts';

test('in a packaged app the sample server is read from app.asar.unpacked, where a real node can read it', () => {
  const electronDir = path.join(path.sep, 'opt', 'Atrium', 'resources', 'app.asar', 'dist', 'electron');
  assert.deepEqual(bundledSampleServer(electronDir), {
    command: 'node',
    args: [path.join(path.sep, 'opt', 'Atrium', 'resources', 'app.asar.unpacked', 'dist', 'sampleServer', 'sampleServer.mjs')],
  });
});

test('in development the bundle is used where the build put it', () => {
  const electronDir = path.join(path.sep, 'home', 'you', 'atrium', 'dist', 'electron');
  assert.deepEqual(bundledSampleServer(electronDir).args, [path.join(path.sep, 'home', 'you', 'atrium', 'dist', 'sampleServer', 'sampleServer.mjs')]);
  assert.equal(unpackedPath(path.join(path.sep, 'x', 'app.asarx', 'y')), path.join(path.sep, 'x', 'app.asarx', 'y'));
});
