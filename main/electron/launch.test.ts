import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { electronCommand, installFailureReason, locateElectron, missingElectronMessage } from './launch.ts';
import type { FileProbe } from './launch.ts';

const dir = path.join('/repo', 'node_modules', 'electron');

function probe(files: Record<string, string>): FileProbe {
  return { readText: (file) => files[file], exists: (file) => file in files };
}

test('Electron is found when path.txt names a file that exists under dist/', () => {
  const files = probe({ [path.join(dir, 'package.json')]: '{}', [path.join(dir, 'path.txt')]: 'electron', [path.join(dir, 'dist', 'electron')]: '' });
  assert.deepEqual(locateElectron(dir, files), { found: true, executable: path.join(dir, 'dist', 'electron') });
});

test('a missing path.txt, a missing binary and a missing package each give their own reason', () => {
  const noPathTxt = locateElectron(dir, probe({ [path.join(dir, 'package.json')]: '{}' }));
  assert.deepEqual(noPathTxt, { found: false, reason: 'it was never downloaded' });
  const noBinary = locateElectron(dir, probe({ [path.join(dir, 'package.json')]: '{}', [path.join(dir, 'path.txt')]: 'electron' }));
  assert.equal(noBinary.found, false);
  assert.match(!noBinary.found ? noBinary.reason : '', /dist.electron is missing/);
  const noPackage = locateElectron(dir, probe({}));
  assert.match(!noPackage.found ? noPackage.reason : '', /npm ci/);
});

test('a failed download is summed up by its first error line, without the stack', () => {
  const output = 'TypeError: fetch failed\n    at node:internal/deps/undici/undici:15270:13\n    at async download';
  assert.equal(installFailureReason({ status: 1, timedOut: false, output }), 'the download failed: TypeError: fetch failed');
  assert.equal(installFailureReason({ status: null, timedOut: true, output: '' }, 180_000), 'the download did not finish within 180 s');
  assert.equal(installFailureReason({ status: 7, timedOut: false, output: '\n\n' }), 'the download failed with exit code 7');
  assert.ok(installFailureReason({ status: 1, timedOut: false, output: 'x'.repeat(500) }).length < 160);
});

test('the missing-binary message is one line that points to the browser mode', () => {
  const message = missingElectronMessage('it was never downloaded');
  assert.equal(
    message,
    `Atrium: Electron's binary is not installed on this machine (it was never downloaded). Run "npm run web" to use Atrium in your browser instead.`,
  );
  assert.doesNotMatch(message, /\n/);
});

test('Electron is launched on the app folder, never as plain Node', () => {
  const launch = electronCommand('/e/electron', '/repo', { PATH: '/bin', ELECTRON_RUN_AS_NODE: '1' });
  assert.deepEqual(launch, { command: '/e/electron', args: ['/repo'], env: { PATH: '/bin' } });
});
