// A command run while a server takes its time to start (an npx package fetched on first use): the
// terminal is not left silent. Past a second the command says on standard error which server it waits
// for, then prints its answer as usual on standard output.

import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { startAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';

test('a command waiting for a server still starting says which on stderr, then answers', async () => {
  const home = await makeTempDir('atrium-cli-starting-');
  const ready = join(home, 'ready');
  try {
    // Outside the sandbox: the file that releases it is made after it started.
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { slow: { ...fixtureCommand('slowStartServer', ['--until-file', ready]), sandbox: false } } }));
    await approveServers(home);
    const listing = startAtriumCli(home, ['tools']);
    assert.equal(await listing.errorLineMatching(/waiting/), 'atrium: waiting for slow to start…');
    await writeFile(ready, '');
    const { code, stdout, stderr } = await listing.exited;
    assert.equal(code, 0, stderr);
    assert.match(stdout, /^slow \/ ok/m);
    assert.equal(stderr.match(/waiting for/g)?.length, 1, 'said once');
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
