// The connection code, and the SDK under it, is loaded with the first server (McpHub): a host with none
// starts without it, and one with a server loads it. Seen from a fresh `atrium servers` process by a
// resolve hook, as a person runs the command.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { atriumCliPath } from '../../e2e/fixtures/atriumCliProcess.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';

const recordSdkLoads = `
  import { registerHooks } from 'node:module';
  let loaded = false;
  registerHooks({ resolve(specifier, context, next) { if (specifier.startsWith('@modelcontextprotocol/client')) loaded = true; return next(specifier, context); } });
  process.on('exit', () => process.stderr.write('SDK loaded: ' + loaded + '\\n'));
`;

function sdkLoadedByServers(home: string): boolean {
  const hook = `data:text/javascript,${encodeURIComponent(recordSdkLoads)}`;
  const run = spawnSync(process.execPath, ['--import', hook, atriumCliPath, 'servers'], { env: { ...process.env, ATRIUM_HOME: home }, encoding: 'utf8', timeout: 60_000 });
  const said = /SDK loaded: (true|false)/.exec(run.stderr)?.[1];
  assert.ok(said !== undefined, `atrium servers ended (${run.status}) without the hook's line:\n${run.stdout}\n${run.stderr}`);
  return said === 'true';
}

test('a host with no server never loads the MCP SDK; one with a server does', async () => {
  const home = await makeTempDir('atrium-sdk-loading-');
  try {
    assert.equal(sdkLoadedByServers(home), false, 'no server configured');
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: { ...fixtureCommand('echoServer'), disabled: true } } }));
    assert.equal(sdkLoadedByServers(home), true, 'one server, even disabled, is a connection');
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
