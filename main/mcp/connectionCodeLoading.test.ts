// What a start loads, and when, seen from a fresh `atrium` process by a resolve hook, as a person runs
// the command. The connection code is loaded with the first server (McpHub): a host with none starts
// without it. The SDK under a session is loaded once a server's process has started (sessionOpener.ts),
// so the server starts up while the SDK loads: a disabled server loads none of it.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { atriumCliPath } from '../../e2e/fixtures/atriumCliProcess.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';

// Each event in order: the SDK's first load, and each process started: the process reaper, a server (each
// runs through the reaper's launcher), or another (the login shell asked for its PATH).
const recordLoadsAndStarts = `
  import { registerHooks, syncBuiltinESMExports } from 'node:module';
  import childProcess from 'node:child_process';
  const events = [];
  registerHooks({ resolve(specifier, context, next) { if (specifier.startsWith('@modelcontextprotocol/client') && !events.includes('sdk')) events.push('sdk'); return next(specifier, context); } });
  const spawn = childProcess.spawn;
  childProcess.spawn = function (file, args, ...rest) { const line = JSON.stringify(args ?? []); events.push(line.includes('atrium-reaper') ? 'reaper' : line.includes('ATRIUM_SERVER_RUN') ? 'server' : 'other'); return spawn.call(this, file, args, ...rest); };
  syncBuiltinESMExports();
  process.on('exit', () => process.stderr.write('events: ' + events.join(' ') + '\\n'));
`;

function eventsOf(home: string, args: string[]): string[] {
  return run(home, args).events;
}

function run(home: string, args: string[]): { events: string[]; stdout: string } {
  const hook = `data:text/javascript,${encodeURIComponent(recordLoadsAndStarts)}`;
  const ran = spawnSync(process.execPath, ['--import', hook, atriumCliPath, ...args], { env: { ...process.env, ATRIUM_HOME: home }, encoding: 'utf8', timeout: 60_000 });
  const said = /events: (.*)/.exec(ran.stderr)?.[1];
  assert.ok(said !== undefined, `atrium ${args.join(' ')} ended (${ran.status}) without the hook's line:\n${ran.stdout}\n${ran.stderr}`);
  return { events: said.split(' ').filter((event) => event !== ''), stdout: ran.stdout };
}

test('a host with no server, or only a disabled one, never loads the MCP SDK', async () => {
  const home = await makeTempDir('atrium-sdk-loading-');
  try {
    assert.ok(!eventsOf(home, ['servers']).includes('sdk'), 'no server configured');
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: { ...fixtureCommand('echoServer'), disabled: true } } }));
    assert.ok(!eventsOf(home, ['servers']).includes('sdk'), 'one server, disabled: nothing to speak to');
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});

test("local servers' processes start before the SDK that speaks to them is loaded, and their tools are listed", async () => {
  const home = await makeTempDir('atrium-sdk-loading-');
  try {
    // Unsandboxed, so that each start is one process (a sandbox adds its own helpers).
    const servers = { echo: { ...fixtureCommand('echoServer'), sandbox: false }, other: { ...fixtureCommand('echoServer'), sandbox: false } };
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: servers }));
    for (const id of Object.keys(servers)) execFileSync(process.execPath, [atriumCliPath, 'servers', 'approve', id], { env: { ...process.env, ATRIUM_HOME: home }, stdio: 'ignore', timeout: 60_000 });
    const { events, stdout } = run(home, ['tools']);
    const sdk = events.indexOf('sdk');
    assert.ok(sdk >= 0, `the SDK is loaded to speak to the servers: ${events.join(' ')}`);
    assert.deepEqual(
      events.slice(0, sdk).filter((event) => event === 'server'),
      ['server', 'server'],
      `both servers start before the SDK loads: ${events.join(' ')}`,
    );
    for (const id of Object.keys(servers)) assert.match(stdout, new RegExp(`\\b${id}\\b[\\s\\S]*\\becho\\b`), `${id}'s tools are listed:\n${stdout}`);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
