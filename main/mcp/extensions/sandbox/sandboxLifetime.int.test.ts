// Nothing of a sandbox outlives its host: the real host process (`node main/web/serveWeb.ts`) runs a
// sandboxed server; killed with SIGKILL, it leaves neither the sandbox (bubblewrap, the shell, the
// server inside) nor the library's socat bridges that ran beside it. Processes are found in /proc.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { approveServers } from '../../../../e2e/fixtures/approvedServers.ts';
import { fixtureCommand } from '../../../../e2e/servers/launch.ts';

const repoRoot = fileURLToPath(new URL('../../../../', import.meta.url));
const linuxOnly = process.platform === 'linux' ? {} : { skip: 'reads the process table from /proc' };
const READY_TIMEOUT_MS = 30_000;
const CLEANUP_TIMEOUT_MS = 10_000;

/** The live processes whose command line holds `text` anywhere (the sandbox carries the server's command inside one argument). */
function processesHolding(text: string): number[] {
  return live().filter((pid) => commandLine(pid).includes(text));
}

function childrenOf(parent: number): number[] {
  return live().filter((pid) => {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === parent;
    } catch {
      return false;
    }
  });
}

function live(): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number);
}

function commandLine(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
  } catch {
    return '';
  }
}

/** Polls every 20 ms until `condition` holds or `timeoutMs` passes; says which. */
async function until(condition: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await delay(20);
  }
  return true;
}

test('a host killed with SIGKILL leaves no sandboxed process and none of the sandbox’s bridges', linuxOnly, async () => {
  const marker = `atrium-sandbox-lifetime-${process.pid}-${Math.random().toString(36).slice(2)}`;
  const home = await mkdtemp(join(tmpdir(), 'atrium-sandbox-lifetime-'));
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { snoop: fixtureCommand('snoopingServer', ['--marker', marker]) } }));
  await approveServers(home);
  const host = spawn(process.execPath, ['main/web/serveWeb.ts', '--port', '0'], {
    cwd: repoRoot,
    env: { ATRIUM_HOME: home, HOME: home, TMPDIR: home, PATH: process.env.PATH ?? '', LANG: 'C.UTF-8' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  host.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => host.once('exit', () => resolve()));
  let leftovers: number[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      createInterface({ input: host.stdout }).on('line', (line) => line.startsWith('Atrium is running at ') && resolve());
      void exited.then(() => reject(new Error(`the host exited before it was ready:\n${stderr}`)));
    });
    // bubblewrap (and its inner copy in the new PID namespace), the shell it runs, the server.
    const sandboxed = await until(() => processesHolding(marker).some((pid) => commandLine(pid).includes('bwrap')) && processesHolding(marker).some((pid) => commandLine(pid).startsWith(process.execPath)), READY_TIMEOUT_MS);
    assert.ok(sandboxed, `the server did not start in its sandbox in time: ${processesHolding(marker).map(commandLine).join('\n')}\n${stderr}`);
    const bridges = childrenOf(host.pid ?? 0).filter((pid) => commandLine(pid).startsWith('socat') || commandLine(pid).includes('/socat '));
    assert.ok(bridges.length > 0, 'the library’s socat bridges run beside the host');
    const watched = [...processesHolding(marker), ...bridges];
    host.kill('SIGKILL');
    await exited;
    await until(() => watched.every((pid) => commandLine(pid) === ''), CLEANUP_TIMEOUT_MS);
    leftovers = watched.filter((pid) => commandLine(pid) !== '');
    process.stdout.write(`# ${watched.length} processes of the sandbox and its bridges, ${leftovers.length} left after SIGKILL\n`);
    assert.deepEqual(leftovers.map(commandLine), []);
  } finally {
    host.kill('SIGKILL');
    for (const pid of leftovers) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone.
      }
    }
    await rm(home, { recursive: true, force: true, maxRetries: 3 });
  }
});
