import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { electronCommand, installFailureReason, locateElectron, missingElectronMessage } from './launch.ts';
import type { FileProbe } from './launch.ts';

// launch.mjs is plain JavaScript (it must parse on old Node); a computed specifier keeps TypeScript
// from asking for its types.
const gate = (await import(new URL('./launch.mjs', import.meta.url).href)) as {
  nodeVersionProblem(version: string, typeStripping: unknown): string | undefined;
};

const dir = path.join('/repo', 'node_modules', 'electron');

function probe(files: Record<string, string>): FileProbe {
  return { readText: (file) => files[file], exists: (file) => file in files };
}

test('Node older than 22.12 gets one sentence naming the minimum', () => {
  for (const version of ['20.20.2', '18.19.0', '22.11.0']) {
    const problem = gate.nodeVersionProblem(version, undefined);
    assert.match(problem ?? '', /^Atrium needs Node\.js 22\.12\.0 or newer; this is Node\.js /);
    assert.doesNotMatch(problem ?? '', /\n/);
  }
});

test('Node 22.12+ without type stripping is told how to proceed; with it, no problem', () => {
  assert.match(gate.nodeVersionProblem('22.12.0', undefined) ?? '', /--experimental-strip-types/);
  assert.equal(gate.nodeVersionProblem('22.18.0', 'strip'), undefined);
  assert.equal(gate.nodeVersionProblem('24.1.0', 'strip'), undefined);
});

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
