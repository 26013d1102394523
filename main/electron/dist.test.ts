import { test } from 'node:test';
import assert from 'node:assert/strict';
import { firstError, packagingFailure } from './dist.ts';

// What electron-builder 26 prints on a machine without access to GitHub (copied from a real run).
const offline = `  • electron-builder  version=26.17.0 os=6.18.44
  • loaded configuration  file=/work/atrium/electron-builder.yml
  • packaging       platform=linux arch=x64 electron=45.4.1 appOutDir=release/linux-unpacked
  ⨯ getaddrinfo ENOTFOUND github.com  failedTask=build stackTrace=RequestError: getaddrinfo ENOTFOUND github.com
    at ClientRequest.<anonymous> (/work/atrium/node_modules/got/dist/source/core/index.js:970:111)
    at processTicksAndRejections (node:internal/process/task_queues:89:21)`;

test('a download that cannot reach GitHub is one line that says so, without the stack', () => {
  const line = packagingFailure(offline, 1, '45.4.1');
  assert.equal(
    line,
    `Atrium: packaging needs Electron 45.4.1's binaries from GitHub, which this machine cannot reach (getaddrinfo ENOTFOUND github.com). Run "npm run dist" on a machine that can reach github.com.`,
  );
  assert.doesNotMatch(line, /\n|stackTrace|ClientRequest/);
  for (const cause of ['connect ETIMEDOUT 140.82.121.4:443', 'Response code 403 (Forbidden) status code 403', 'socket hang up', 'getaddrinfo EAI_AGAIN github.com']) {
    assert.match(packagingFailure(`  ⨯ ${cause}  failedTask=build`, 1, '45.4.1'), /cannot reach/, cause);
  }
});

test('any other failure names electron-builder’s own error, or its exit code when it printed none', () => {
  assert.equal(
    packagingFailure('  ⨯ Application entry file "dist/electron/main.mjs" in the "/x/app.asar" does not exist.  failedTask=build', 1, '45.4.1'),
    'Atrium: packaging failed: Application entry file "dist/electron/main.mjs" in the "/x/app.asar" does not exist.',
  );
  assert.equal(packagingFailure('', 2, '45.4.1'), 'Atrium: packaging failed (electron-builder exited with code 2).');
  assert.equal(firstError('nothing went wrong'), undefined);
  assert.ok((firstError(`  ⨯ ${'x'.repeat(400)}`) ?? '').length <= 160);
});
