// The reaper's "- PID PID…" command (servers that exited together, exitBatch.ts): one pass ends what each
// of those servers left running in its group, and nothing of a server not named; the rest ends when the
// host is gone. Runs the real script, as the host starts it, over real processes.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { setTimeout as delay } from 'node:timers/promises';
import { REAPER_SCRIPT } from './reaperScript.ts';

const linuxOnly = process.platform === 'linux' ? {} : { skip: 'reads the process table from /proc' };
// The reaper is a shell script: on a machine as loaded as a shared CI runner it may take seconds to act.
const WAIT_MS = 10_000;

function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function until(condition: () => boolean): Promise<boolean> {
  const deadline = Date.now() + WAIT_MS;
  while (!condition()) {
    if (Date.now() > deadline) return false;
    await delay(25);
  }
  return true;
}

/** A "server" leading its own process group, with a helper in that group; returns both pids. */
async function serverWithHelper(): Promise<{ server: number; helper: number }> {
  const child = spawn('/bin/sh', ['-c', 'sleep 300 & echo $!; wait'], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  child.unref();
  const helper = await new Promise<number>((resolve) => child.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))));
  (child.stdout as unknown as { unref(): void }).unref();
  return { server: child.pid as number, helper };
}

test('one "- PID PID" line ends what both servers left in their groups, and no other server’s', linuxOnly, async (t) => {
  const folder = mkdtempSync(join(tmpdir(), 'atrium-reaper-'));
  const reaper = spawn('/bin/sh', ['-c', 'eval "$ATRIUM_REAPER_SCRIPT"', 'atrium-reaper', folder, String(process.pid), '60', 'abc123'], {
    env: { ATRIUM_REAPER_SCRIPT: REAPER_SCRIPT, PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    stdio: ['pipe', 'pipe', 'ignore'],
    detached: true,
  });
  const servers = await Promise.all([serverWithHelper(), serverWithHelper(), serverWithHelper()]);
  const all = servers.flatMap(({ server, helper }) => [server, helper]);
  t.after(() => {
    for (const pid of all) if (alive(pid)) process.kill(pid, 'SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  });
  const [first, second, third] = servers as [(typeof servers)[0], (typeof servers)[0], (typeof servers)[0]];
  for (const { server } of servers) reaper.stdin.write(`+ ${server}\n`);
  reaper.stdin.write(`- ${first.server} ${second.server}\n`);
  assert.ok(await until(() => ![first, second].some(({ server, helper }) => alive(server) || alive(helper))), 'both named servers’ groups are ended');
  assert.ok(alive(third.server) && alive(third.helper), 'a server not named keeps running');
  reaper.stdin.end();
  assert.ok(await until(() => !alive(third.server) && !alive(third.helper)), 'the rest ends once the host is gone');
});
