// No process outlives the host: the real host process (`node main/web/serveWeb.ts`) runs fixture servers
// that start a helper in their group and a setsid daemon that ignores SIGTERM; whether the host is
// killed with SIGKILL (during start-up or once ready), quits in order, or dies together with its reaper
// (then the next start cleans up), none of those processes is left. Each run's processes carry a unique
// marker in their command line and are found in /proc.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
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

async function makeHome(marker: string, servers = SERVERS): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'atrium-lifetime-'));
  const mcpServers: Record<string, unknown> = {};
  for (let index = 1; index <= servers; index++) {
    mcpServers[`family${index}`] = { command: process.execPath, args: [fixturePath('familyServer'), '--marker', marker] };
  }
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers }));
  await approveServers(home);
  return home;
}

function startHost(home: string): Host {
  const child = spawn(process.execPath, ['main/web/serveWeb.ts', '--port', '0'], {
    cwd: repoRoot,
    // TMPDIR holds the reapers' records (there is no XDG_RUNTIME_DIR here): a folder of this test's own,
    // so Atrium processes started elsewhere on the machine meanwhile do not end what these tests count.
    env: { ATRIUM_HOME: home, HOME: home, TMPDIR: home, PATH: process.env.PATH ?? '', LANG: 'C.UTF-8' },
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

async function waitForAllServers(host: Host, marker: string, servers = SERVERS): Promise<void> {
  await host.ready;
  const up = await until(() => processesWith(marker).length === servers * PROCESSES_PER_SERVER, READY_TIMEOUT_MS);
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
    host.child.kill('SIGKILL');
    killAll(processesWith(marker));
    await rm(home, { recursive: true, force: true, maxRetries: 3 });
  }
});

test('a host started after one that died together with its reaper ends what that one left running', linuxOnly, async () => {
  const marker = `atrium-lifetime-${process.pid}-reap-${Math.random().toString(36).slice(2)}`;
  const home = await makeHome(marker);
  const crashed = startHost(home);
  let next: Host | undefined;
  try {
    await waitForAllServers(crashed, marker);
    // Frozen first, so the host cannot see its reaper die and start another; then both die at once.
    const hostPid = crashed.child.pid ?? 0;
    process.kill(hostPid, 'SIGSTOP');
    const reapers = readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry) && parentOf(Number(entry)) === hostPid)
      .map(Number)
      .filter((pid) => processCommandLine(pid).includes('atrium-reaper'));
    // The reaper leads its own process group (its pipeline runs in more than one process).
    killAll(reapers.map((pid) => -pid));
    crashed.child.kill('SIGKILL');
    await crashed.exited;
    assert.equal(processesWith(marker).length, SERVERS * PROCESSES_PER_SERVER, 'the crash left the servers running, as a crash does');

    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: {} }));
    next = startHost(home);
    await next.ready;
    const gone = await until(() => processesWith(marker).length === 0, CLEANUP_TIMEOUT_MS);
    assert.ok(gone, `these processes left by the crashed run still run after the next start: ${processesWith(marker).map(describeProcess).join(', ')}`);
  } finally {
    crashed.child.kill('SIGKILL');
    next?.child.kill('SIGKILL');
    await next?.exited;
    killAll(processesWith(marker));
    await rm(home, { recursive: true, force: true, maxRetries: 3 });
  }
});

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
