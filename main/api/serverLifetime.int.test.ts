// No process outlives the host: the real host process (`node main/web/serveWeb.ts`) runs fixture servers
// that start a helper in their group and a setsid daemon that ignores SIGTERM, or set a daemon loose with
// a double fork (orphaned at once, out of their tree); whether the host is killed with SIGKILL (during
// start-up or once ready), quits in order on SIGTERM or SIGINT, or dies together with its reaper (then
// the next start cleans up), none of those processes is left, and no other run's. Each run's processes
// carry a unique marker in their command line and are found in /proc.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { fixturePath } from '../../e2e/servers/launch.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';

const repoRoot = fileURLToPath(new URL('../../', import.meta.url));
const SERVERS = 2;
/** Each family server, its helper and its daemon. */
const PROCESSES_PER_SERVER = 3;
/** Each daemon server and the daemon it set loose. */
const DAEMON_PROCESSES_PER_SERVER = 2;
const CRASHES = 20;
const READY_TIMEOUT_MS = 30_000;
// The reaper is a shell script: on a machine as loaded as a shared CI runner it may take seconds to act.
const CLEANUP_TIMEOUT_MS = 10_000;
const linuxOnly = process.platform === 'linux' ? {} : { skip: 'reads the process table from /proc' };

type Host = { child: ChildProcessByStdio<null, Readable, Readable>; ready: Promise<void>; exited: Promise<void>; stderr(): string };

/** Pids of the live processes whose command line has `marker` as an argument (zombies have none). */
function processesWith(marker: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(marker)) found.push(Number(entry));
    } catch {
      // It ended while the table was read.
    }
  }
  return found;
}

function daemonsWith(marker: string): number[] {
  return processesWith(marker).filter((pid) => processCommandLine(pid).includes('daemon'));
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Polls `condition` every 20 ms until it holds or `timeoutMs` passes; says which. */
async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await delay(20);
  }
  return true;
}

function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

async function makeHome(marker: string, servers = SERVERS, fixture: 'familyServer' | 'daemonServer' = 'familyServer'): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'atrium-lifetime-'));
  const mcpServers: Record<string, unknown> = {};
  for (let index = 1; index <= servers; index++) {
    // Unsandboxed: these are the servers the reaper alone keeps from outliving the host (a sandboxed
    // server dies with its sandbox's PID namespace: main/mcp/extensions/sandbox/sandboxLifetime.int.test.ts).
    mcpServers[`${fixture}${index}`] = { command: process.execPath, args: [fixturePath(fixture), '--marker', marker], sandbox: false };
  }
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers }));
  await approveServers(home);
  return home;
}

/** `records`: the folder whose temp folder holds the reapers' records (hosts sharing it see each other's). */
function startHost(home: string, records = home): Host {
  const child = spawn(process.execPath, ['main/web/serveWeb.ts', '--port', '0'], {
    cwd: repoRoot,
    // TMPDIR holds the reapers' records (there is no XDG_RUNTIME_DIR here): a folder of this test's own,
    // so Atrium processes started elsewhere on the machine meanwhile do not end what these tests count.
    env: { ATRIUM_HOME: home, HOME: home, TMPDIR: records, PATH: process.env.PATH ?? '', LANG: 'C.UTF-8' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (line.startsWith('Atrium is running at ')) resolve();
    });
    void exited.then(() => reject(new Error(`the host exited before it was ready:\n${stderr}`)));
  });
  ready.catch(() => undefined);
  return { child, ready, exited, stderr: () => stderr };
}

async function waitForAllServers(host: Host, marker: string, servers = SERVERS, perServer = PROCESSES_PER_SERVER): Promise<void> {
  await host.ready;
  // Counted by kind too: a server's launcher carries the marker for a moment before it becomes the server.
  const up = await until(() => processesWith(marker).length === servers * perServer && daemonsWith(marker).length === servers, READY_TIMEOUT_MS);
  assert.ok(up, `the servers did not start their processes in time (${processesWith(marker).length} running):\n${host.stderr()}`);
}

test('a host killed with SIGKILL at random moments, 20 times, leaves none of its servers\' processes', linuxOnly, async () => {
  let started = 0;
  let left = 0;
  const report: string[] = [];
  const startedAt = Date.now();
  for (let crash = 0; crash < CRASHES; crash++) {
    const marker = `atrium-lifetime-${process.pid}-${crash}-${Math.random().toString(36).slice(2)}`;
    const home = await makeHome(marker);
    const host = startHost(home);
    const seen = new Set<number>();
    const watch = setInterval(() => processesWith(marker).forEach((pid) => seen.add(pid)), 20);
    try {
      // The moment is random within one of three windows, in turn.
      if (crash % 3 === 0) {
        // Start-up, before or while the servers are spawned.
        await Promise.race([delay(Math.random() * 1_500), host.exited]);
      } else if (crash % 3 === 1) {
        // The servers are starting: spawning, initializing, starting their own processes.
        await until(() => processesWith(marker).length > 0, READY_TIMEOUT_MS);
        await delay(Math.random() * 400);
      } else {
        await waitForAllServers(host, marker);
        await delay(Math.random() * 300);
      }
    } finally {
      clearInterval(watch);
    }
    host.child.kill('SIGKILL');
    processesWith(marker).forEach((pid) => seen.add(pid));
    await host.exited;
    await until(() => processesWith(marker).length === 0, CLEANUP_TIMEOUT_MS);
    const leftovers = processesWith(marker);
    started += seen.size;
    left += leftovers.length;
    if (leftovers.length > 0) report.push(`crash ${crash + 1}: ${leftovers.map(describeProcess).join(', ')} left of ${seen.size}`);
    killAll(leftovers);
    await rm(home, { recursive: true, force: true, maxRetries: 3 });
  }
  const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
  process.stdout.write(`# ${CRASHES} host crashes in ${seconds} s: ${started} server processes started, ${left} left running\n`);
  assert.equal(left, 0, `${left} of ${started} server processes outlived their host:\n${report.join('\n')}`);
});

test('an orderly quit also ends the daemon a server started with setsid, which ignores SIGTERM', linuxOnly, async () => {
  const marker = `atrium-lifetime-${process.pid}-quit-${Math.random().toString(36).slice(2)}`;
  const home = await makeHome(marker);
  const host = startHost(home);
  try {
    await waitForAllServers(host, marker);
    host.child.kill('SIGTERM');
    await host.exited;
    const gone = await until(() => processesWith(marker).length === 0, CLEANUP_TIMEOUT_MS);
    assert.ok(gone, `these server processes outlived the host's orderly quit: ${processesWith(marker).map(describeProcess).join(', ')}`);
  } finally {
    await cleanUp([host], [marker], [home]);
  }
});

for (const [fixture, what] of [
  ['familyServer', 'what that one left running'],
  ['daemonServer', 'the double-forked daemon that one left running'],
] as const) {
  test(`a host started after one that died together with its reaper ends ${what}`, linuxOnly, async () => {
    const perServer = fixture === 'familyServer' ? PROCESSES_PER_SERVER : DAEMON_PROCESSES_PER_SERVER;
    const marker = `atrium-lifetime-${process.pid}-reap-${Math.random().toString(36).slice(2)}`;
    const home = await makeHome(marker, SERVERS, fixture);
    const crashed = startHost(home);
    let next: Host | undefined;
    try {
      await waitForAllServers(crashed, marker, SERVERS, perServer);
      await killWithReaper(crashed);
      // What outlives a crash by design: the family server and its helpers (it stays up once its input
      // closes), the daemons (the daemon server itself may end on its own as soon as it reads the end of
      // its input, which the crash closed).
      const outliving = fixture === 'familyServer' ? processesWith(marker) : daemonsWith(marker);
      assert.equal(outliving.length, fixture === 'familyServer' ? SERVERS * perServer : SERVERS, 'the crash left them running, as a crash does');

      await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: {} }));
      next = startHost(home);
      await next.ready;
      const gone = await until(() => processesWith(marker).length === 0, CLEANUP_TIMEOUT_MS);
      assert.ok(gone, `these processes left by the crashed run still run after the next start: ${processesWith(marker).map(describeProcess).join(', ')}`);
    } finally {
      await cleanUp([crashed, next], [marker], [home]);
    }
  });
}

for (const signal of ['SIGTERM', 'SIGINT', 'SIGKILL'] as const) {
  test(`a daemon a server set loose with a double fork (orphaned at once, out of its tree) ends with the host sent ${signal}`, linuxOnly, async () => {
    const marker = `atrium-lifetime-${process.pid}-daemon-${signal}-${Math.random().toString(36).slice(2)}`;
    const home = await makeHome(marker, SERVERS, 'daemonServer');
    const host = startHost(home);
    try {
      await waitForAllServers(host, marker, SERVERS, DAEMON_PROCESSES_PER_SERVER);
      const daemons = daemonsWith(marker);
      const hostPid = host.child.pid ?? 0;
      const orphaned = await until(() => daemons.every((pid) => !ancestorsOf(pid).includes(hostPid)), READY_TIMEOUT_MS);
      assert.ok(orphaned, 'the daemons left the host\'s process tree');
      host.child.kill(signal);
      await host.exited;
      const gone = await until(() => processesWith(marker).length === 0, CLEANUP_TIMEOUT_MS);
      assert.ok(gone, `these server processes outlived the host sent ${signal}: ${processesWith(marker).map(describeProcess).join(', ')}`);
    } finally {
      await cleanUp([host], [marker], [home]);
    }
  });
}

test('a host\'s reaping ends only its own run\'s processes: not a living host\'s, nor one that claims a run no host recorded', linuxOnly, async () => {
  const records = await mkdtemp(join(tmpdir(), 'atrium-lifetime-records-'));
  const markers = { crashed: '', living: '', forged: '' };
  for (const name of Object.keys(markers) as Array<keyof typeof markers>) {
    markers[name] = `atrium-lifetime-${process.pid}-${name}-${Math.random().toString(36).slice(2)}`;
  }
  const homes = [await makeHome(markers.crashed, 1, 'daemonServer'), await makeHome(markers.living, 1, 'daemonServer'), await makeHome('unused', 0)];
  const [crashedHome, livingHome, nextHome] = homes as [string, string, string];
  // A process outside any host that carries the environment marker of a run no record names.
  const forged = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)', markers.forged], {
    env: { ATRIUM_SERVER_RUN: `${'0123456789abcdef'.repeat(2)}:${process.pid}` },
    stdio: 'ignore',
  });
  const crashed = startHost(crashedHome, records);
  const living = startHost(livingHome, records);
  let next: Host | undefined;
  try {
    await waitForAllServers(crashed, markers.crashed, 1, DAEMON_PROCESSES_PER_SERVER);
    await waitForAllServers(living, markers.living, 1, DAEMON_PROCESSES_PER_SERVER);
    await killWithReaper(crashed);
    next = startHost(nextHome, records);
    await next.ready;
    const gone = await until(() => processesWith(markers.crashed).length === 0, CLEANUP_TIMEOUT_MS);
    assert.ok(gone, `the crashed run's processes still run after the next start: ${processesWith(markers.crashed).map(describeProcess).join(', ')}`);
    // The next start's reaper writes its own record once it has reaped what dead hosts left.
    const nextRecord = join(records, `atrium-${process.getuid?.() ?? 0}`, 'running', `host-${next.child.pid ?? 0}`);
    assert.ok(await until(() => existsSync(nextRecord), CLEANUP_TIMEOUT_MS), 'the next start\'s reaper finished reaping');
    assert.equal(processesWith(markers.living).length, DAEMON_PROCESSES_PER_SERVER, 'the living host\'s server and daemon still run');
    assert.deepEqual(processesWith(markers.forged), [forged.pid], 'the process claiming an unrecorded run still runs');
  } finally {
    forged.kill('SIGKILL');
    await cleanUp([crashed, living, next], Object.values(markers), [...homes, records]);
  }
});

/**
 * Ends a test's hosts and whatever of its processes is left (a failed test's too), then removes its
 * folders: only once the hosts' reapers are done, as they read their records while they reap.
 */
async function cleanUp(hosts: ReadonlyArray<Host | undefined>, markers: readonly string[], folders: readonly string[]): Promise<void> {
  for (const host of hosts) host?.child.kill('SIGKILL');
  await Promise.all(hosts.map((host) => host?.exited));
  await until(() => markers.every((marker) => processesWith(marker).length === 0), CLEANUP_TIMEOUT_MS);
  for (const marker of markers) killAll(processesWith(marker));
  for (const folder of folders) await rm(folder, { recursive: true, force: true, maxRetries: 3 });
}

/** Kills the host and its reaper together (frozen first, so the host cannot see its reaper die and start another). */
async function killWithReaper(host: Host): Promise<void> {
  const hostPid = host.child.pid ?? 0;
  process.kill(hostPid, 'SIGSTOP');
  const reapers = readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry) && parentOf(Number(entry)) === hostPid)
    .map(Number)
    .filter((pid) => processCommandLine(pid).includes('atrium-reaper'));
  // The reaper leads its own process group (its pipeline runs in more than one process).
  killAll(reapers.map((pid) => -pid));
  host.child.kill('SIGKILL');
  await host.exited;
}

function ancestorsOf(pid: number): number[] {
  const found: number[] = [];
  for (let parent = parentOf(pid); parent !== undefined && parent > 0 && !found.includes(parent); parent = parentOf(parent)) found.push(parent);
  return found;
}

/** "server", "helper" or "daemon" (the fixture names its processes in their command line), with the pid. */
function describeProcess(pid: number): string {
  const args = processCommandLine(pid);
  const kind = args.includes('helper') ? 'helper' : args.includes('daemon') ? 'daemon' : 'server';
  let state = '?';
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '?';
  } catch {
    // It ended meanwhile.
  }
  return `${kind} ${pid} (state ${state})`;
}

function processCommandLine(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
  } catch {
    return [];
  }
}
