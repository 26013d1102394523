import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { ServerLaunchError } from './launchFailure.ts';
import { StdioProcessTransport } from './stdioProcessTransport.ts';
import type { ProcessExitInfo, StdioServerLaunch } from './stdioProcessTransport.ts';
import { buildServerEnvironment } from './serverEnvironment.ts';
import { fixtureCommand } from '../../../e2e/servers/launch.ts';

// Fixture servers, written to a temp dir: each is a few lines of plain JavaScript run by this same node.
const fixtures = {
  // Answers every request with its params; exits by itself when stdin closes.
  echo: `
    import { createInterface } from 'node:readline';
    process.stderr.write('echo server ready\\n');
    for await (const line of createInterface({ input: process.stdin })) {
      const message = JSON.parse(line);
      if (message.id !== undefined) process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: message.id, result: { echo: message.params } }) + '\\n');
    }`,
  noisy: `
    process.stdout.write('Starting server on stdio...\\n');
    process.stdout.write('{"jsonrpc":"2.0","method":"ready"}\\n');
    process.stdin.resume();`,
  // Ignores stdin closing and SIGTERM, so only SIGKILL ends it.
  stubborn: `
    process.on('SIGTERM', () => {});
    process.stdin.on('end', () => {});
    process.stdin.resume();
    setInterval(() => {}, 1000);
    process.stdout.write('{"jsonrpc":"2.0","method":"ready"}\\n');`,
  // Leaves a grandchild behind that ignores SIGTERM and never exits on its own.
  parent: `
    import { spawn } from 'node:child_process';
    const grandchild = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { stdio: 'ignore' });
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'grandchild', params: { pid: grandchild.pid } }) + '\\n');
    process.stdin.on('end', () => process.exit(0));
    process.stdin.resume();`,
  env: `
    const read = (name) => process.env[name] ?? null;
    process.stdout.write(JSON.stringify({ jsonrpc: '2.0', method: 'env', params: { secret: read('FAKE_SECRET_TOKEN'), configured: read('ATRIUM_TEST_CONFIGURED') } }) + '\\n');
    process.stdin.resume();`,
  crash: `
    process.stderr.write('about to crash\\n');
    process.exit(3);`,
  // Speaks first and leaves at once: all of it happens before a client that starts late is listening.
  hasty: `
    process.stdout.write('{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"hello"}}\\n');
    process.stderr.write('leaving\\n');`,
  stderr: `
    process.stderr.write('first\\r\\nsecond');
    process.stderr.write(' half\\n' + 'e'.repeat(20000) + '\\n');
    process.stdin.resume();`,
};

let dir = '';
const script: Record<keyof typeof fixtures, string> = { echo: '', noisy: '', stubborn: '', parent: '', env: '', crash: '', hasty: '', stderr: '' };

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atrium-stdio-'));
  for (const [name, source] of Object.entries(fixtures)) {
    const path = join(dir, `${name}.mjs`);
    await writeFile(path, source);
    script[name as keyof typeof fixtures] = path;
  }
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Observed = {
  transport: StdioProcessTransport;
  messages: JSONRPCMessage[];
  noise: string[];
  stderrLines: string[];
  errors: Error[];
  exits: ProcessExitInfo[];
  closes: number;
  closed: Promise<void>;
  nextMessage(): Promise<JSONRPCMessage>;
};

function launchOf(name: keyof typeof fixtures, extra: Partial<StdioServerLaunch> = {}): StdioServerLaunch {
  return { command: process.execPath, args: [script[name]], env: { PATH: process.env.PATH ?? '' }, ...extra };
}

function observe(launch: StdioServerLaunch): Observed {
  const waiting: Array<(message: JSONRPCMessage) => void> = [];
  const unread: JSONRPCMessage[] = [];
  let onClosed = (): void => {};
  const observed: Observed = {
    transport: new StdioProcessTransport(launch, {
      onStderrLine: (line) => observed.stderrLines.push(line),
      onNoise: (line) => observed.noise.push(line),
      onExit: (info) => observed.exits.push(info),
    }),
    messages: [],
    noise: [],
    stderrLines: [],
    errors: [],
    exits: [],
    closes: 0,
    closed: new Promise((resolve) => {
      onClosed = resolve;
    }),
    nextMessage: () => {
      const message = unread.shift();
      return message ? Promise.resolve(message) : new Promise((resolve) => waiting.push(resolve));
    },
  };
  observed.transport.onmessage = (message) => {
    observed.messages.push(message);
    const waiter = waiting.shift();
    if (waiter) waiter(message);
    else unread.push(message);
  };
  observed.transport.onerror = (error) => observed.errors.push(error);
  observed.transport.onclose = () => {
    observed.closes++;
    onClosed();
  };
  return observed;
}

function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  return isZombie(pid);
}

// A killed grandchild is re-parented, and whether its new parent reaps it is outside our control; a zombie is dead.
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).startsWith('Z');
  } catch {
    return false; // no /proc (macOS): ESRCH alone decides
  }
}

// A process that is not our child has no exit event to await, so its death is polled for, with a deadline.
async function waitUntilGone(pid: number, deadlineMs = 5000): Promise<void> {
  const until = Date.now() + deadlineMs;
  while (!isGone(pid)) {
    if (Date.now() > until) assert.fail(`process ${pid} is still running`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

test('messages written as JSON lines come back as JSON-RPC messages, and stderr arrives as log lines', async () => {
  const server = observe(launchOf('echo'));
  await server.transport.start();
  assert.equal(typeof server.transport.pid, 'number');
  await server.transport.send({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'echo' } });
  assert.deepEqual(await server.nextMessage(), { jsonrpc: '2.0', id: 1, result: { echo: { name: 'echo' } } });
  await server.transport.close();
  assert.deepEqual(server.stderrLines, ['echo server ready']);
  assert.deepEqual(server.exits, [{ code: 0, signal: null }]);
  assert.equal(server.closes, 1);
});

test('send() respects backpressure: a 16 MB message is written whole and answered', async () => {
  const server = observe(launchOf('echo'));
  await server.transport.start();
  const text = 'b'.repeat(16 * 1024 * 1024);
  await Promise.all([1, 2, 3].map((id) => server.transport.send({ jsonrpc: '2.0', id, method: 'big', params: { text } })));
  for (const id of [1, 2, 3]) {
    const reply = (await server.nextMessage()) as unknown as { id: number; result: { echo: { text: string } } };
    assert.equal(reply.id, id);
    assert.equal(reply.result.echo.text.length, text.length);
  }
  await server.transport.close();
});

test('MCP 2024-11-05 Transports (stdio): a server MUST NOT write non-MCP output to stdout, so such output is reported as noise and the connection lives on', async () => {
  const server = observe(launchOf('noisy'));
  await server.transport.start();
  assert.deepEqual(await server.nextMessage(), { jsonrpc: '2.0', method: 'ready' });
  assert.deepEqual(server.noise, ['Starting server on stdio...']);
  assert.deepEqual(server.errors, []);
  await server.transport.close();
});

test('MCP 2024-11-05 Transports (stdio, stderr is logging): stderr is split into lines, and a runaway line is truncated with a marker', async () => {
  const server = observe(launchOf('stderr'));
  await server.transport.start();
  await server.transport.close();
  assert.equal(server.stderrLines[0], 'first');
  assert.equal(server.stderrLines[1], 'second half');
  assert.match(server.stderrLines[2] ?? '', /^e{8192} … \[truncated 11808 bytes\]$/);
});

test('MCP 2024-11-05 Lifecycle (shutdown, stdio): stdin is closed first, and a server that exits on EOF is never signalled', async () => {
  const server = observe(launchOf('echo', { closeGraceMs: 10_000 }));
  await server.transport.start();
  const started = Date.now();
  await server.transport.close();
  assert.ok(Date.now() - started < 5000);
  assert.deepEqual(server.exits, [{ code: 0, signal: null }]);
});

test('MCP 2024-11-05 Lifecycle (shutdown, stdio): a server that ignores stdin closing and SIGTERM is SIGKILLed', async () => {
  const server = observe(launchOf('stubborn', { closeGraceMs: 200 }));
  await server.transport.start();
  await server.nextMessage();
  const pid = server.transport.pid ?? assert.fail('no pid');
  await server.transport.close();
  assert.deepEqual(server.exits, [{ code: null, signal: 'SIGKILL' }]);
  assert.throws(() => process.kill(pid, 0), { code: 'ESRCH' });
  assert.equal(server.closes, 1);
});

test('close() is idempotent and onclose fires exactly once', async () => {
  const server = observe(launchOf('stubborn', { closeGraceMs: 100 }));
  await server.transport.start();
  await Promise.all([server.transport.close(), server.transport.close()]);
  await server.transport.close();
  assert.equal(server.closes, 1);
  assert.equal(server.exits.length, 1);
});

test('the whole process group dies: a grandchild that ignores SIGTERM does not outlive the server', async () => {
  const server = observe(launchOf('parent', { closeGraceMs: 200 }));
  await server.transport.start();
  const announced = (await server.nextMessage()) as unknown as { params: { pid: number } };
  const grandchild = announced.params.pid;
  assert.equal(isGone(grandchild), false);
  await server.transport.close();
  await waitUntilGone(grandchild);
});

test('a daemon a server set loose with a double fork (orphaned at once, out of its tree) ends when the server is stopped, whatever mark its configuration sets', {
  skip: process.platform === 'linux' ? false : 'the environment mark is read from /proc',
}, async () => {
  const marker = `atrium-stdio-daemon-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const env = { PATH: process.env.PATH ?? '', ATRIUM_SERVER_RUN: `${'f'.repeat(32)}:1` };
  const server = observe({ ...fixtureCommand('daemonServer', ['--marker', marker]), env, closeGraceMs: 200 });
  await server.transport.start();
  const serverPid = server.transport.pid ?? assert.fail('no pid');
  let daemon: number | undefined;
  const until = Date.now() + 10_000;
  // Found by the marker in its command line, once its first parent has exited and init adopted it.
  while (daemon === undefined || ancestorsOf(daemon).includes(serverPid)) {
    if (Date.now() > until) assert.fail('the daemon did not start, or was not orphaned');
    await new Promise((resolve) => setTimeout(resolve, 10));
    daemon = daemonWith(marker);
  }
  try {
    await server.transport.close();
    await waitUntilGone(daemon);
  } finally {
    if (!isGone(daemon)) process.kill(daemon, 'SIGKILL');
  }
});

/** The pid of the live process whose command line is a daemon's carrying `marker`. */
function daemonWith(marker: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const args = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (args.includes(marker) && args.includes('daemon')) return Number(entry);
    } catch {
      // It ended while the table was read.
    }
  }
  return undefined;
}

function ancestorsOf(pid: number): number[] {
  const found: number[] = [];
  for (let parent = parentOf(pid); parent !== undefined && parent > 0 && !found.includes(parent); parent = parentOf(parent)) found.push(parent);
  return found;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

test('a crashed server fires onExit with its code and onclose once, and later sends reject clearly', async () => {
  const server = observe(launchOf('crash'));
  await server.transport.start();
  await server.closed;
  assert.deepEqual(server.exits, [{ code: 3, signal: null }]);
  assert.deepEqual(server.stderrLines, ['about to crash']);
  await assert.rejects(server.transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' }), /its process is not running/);
  await server.transport.close();
  assert.equal(server.closes, 1);
});

test('a process started ahead of its client (the SDK still loading): what it said and its end reach the client when it starts, in order', async () => {
  const exits: ProcessExitInfo[] = [];
  const stderrLines: string[] = [];
  let exited = (): void => {};
  const exit = new Promise<void>((resolve) => (exited = resolve));
  const onExit = (info: ProcessExitInfo): void => {
    exits.push(info);
    exited();
  };
  const transport = new StdioProcessTransport(launchOf('hasty'), { onStderrLine: (line) => stderrLines.push(line), onNoise: () => {}, onExit });
  const heard: string[] = [];
  transport.onmessage = (message) => heard.push(`message ${'method' in message ? message.method : ''}`);
  transport.onclose = () => heard.push('close');
  transport.startAhead();
  await exit;
  // The process has run, spoken and ended; its stderr and exit went to the hooks, and nothing to the client yet.
  assert.deepEqual(exits, [{ code: 0, signal: null }]);
  assert.deepEqual(stderrLines, ['leaving']);
  assert.deepEqual(heard, []);
  await transport.start();
  assert.deepEqual(heard, ['message notifications/message', 'close']);
  await assert.rejects(transport.send({ jsonrpc: '2.0', id: 1, method: 'ping' }), /its process is not running/);
  await assert.rejects(transport.start(), /can only be started once/);
});

test("a spawn that fails ahead of its client fails the client's start with the launch error, and nothing is left unhandled", async () => {
  const transport = new StdioProcessTransport({ command: 'atrium-no-such-command-xyz', args: [], env: { PATH: '/nowhere/bin' } }, { onStderrLine: () => {}, onNoise: () => {}, onExit: () => {} });
  transport.startAhead();
  await new Promise((resolve) => setImmediate(resolve));
  const failure = await transport.start().then(
    () => assert.fail('start() resolved'),
    (error: unknown) => error,
  );
  assert.ok(failure instanceof ServerLaunchError);
  assert.equal(failure.kind, 'command-not-found');
});

test('killAllSync() SIGKILLs every running server, for the host exit handler', async () => {
  const server = observe(launchOf('stubborn'));
  await server.transport.start();
  await server.nextMessage();
  StdioProcessTransport.killAllSync();
  await server.closed;
  assert.deepEqual(server.exits, [{ code: null, signal: 'SIGKILL' }]);
});

test('a missing command is a clear one-line launch error; the folders searched are kept for the log', async () => {
  const server = observe({ command: 'atrium-no-such-command-xyz', args: [], env: { PATH: '/nowhere/bin:/also/nowhere' } });
  const failure = await server.transport.start().then(
    () => assert.fail('start() resolved'),
    (error: unknown) => error,
  );
  assert.ok(failure instanceof ServerLaunchError);
  assert.equal(failure.kind, 'command-not-found');
  assert.equal(failure.message, 'command not found: "atrium-no-such-command-xyz" (not in any of the 2 folders on PATH)');
  assert.equal(failure.detail, 'PATH searched for "atrium-no-such-command-xyz": /nowhere/bin:/also/nowhere');
});

test('a command that is not executable is a clear permission error', { skip: process.platform === 'win32' ? 'Windows has no POSIX execute permission' : false }, async () => {
  const path = join(dir, 'not-executable.sh');
  await writeFile(path, '#!/bin/sh\necho hi\n');
  await chmod(path, 0o644);
  const server = observe({ command: path, args: [], env: {} });
  await assert.rejects(server.transport.start(), (error: unknown) => {
    assert.ok(error instanceof ServerLaunchError);
    assert.equal(error.kind, 'permission-denied');
    assert.match(error.message, /^permission denied: ".*not-executable\.sh" cannot be executed/);
    return true;
  });
});

test('a missing working directory is reported as such, not as a missing command', async () => {
  const server = observe(launchOf('echo', { cwd: join(dir, 'no-such-dir') }));
  await assert.rejects(server.transport.start(), { name: 'ServerLaunchError', message: /^working directory not found: / });
});

test('the host environment does not leak: a secret in the host env is absent, a configured variable is present', async () => {
  process.env.FAKE_SECRET_TOKEN = 'sk-should-never-reach-a-server';
  try {
    const env = await buildServerEnvironment({ ATRIUM_TEST_CONFIGURED: 'configured-value' });
    const server = observe(launchOf('env', { env }));
    await server.transport.start();
    assert.deepEqual(await server.nextMessage(), {
      jsonrpc: '2.0',
      method: 'env',
      params: { secret: null, configured: 'configured-value' },
    });
    await server.transport.close();
  } finally {
    delete process.env.FAKE_SECRET_TOKEN;
  }
});

test('the SDK Client connects over this transport and calls a tool on a real SDK server', async () => {
  const serverPath = join(dir, 'sdkServer.mjs');
  const serverModule = import.meta.resolve('@modelcontextprotocol/server');
  const stdioModule = import.meta.resolve('@modelcontextprotocol/server/stdio');
  await writeFile(
    serverPath,
    `import { McpServer } from ${JSON.stringify(serverModule)};
     import { StdioServerTransport } from ${JSON.stringify(stdioModule)};
     const server = new McpServer({ name: 'fixture', version: '1.0.0' }, { capabilities: { tools: {} } });
     server.registerTool('hello', { description: 'Says hello.' }, () => ({ content: [{ type: 'text', text: 'hello' }] }));
     await server.connect(new StdioServerTransport());`,
  );
  const server = observe({ command: process.execPath, args: [serverPath], env: { PATH: process.env.PATH ?? '' } });
  const client = new Client({ name: 'atrium-test', version: '0.0.0' });
  await client.connect(server.transport);
  const result = await client.callTool({ name: 'hello', arguments: {} });
  assert.deepEqual(result.content, [{ type: 'text', text: 'hello' }]);
  await client.close();
  await server.closed;
  assert.equal(server.closes, 1);
});
