// The folder a stdio server runs in, and what the person is told when `npx` cannot find a server's
// package, with the real `atrium` command, real npx and a registry on 127.0.0.1 that knows no package.
// Run from inside a package (a checkout, a project), Atrium used to start servers there, so `npx NAME`
// ran that folder's own copy of NAME instead of the package named.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runAtriumCli } from '../../../e2e/fixtures/atriumCliProcess.ts';
import { approveServers } from '../../../e2e/fixtures/approvedServers.ts';
import { makeTempDir } from '../../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../../e2e/servers/launch.ts';

describe('where a stdio server runs', () => {
  let home: string;
  let project: string;
  before(async () => {
    home = await makeTempDir('atrium-server-folder-');
    // A folder that is a package with its own copy of "fake-mcp-server", as a checkout is.
    project = await makeTempDir('atrium-project-');
    await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'a-project', version: '1.0.0' }));
    await mkdir(join(project, 'node_modules', '.bin'), { recursive: true });
    await writeFile(join(project, 'node_modules', '.bin', 'fake-mcp-server'), `#!/bin/sh\ntouch ${JSON.stringify(join(project, 'local-copy-ran'))}\n`);
    await chmod(join(project, 'node_modules', '.bin', 'fake-mcp-server'), 0o755);
  });
  after(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(project, { recursive: true, force: true });
  });

  test("a server without a folder of its own runs in the data folder's run/, not where Atrium was started; one with a cwd runs there", async () => {
    const own = await makeTempDir('atrium-own-folder-');
    try {
      const servers = {
        // Outside the sandbox (which runs a server in a temporary folder of its own, and hides the data folder).
        plain: { ...fixtureCommand('echoServer', ['--cwd-file', join(home, 'plain.cwd')]), sandbox: false },
        placed: { ...fixtureCommand('echoServer', ['--cwd-file', join(home, 'placed.cwd')]), cwd: own, sandbox: false },
        // Offline, so that outside the project it fails at once instead of asking the registry.
        npx: { command: 'npx', args: ['--yes', '--offline', 'fake-mcp-server'], env: { npm_config_cache: join(home, 'npm-cache') } },
      };
      await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: servers }));
      await approveServers(home);
      const { stderr } = await runAtriumCli(home, ['servers'], {}, project);
      assert.equal(await readFile(join(home, 'plain.cwd'), 'utf8'), join(home, 'run'), stderr);
      assert.equal(await readFile(join(home, 'placed.cwd'), 'utf8'), own);
      assert.equal(existsSync(join(project, 'local-copy-ran')), false, "npx did not run the project's own copy of the package");
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });

  test('npx asked for a package its registry does not have: the server\'s error names the package and says to check its name', async () => {
    const registry = createServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end('{"error":"Not found"}');
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = registry.address() as AddressInfo;
      const env = { npm_config_registry: `http://127.0.0.1:${port}/`, npm_config_cache: join(home, 'npm-cache'), npm_config_update_notifier: 'false' };
      await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { typo: { command: 'npx', args: ['-y', '@atrium-test/server-everythingg'], env } } }));
      await approveServers(home);
      const { code, stderr } = await runAtriumCli(home, ['call', 'typo', 'anything', '--timeout', '60000']);
      assert.equal(code, 1);
      assert.match(stderr, /^atrium: typo: the server process exited with code 1; npm could not find the package @atrium-test\/server-everythingg: check its name$/m);
      assert.doesNotMatch(stderr, /Note that you can also install|complete log of this run/, 'the registry noise is not shown');
    } finally {
      registry.closeAllConnections();
      await new Promise<void>((resolve) => registry.close(() => resolve()));
    }
  });
});
