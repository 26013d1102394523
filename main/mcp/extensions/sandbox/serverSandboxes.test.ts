// What a server's start pays for the sandbox: a server its definition runs unsandboxed ("sandbox": false,
// a container) is launched as it is, without a look at the disk for a profile it does not get; one that
// is sandboxed has its profile derived from the roots of that moment.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import type { RootEntry } from '../../../../shared/domain.ts';
import type { StdioServerDefinition } from '../../config/serverConfig.ts';
import type { StdioProcessHooks, StdioServerLaunch } from '../../stdio/stdioProcessTransport.ts';
import { ServerSandboxes } from './serverSandboxes.ts';

const hooks: StdioProcessHooks = { onStderrLine: () => {}, onNoise: () => {}, onExit: () => {} };
const launchOf = (definition: StdioServerDefinition): StdioServerLaunch => ({ command: definition.command, args: definition.args, env: { PATH: process.env.PATH ?? '' } });

function sandboxes(home: string) {
  let rootLookups = 0;
  const roots = {
    list(): readonly RootEntry[] {
      rootLookups += 1;
      return [];
    },
  };
  // A machine without the sandbox's tools: a sandboxed server then cannot start, and says so.
  const owner = new ServerSandboxes({ dataFolder: join(home, 'data'), roots, defaultFolder: home, home, tools: { unavailable: { reason: 'bubblewrap is not installed.', install: 'Install it.' } } });
  return { owner, lookups: () => rootLookups };
}

test('a server run without the sandbox starts as it is, with no look at its roots or the disk for a profile', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'atrium-sandboxes-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const { owner, lookups } = sandboxes(home);
  t.after(() => owner.close());
  for (const definition of [
    { id: 'opted-out', transport: 'stdio', command: process.execPath, args: ['server.js'], env: {}, sandbox: false },
    { id: 'container', transport: 'stdio', command: 'docker', args: ['run', '-i', 'example/server'], env: {} },
  ] as (StdioServerDefinition & { sandbox?: false })[]) {
    const launch = launchOf(definition);
    const enclosed = await owner.enclose(definition, launch, hooks);
    assert.equal(enclosed.launch, launch, `${definition.id} is launched unchanged`);
    assert.equal((await owner.summary(definition))?.state, 'not-sandboxed');
  }
  assert.equal(lookups(), 0, 'no profile was derived for a server that does not get one');
});

test('a sandboxed server’s profile is derived at its start, and a missing tool stops it with what to install', async (t) => {
  const home = mkdtempSync(join(tmpdir(), 'atrium-sandboxes-'));
  t.after(() => rmSync(home, { recursive: true, force: true }));
  const { owner, lookups } = sandboxes(home);
  t.after(() => owner.close());
  const definition = { id: 'local', transport: 'stdio', command: process.execPath, args: ['server.js'], env: {} } as StdioServerDefinition;
  await assert.rejects(owner.enclose(definition, launchOf(definition), hooks), /local cannot start in its sandbox: bubblewrap is not installed\. Install it\./);
  assert.equal(lookups(), 1);
  assert.equal((await owner.summary(definition))?.state, 'cannot-start');
});
