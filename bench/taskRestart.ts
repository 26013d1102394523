// A remote task outlives its host: the host (a process of its own) starts a task on the task fixture
// server (2026-07-28 tasks extension, Streamable HTTP) for a model's call, and is killed with SIGKILL at a
// random moment while the task runs; a new host on the same data folder follows the task again, and its
// result must land in the same conversation. Prints how many of N landed (target N of N) and how long
// after the new host started.
//   node bench/taskRestart.ts [--runs 20]
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { approveServers } from '../e2e/fixtures/approvedServers.ts';
import { startFakeAnthropic } from '../e2e/fixtures/llm/fakeAnthropicServer.ts';
import type { FakeTurn } from '../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startHttpFixture } from '../e2e/servers/launch.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20' } } });
const RUNS = Number(values.runs);
const TASK_SECONDS = 3;
const hostScript = fileURLToPath(new URL('../e2e/fixtures/taskHostProcess.ts', import.meta.url));

const server = await startHttpFixture('taskServer');

/** Runs the host script until `until` matches a stdout line (or it exits); resolves with that line and the child. */
function host(mode: 'start' | 'resume', home: string, until: RegExp, llm: { url: string }) {
  const child = spawn(process.execPath, [hostScript, mode, home, llm.url], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const line = new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (text) => until.test(text) && resolve(text));
    child.once('exit', (code) => reject(new Error(`the ${mode} host exited (${code}) before "${until}": ${stderr.slice(-400)}`)));
  });
  return { child, line };
}

let landed = 0;
const landingMs: number[] = [];
try {
  for (let run = 1; run <= RUNS; run++) {
    const home = mkdtempSync(join(tmpdir(), 'atrium-bench-restart-'));
    // A model of its own per run: a host killed before its turn's last request leaves the rest of a script unread.
    const script: FakeTurn[] = [{ toolCalls: [{ name: 'tasks__slow_task', input: { seconds: TASK_SECONDS, pollMs: 300, label: `run ${run}` } }] }, { text: 'It runs as a task.' }];
    const llm = await startFakeAnthropic(script);
    try {
      writeFileSync(join(home, 'servers.json'), JSON.stringify({ mcpServers: { tasks: { url: server.url } } }));
      await approveServers(home);
      const first = host('start', home, /^task /, llm);
      const [, , conversationId] = (await first.line).split(' ');
      // Killed at a random moment while the task runs (it is saved before it is announced).
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 1_500));
      const killed = new Promise((resolve) => first.child.once('exit', resolve));
      first.child.kill('SIGKILL');
      await killed;
      const startedAt = performance.now();
      const second = host('resume', home, /^landed /, llm);
      const outcome = JSON.parse((await second.line).slice('landed '.length)) as { status: string; conversationId: string; landed: string[] };
      const ok = outcome.status === 'completed' && outcome.conversationId === conversationId && outcome.landed.length === 1 && outcome.landed[0]?.includes(`run ${run} done after ${TASK_SECONDS} s`) === true;
      if (ok) {
        landed++;
        landingMs.push(performance.now() - startedAt);
      }
      console.log(`run ${run}: ${ok ? 'landed in the same conversation' : `NOT landed: ${JSON.stringify(outcome)}`}`);
      await new Promise((resolve) => second.child.once('exit', resolve));
    } finally {
      await llm.close();
      rmSync(home, { recursive: true, force: true });
    }
  }
} finally {
  await server.stop();
}
const sorted = [...landingMs].sort((a, b) => a - b);
console.log(`landed after a kill -9: ${landed} of ${RUNS} — target ${RUNS} of ${RUNS}: ${landed === RUNS ? 'MET' : 'MISSED'}`);
console.log(`target: a remote task's result lands after kill -9, ${RUNS} of ${RUNS} ${landed === RUNS ? 'met' : 'MISSED'}`);
console.log(`from the new host's start to the result in its conversation: median ${Math.round(sorted[Math.floor(sorted.length / 2)] ?? NaN)} ms (the task runs ${TASK_SECONDS} s in all)`);
