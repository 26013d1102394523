// Bad input the connection layer must survive, each against a real fixture server process from
// e2e/servers/: a crash mid-call, a hang, noise on stdout, a notification flood, a 20 MB result, an
// invalid x-mcp-header tool, list changes with pagination, HTTP session expiry and a legacy SSE server.
// One server's failure never touches another's.

import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { TestHost } from '../../../e2e/fixtures/hostHarness.ts';
import { everythingServerPath, isAlive, makeTempDir, nextEvent, startTestHost } from '../../../e2e/fixtures/hostHarness.ts';
import type { HttpFixtureHandle } from '../../../e2e/servers/launch.ts';
import { fixtureCommand, startHttpFixture } from '../../../e2e/servers/launch.ts';
import { canRestart } from '../../../shared/domain.ts';

const textOf = (result: Record<string, unknown>) => ((result.content as { text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');
const fastRestarts = { baseDelayMs: 50, maxDelayMs: 200, maxConsecutiveFailures: 3, healthyAfterMs: 60_000 };

describe('a server that writes its log where MCP messages go, and never answers', () => {
  test('its failed start says what it wrote there and where a log belongs', async () => {
    const chatty = `process.stdout.write('Server listening on port 3000\\n'); process.stdout.write('still listening\\n'); setInterval(() => {}, 100000);`;
    const host = await startTestHost({ chatty: { command: process.execPath, args: ['-e', chatty], sandbox: false } }, { restartPolicy: { ...fastRestarts, maxConsecutiveFailures: 1 }, connectTimeoutMs: 2_000 });
    try {
      await host.core.hub.whenSettled();
      const [server] = await host.core.api.listServers({});
      assert.equal(server?.status.kind, 'error', JSON.stringify(server?.status));
      const said = server?.status.kind === 'error' ? server.status.message : '';
      assert.match(said, /no answer to discovery or initialize within the time limit \(2 s\)/);
      assert.match(said, /it wrote 2 lines on its standard output that are not MCP messages \(the first: "Server listening on port 3000"\): a server writes only MCP messages there, and its log to standard error/);
    } finally {
      await host.close();
    }
  });
});

describe('a server whose tool list holds tools the protocol does not allow', () => {
  test('the tools that fit are offered, each one left out is named in the log with why, and the server is ready', async () => {
    // Answers initialize and tools/list by hand: `echo` is a tool; the three after it are not.
    const server = `
      const tools = [
        { name: 'echo', description: 'Says it back.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
        { name: 'noschema', description: 'Has no input schema.' },
        { name: 'numdesc', description: 12345, inputSchema: { type: 'object' } },
        { name: 'badtype', inputSchema: { type: 'string' } },
      ];
      require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
        const m = JSON.parse(line);
        const answer = (result) => process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result }) + '\\n');
        if (m.method === 'initialize') answer({ protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'bad-list', version: '1.0.0' } });
        else if (m.method === 'tools/list') answer({ tools });
        else if (m.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } }) + '\\n');
      });`;
    const host = await startTestHost({ badlist: { command: process.execPath, args: ['-e', server], sandbox: false } }, { restartPolicy: fastRestarts });
    try {
      await host.core.hub.whenSettled();
      const [listed] = await host.core.api.listServers({});
      assert.equal(listed?.status.kind, 'ready', JSON.stringify(listed?.status));
      const tools = await host.core.api.listTools({ serverId: 'badlist' });
      assert.deepEqual(tools.map((tool) => tool.name), ['echo']);
      const log = (await host.core.api.getServerLog({ serverId: 'badlist' })).map((line) => line.text).join('\n');
      assert.match(log, /tool "noschema" left out: its inputSchema is missing, which every tool must have/);
      assert.match(log, /tool "numdesc" left out: its description is not what the protocol allows \(expected string, received number\)/);
      assert.match(log, /tool "badtype" left out: its inputSchema\.type is not what the protocol allows/);
      assert.doesNotMatch(log, /"code": "invalid_type"|Invalid result for tools\/list/, 'no validation dump');
    } finally {
      await host.close();
    }
  });
});

describe('a server that exits as soon as it has answered initialize', () => {
  test('each start is one attempt, and the card says why it ended: its exit and what it last wrote', async () => {
    const starts = join(await makeTempDir('atrium-exit-after-init-'), 'starts');
    const server = `
      require('node:fs').appendFileSync(${JSON.stringify(starts)}, 'start\\n');
      require('node:readline').createInterface({ input: process.stdin }).on('line', (line) => {
        const m = JSON.parse(line);
        if (m.method === 'initialize') {
          process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'brief', version: '1.0.0' } } }) + '\\n');
          process.stderr.write('exiting after initialize\\n');
          setTimeout(() => process.exit(0), 20);
        } else if (m.method === 'server/discover') {
          process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found' } }) + '\\n');
        }
      });`;
    const host = await startTestHost({ brief: { command: process.execPath, args: ['-e', server], sandbox: false } }, { restartPolicy: fastRestarts });
    try {
      const gaveUp = nextEvent(host.core, 'serverChanged', (server) => server.id === 'brief' && server.status.kind === 'error', 30_000);
      gaveUp.catch(() => undefined);
      const now = (await host.core.api.listServers({})).find((server) => server.id === 'brief');
      const status = now?.status.kind === 'error' ? now.status : (await gaveUp).status;
      const said = status?.kind === 'error' ? status.message : JSON.stringify(status);
      const started = (await readFile(starts, 'utf8')).trim().split('\n').length;
      assert.equal(started, fastRestarts.maxConsecutiveFailures, 'as many starts as the policy allows');
      assert.match(said, new RegExp(`gave up after ${started} attempts`));
      assert.match(said, /exited with code 0/);
      assert.match(said, /exiting after initialize/);
    } finally {
      await host.close();
    }
  });
});

describe('a server that never answers initialize', () => {
  test('its second start says why the first failed, and may be restarted at once', async () => {
    const host = await startTestHost({ mute: { ...fixtureCommand('hangServer', ['--hang-initialize']), sandbox: false } }, { restartPolicy: fastRestarts, connectTimeoutMs: 1_000 });
    try {
      const again = await nextEvent(host.core, 'serverChanged', (server) => server.id === 'mute' && server.status.kind === 'starting' && server.status.attempt === 2, 30_000);
      assert.equal(again.status.kind, 'starting');
      assert.match(again.status.kind === 'starting' ? (again.status.lastError ?? '') : '', /no answer to discovery or initialize within the time limit \(1 s\)/);
      assert.equal(canRestart(again.status), true, 'a start that failed before may be begun afresh');
      assert.equal(canRestart({ kind: 'starting', attempt: 1 }), false, 'a first start is waited for');
    } finally {
      await host.close();
    }
  });
});

describe('a server that says its tools changed when they did not (server-everything, as it starts)', () => {
  test('the log does not call the list read again a change', async () => {
    const host = await startTestHost({ everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'], sandbox: false } });
    try {
      const relisted = (line: { serverId: string; text: string }) => line.serverId === 'everything' && /tools listed again as the server said they changed: as they were \(\d+\)/.test(line.text);
      const heard = nextEvent(host.core, 'log', relisted, 30_000);
      heard.catch(() => undefined);
      await host.core.hub.whenSettled();
      if (!(await host.core.api.getServerLog({ serverId: 'everything' })).some(relisted)) await heard;
      const log = (await host.core.api.getServerLog({ serverId: 'everything' })).map((line) => line.text).join('\n');
      assert.doesNotMatch(log, /tools changed: now/);
    } finally {
      await host.close();
    }
  });
});

describe('stdio servers that misbehave', () => {
  let host: TestHost;
  before(async () => {
    host = await startTestHost(
      {
        crashy: fixtureCommand('crashServer'),
        hangs: { ...fixtureCommand('hangServer'), requestTimeoutMs: 1_000 },
        noisy: fixtureCommand('noisyStdoutServer'),
        flood: fixtureCommand('floodServer'),
        big: fixtureCommand('bigResultServer'),
        capped: { ...fixtureCommand('bigResultServer'), maxMessageBytes: 1024 * 1024 },
        pages: fixtureCommand('listChangedServer'),
        healthy: fixtureCommand('echoServer'),
      },
      { restartPolicy: fastRestarts, requestTimeoutMs: 30_000 },
    );
    await host.core.hub.whenSettled();
  });
  after(() => host.close());

  test('every server starts in parallel and becomes ready', async () => {
    const servers = await host.core.api.listServers({});
    assert.deepEqual(servers.filter((s) => s.status.kind !== 'ready').map((s) => s.id), []);
  });

  test('a crash mid-call fails that call at once with the exit code, restarts the server, and leaves the others alone', async () => {
    const back = nextEvent(host.core, 'serverChanged', (s) => s.id === 'crashy' && s.status.kind === 'ready');
    await assert.rejects(host.core.api.callTool({ serverId: 'crashy', tool: 'crash' }), /crashy: .*exited with code 3/);
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'healthy', tool: 'echo', arguments: { text: 'still here' } })), 'still here');
    await back;
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'crashy', tool: 'ok' })), 'ok');
  });

  test('a call made while a crashed server starts again waits for it and is made, rather than fail as "not ready"', async () => {
    await assert.rejects(host.core.api.callTool({ serverId: 'crashy', tool: 'crash' }), /crashy: .*exited with code 3/);
    const [now] = (await host.core.api.listServers({})).filter((s) => s.id === 'crashy');
    assert.equal(now?.status.kind, 'restarting', 'the call below is made while the server is down');
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'crashy', tool: 'ok' })), 'ok');
  });

  test('MCP 2024-11-05 Cancellation: a hanging call times out with a clear error, and the server hears notifications/cancelled', async () => {
    const cancelled = nextEvent(host.core, 'log', (l) => l.serverId === 'hangs' && /cancelled/.test(l.text));
    await assert.rejects(host.core.api.callTool({ serverId: 'hangs', tool: 'hang' }), /hangs: tool "hang": no answer within the time limit \(1 s\)/);
    await cancelled;
  });

  test('MCP 2024-11-05 Cancellation: the person can cancel a call; the server gets notifications/cancelled', async () => {
    const callId = 'cancel-me';
    const received = nextEvent(host.core, 'log', (l) => l.serverId === 'hangs' && /hang called/.test(l.text));
    const call = host.core.api.callTool({ serverId: 'hangs', tool: 'hang', callId });
    await received;
    const cancelled = nextEvent(host.core, 'log', (l) => l.serverId === 'hangs' && /cancelled \S+/.test(l.text));
    await host.core.api.cancelCall({ callId });
    await assert.rejects(call, /hangs: tool "hang": cancelled/);
    await cancelled;
  });

  test('a call under way when the person restarts its server fails saying so, not as a lost connection; the server comes back', async () => {
    const received = nextEvent(host.core, 'log', (l) => l.serverId === 'hangs' && /hang called/.test(l.text));
    const call = host.core.api.callTool({ serverId: 'hangs', tool: 'hang', callId: 'restarted-under-it' });
    await received;
    const back = nextEvent(host.core, 'serverChanged', (s) => s.id === 'hangs' && s.status.kind === 'ready');
    await host.core.api.restartServer({ serverId: 'hangs' });
    await assert.rejects(call, /^ServerError: hangs: tool "hang": the server was restarted before it answered$/);
    await back;
  });

  test('MCP 2024-11-05 Transports (stdio): non-JSON lines on stdout are logged as warnings and the server keeps working', async () => {
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'noisy', tool: 'echo', arguments: { text: 'clean' } })), 'clean');
    const log = await host.core.api.getServerLog({ serverId: 'noisy' });
    assert.ok(log.some((line) => line.level === 'warning' && /not JSON-RPC: Starting up/.test(line.text)), 'noise logged');
  });

  test('a flood of 5,000 log notifications is absorbed: the call returns and the log stays bounded', async () => {
    const result = await host.core.api.callTool({ serverId: 'flood', tool: 'flood', arguments: { count: 5_000 } });
    assert.equal(textOf(result), '5000');
    const log = await host.core.api.getServerLog({ serverId: 'flood' });
    assert.equal(log.length, 2_000, 'the log keeps the newest 2,000 lines');
    assert.equal(log.filter((line) => line.source === 'server').length > 1_900, true);
  });

  test('a 20 MB result arrives whole', async () => {
    const result = await host.core.api.callTool({ serverId: 'big', tool: 'big', arguments: { mb: 20 } });
    assert.equal(textOf(result).length, 20 * 1024 * 1024);
  });

  test('a result past the configured cap fails that call at once with the reason; the connection keeps working', async () => {
    await assert.rejects(
      host.core.api.callTool({ serverId: 'capped', tool: 'big', arguments: { mb: 2 } }),
      /capped: tool "big": the server's answer was too large: message from server exceeded 1 MB and was discarded/,
    );
    const small = await host.core.api.callTool({ serverId: 'capped', tool: 'big', arguments: { mb: 0.5 } });
    assert.equal(textOf(small).length, 512 * 1024);
  });

  test('MCP 2024-11-05 Pagination and Tools (list_changed): tools/list is followed through every nextCursor, and list_changed refreshes it', async () => {
    const before = (await host.core.api.listTools({ serverId: 'pages' })).map((t) => t.name);
    assert.ok(before.length > 2, `all pages listed: ${before.join(', ')}`);
    const changed = nextEvent(host.core, 'listChanged', (e) => e.serverId === 'pages' && e.list === 'tools');
    await host.core.api.callTool({ serverId: 'pages', tool: 'add_tool', arguments: { name: 'fresh_tool' } });
    await changed;
    const after = (await host.core.api.listTools({ serverId: 'pages' })).map((t) => t.name);
    assert.deepEqual(after.sort(), [...before, 'fresh_tool'].sort());
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'pages', tool: 'fresh_tool' })), 'I am fresh_tool');
  });

  test('MCP 2024-11-05 Resources (subscriptions): resource subscriptions deliver updates', async () => {
    await host.core.api.subscribeResource({ serverId: 'pages', uri: 'fixture://counter' });
    const updated = nextEvent(host.core, 'resourceUpdated', (e) => e.serverId === 'pages' && e.uri === 'fixture://counter');
    await host.core.api.callTool({ serverId: 'pages', tool: 'touch_resource' });
    await updated;
  });

  test('the server environment is minimal: host secrets do not leak, configured env does', async () => {
    process.env.ATRIUM_TEST_FAKE_SECRET = 'do-not-leak';
    try {
      const leaked = await host.core.api.callTool({ serverId: 'healthy', tool: 'env', arguments: { name: 'ATRIUM_TEST_FAKE_SECRET' } });
      assert.equal(textOf(leaked), '<unset>');
    } finally {
      delete process.env.ATRIUM_TEST_FAKE_SECRET;
    }
  });
});

describe('start-up failures are isolated', () => {
  // The start-up limit is generous, so that a healthy server makes it on a busy machine; the hanging one
  // reaches it all the same.
  test('a server that hangs on initialize or crashes on start goes to error; the others are untouched', { timeout: 120_000 }, async () => {
    const host = await startTestHost(
      {
        'hangs-at-start': fixtureCommand('hangServer', ['--hang-initialize']),
        'dies-at-start': fixtureCommand('crashServer', ['--crash-on-start']),
        quick: { ...fixtureCommand('echoServer'), env: { FIXTURE_VAR: 'configured' } },
      },
      { restartPolicy: { ...fastRestarts, maxConsecutiveFailures: 1 }, connectTimeoutMs: 15_000 },
    );
    try {
      const statuses = await host.core.hub.whenSettled();
      assert.equal(statuses.get('hangs-at-start')?.kind, 'error');
      assert.equal(statuses.get('dies-at-start')?.kind, 'error');
      assert.equal(statuses.get('quick')?.kind, 'ready');
      const configured = await host.core.api.callTool({ serverId: 'quick', tool: 'env', arguments: { name: 'FIXTURE_VAR' } });
      assert.equal(textOf(configured), 'configured');
      const [dies] = await host.core.api.listServers({}).then((list) => list.filter((s) => s.id === 'dies-at-start'));
      assert.match(dies?.status.kind === 'error' ? dies.status.message : '', /exited with code 1; it last wrote: crashServer: fatal: refusing to start \(--crash-on-start\)$/);
    } finally {
      await host.close();
    }
  });

  test('a server whose command is missing goes to error at once, saying so: restarting cannot bring a missing program', { timeout: 120_000 }, async () => {
    const host = await startTestHost({ missing: { command: 'atrium-no-such-command-typo', args: ['x.js'] }, quick: fixtureCommand('echoServer') });
    const statuses: string[] = [];
    host.core.events.on('serverChanged', (snapshot) => {
      if (snapshot.id === 'missing') statuses.push(snapshot.status.kind);
    });
    try {
      const settled = await host.core.hub.whenSettled();
      assert.equal(settled.get('quick')?.kind, 'ready');
      const [missing] = (await host.core.api.listServers({})).filter((server) => server.id === 'missing');
      assert.equal(missing?.status.kind, 'error');
      assert.match(missing?.status.kind === 'error' ? missing.status.message : '', /^missing: command not found: "atrium-no-such-command-typo" \(not in any of the \d+ folders on PATH\)$/);
      assert.ok(!statuses.includes('restarting'), `no restart was tried: ${statuses.join(', ')}`);
    } finally {
      await host.close();
    }
  });

  test('a server that is slow to start does not delay the others', { timeout: 120_000 }, async () => {
    const folder = await makeTempDir('atrium-slow-start-');
    const release = join(folder, 'ready');
    // Unsandboxed: a sandboxed server sees only what was there at its start, and the file it waits for is made later.
    const host = await startTestHost(
      { slow: { ...fixtureCommand('slowStartServer', ['--until-file', release]), sandbox: false }, quick: fixtureCommand('echoServer') },
      { restartPolicy: { ...fastRestarts, maxConsecutiveFailures: 1 }, connectTimeoutMs: 60_000 },
    );
    try {
      // The slow server answers only once this test lets it: until then, the quick one is already ready.
      await nextEvent(host.core, 'serverChanged', (s) => s.id === 'quick' && s.status.kind === 'ready');
      const slowNow = (await host.core.api.listServers({})).find((s) => s.id === 'slow');
      assert.equal(slowNow?.status.kind, 'starting');
      const slowReady = nextEvent(host.core, 'serverChanged', (s) => s.id === 'slow' && s.status.kind === 'ready');
      await writeFile(release, '');
      await slowReady;
    } finally {
      await host.close();
      await rm(folder, { recursive: true, force: true });
    }
  });

  test('quitting leaves no server process behind', async () => {
    const host = await startTestHost({ a: fixtureCommand('echoServer'), b: fixtureCommand('hangServer'), c: fixtureCommand('floodServer') });
    await host.core.hub.whenSettled();
    const pids = host.core.hub.list().map((c) => c.pid);
    assert.ok(pids.every((pid) => typeof pid === 'number' && isAlive(pid)));
    await host.close();
    assert.deepEqual(pids.filter((pid) => pid !== undefined && isAlive(pid)), []);
  });
});

describe('remote servers', () => {
  const fixtures: HttpFixtureHandle[] = [];
  let host: TestHost;
  let expiry: HttpFixtureHandle;
  before(async () => {
    expiry = await startHttpFixture('sessionExpiryServer');
    const sse = await startHttpFixture('legacySseServer');
    const headers = await startHttpFixture('invalidHeaderToolServer');
    fixtures.push(expiry, sse, headers);
    host = await startTestHost({
      expiring: { type: 'http', url: expiry.url },
      // Configured as Streamable HTTP on purpose: the client must fall back to the legacy transport.
      legacy: { type: 'http', url: sse.url },
      headers: { type: 'http', url: headers.url },
    });
    await host.core.hub.whenSettled();
  });
  after(async () => {
    await host.close();
    await Promise.all(fixtures.map((f) => f.stop()));
  });

  test('spec 002: a 404 for an expired session starts a new session and the request succeeds', async () => {
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'expiring', tool: 'ok' })), 'ok');
    await host.core.api.callTool({ serverId: 'expiring', tool: 'expire_session' });
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'expiring', tool: 'ok' })), 'ok');
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'expiring', tool: 'init_count' })), '2');
  });

  test('spec 002: a server that refuses Streamable HTTP is reached over the legacy HTTP+SSE transport', async () => {
    const [legacy] = (await host.core.api.listServers({})).filter((s) => s.id === 'legacy');
    assert.equal(legacy?.status.kind, 'ready', JSON.stringify(legacy?.status));
    assert.equal(legacy?.transport, 'sse');
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'legacy', tool: 'echo', arguments: { text: 'old school' } })), 'old school');
  });

  test('spec 003: a tool with an invalid x-mcp-header is left out with a warning; the valid one mirrors its header', async () => {
    const tools = (await host.core.api.listTools({ serverId: 'headers' })).map((t) => t.name);
    assert.deepEqual(tools, ['execute_sql']);
    const log = await host.core.api.getServerLog({ serverId: 'headers' });
    assert.ok(log.some((l) => l.level === 'warning' && /bad_header_chars/.test(l.text)), 'warning logged');
    const plain = JSON.parse(textOf(await host.core.api.callTool({ serverId: 'headers', tool: 'execute_sql', arguments: { region: 'us-west1', query: 'select 1' } })));
    assert.equal(plain.mcpParamRegion, 'us-west1');
    // Spec 002: a value that is not plain ASCII travels Base64-encoded as =?base64?…?=.
    const unsafe = JSON.parse(textOf(await host.core.api.callTool({ serverId: 'headers', tool: 'execute_sql', arguments: { region: 'Hello, 世界', query: 'select 1' } })));
    assert.equal(unsafe.mcpParamRegion, `=?base64?${Buffer.from('Hello, 世界').toString('base64')}?=`);
  });

  test('quitting ends HTTP sessions with DELETE (spec 002)', async () => {
    const { core } = host;
    const sessionId = textOf(await core.api.callTool({ serverId: 'expiring', tool: 'session_id' }));
    const deleted = expiry.waitForStderr(new RegExp(`session deleted ${sessionId}`));
    await core.shutdown();
    await deleted;
  });
});

describe('logging and keep-alive', () => {
  test('MCP 2024-11-05 Logging (logging/setLevel): log notifications reach the server log, filtered by the level the person set, in both eras', async () => {
    const host = await startTestHost({ legacy: fixtureCommand('echoServer'), modern: fixtureCommand('echoServer', ['--both-eras']) });
    try {
      await host.core.hub.whenSettled();
      const servers = await host.core.api.listServers({});
      assert.deepEqual(servers.map((s) => [s.id, s.era]).sort(), [['legacy', 'legacy'], ['modern', 'modern']]);
      for (const serverId of ['legacy', 'modern']) {
        const calledEcho = async () => {
          await host.core.api.callTool({ serverId, tool: 'echo', arguments: { text: 'x' } });
          return (await host.core.api.getServerLog({ serverId })).filter((l) => l.source === 'server' && /called echo/.test(l.text)).length;
        };
        const before = await calledEcho();
        assert.ok(before >= 1, `${serverId}: info lines arrive by default`);
        await host.core.api.setServerLogLevel({ serverId, level: 'warning' });
        assert.equal(await calledEcho(), before, `${serverId}: info is filtered out at warning`);
        await host.core.api.setServerLogLevel({ serverId, level: 'debug' });
        assert.equal(await calledEcho(), before + 1, `${serverId}: info is back at debug`);
      }
    } finally {
      await host.close();
    }
  });

  test('MCP 2024-11-05 Ping: a server that stops answering is found by keep-alive pings and restarted', async () => {
    // Frozen by its process id, so it runs outside the sandbox (whose own process that id would be).
    const host = await startTestHost({ frozen: { ...fixtureCommand('echoServer'), sandbox: false } }, { keepAliveMs: 200, restartPolicy: fastRestarts });
    try {
      await host.core.hub.whenSettled();
      const [connection] = host.core.hub.list();
      const pid = connection?.pid;
      assert.ok(pid);
      const restarted = nextEvent(host.core, 'serverChanged', (s) => s.status.kind === 'restarting');
      const readyAgain = restarted.then(() => nextEvent(host.core, 'serverChanged', (s) => s.status.kind === 'ready'));
      process.kill(pid, 'SIGSTOP');
      const status = (await restarted).status;
      assert.match(status.kind === 'restarting' ? status.lastError : '', /stopped answering keep-alive pings/);
      await readyAgain;
      assert.notEqual(connection?.pid, pid, 'a new process serves it');
      assert.equal(isAlive(pid), false, 'the frozen process was killed');
      assert.equal(textOf(await host.core.api.callTool({ serverId: 'frozen', tool: 'echo', arguments: { text: 'thawed' } })), 'thawed');
    } finally {
      await host.close();
    }
  });
});
