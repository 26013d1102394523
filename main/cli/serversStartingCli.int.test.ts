// A command run at a terminal while a server takes its time to start (an npx package fetched on first
// use): the terminal is not left silent. Past two seconds the command says which server it waits for,
// then prints its answer as usual. (A script reading its standard error gets nothing more: the CLI tests
// that compare standard error whole run it through a pipe.)

import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { atriumCliPath } from '../../e2e/fixtures/atriumCliProcess.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { openTerminal, shellQuote, tmuxAvailable } from '../../e2e/fixtures/terminalSession.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';

/** A data folder whose one server starts once `release` is called. */
async function slowServerHome(): Promise<{ home: string; release: () => Promise<void> }> {
  const home = await makeTempDir('atrium-cli-starting-');
  const ready = join(home, 'ready');
  // Outside the sandbox: the file that releases it is made after it started.
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { slow: { ...fixtureCommand('slowStartServer', ['--until-file', ready]), sandbox: false } } }));
  await approveServers(home);
  return { home, release: () => writeFile(ready, '') };
}

test('at a terminal, a command waiting for a server still starting says which, then answers', { skip: tmuxAvailable ? false : 'tmux is not installed' }, async () => {
  const { home, release } = await slowServerHome();
  const session = await openTerminal(`ATRIUM_HOME=${shellQuote(home)} ${shellQuote(process.execPath)} ${shellQuote(atriumCliPath)} tools`);
  try {
    await session.waitFor(/atrium: waiting for slow to start…/, 60_000);
    await release();
    const screen = await session.waitFor(/exited with \d+/, 60_000);
    assert.match(screen, /^slow \/ ok/m);
    assert.match(screen, /exited with 0/);
    assert.equal(screen.match(/waiting for/g)?.length, 1, 'said once');
  } finally {
    await session.close();
    await rm(home, { recursive: true, force: true });
  }
});
