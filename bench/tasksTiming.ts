// MCP Tasks as a person feels them, measured with real processes: the task fixture server (2026-07-28
// tasks extension, Streamable HTTP) in its own process, Atrium's host core, and a scripted model.
//   - while a 120 s task runs, a second message in the same conversation is answered within the usual
//     time: its turn beside the same turn with no task running (≤ 1.5×);
//   - the task's card appears within 1 s of the task answer: the server answering tools/call with a task
//     → the host's taskChanged event the window draws the card from (< 1 s);
//   - Cancel sends tasks/cancel within 1 s: cancelTask asked → tasks/cancel reaching the server (< 1 s);
//   - no poll sooner than pollInterval − 50 ms, none after a terminal status: every gap the server saw
//     between a poll's answer and the next poll of the 120 s task (pollIntervalMs 1000), and the polls of
//     any task after it ended (0).
//   node bench/tasksTiming.ts [--seconds 120]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startFakeAnthropic } from '../e2e/fixtures/llm/fakeAnthropicServer.ts';
import type { FakeTurn } from '../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { approveServers } from '../e2e/fixtures/approvedServers.ts';
import { startHttpFixture } from '../e2e/servers/launch.ts';
import { startHostCore } from '../main/app/hostCore.ts';

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '120' } } });
const TASK_SECONDS = Number(values.seconds);
const BASELINE_TURNS = 21;
const TURNS_DURING_TASK = 20;
const CANCELS = 10;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
const verdict = (met: boolean) => (met ? 'MET' : 'MISSED');

const server = await startHttpFixture('taskServer');
const script: FakeTurn[] = [
  ...Array.from({ length: BASELINE_TURNS }, () => ({ text: 'Plain answer.' })),
  { toolCalls: [{ name: 'tasks__slow_task', input: { seconds: TASK_SECONDS, pollMs: 1000, label: 'long job' } }] },
  { text: 'It runs as a task.' },
  ...Array.from({ length: TURNS_DURING_TASK }, () => ({ text: 'Plain answer.' })),
  ...Array.from({ length: CANCELS }, () => [{ toolCalls: [{ name: 'tasks__cancel_task', input: {} }] }, { text: 'Started.' }] as FakeTurn[]).flat(),
];
const llm = await startFakeAnthropic(script);
const home = mkdtempSync(join(tmpdir(), 'atrium-bench-tasks-'));
writeFileSync(join(home, 'servers.json'), JSON.stringify({ mcpServers: { tasks: { url: server.url } } }));
await approveServers(home);
const core = await startHostCore({
  home,
  keepAliveMs: 0,
  approvalMode: 'all',
  providerSettings: { providers: [{ id: 'fake', kind: 'anthropic', baseUrl: llm.url, apiKeySecret: 'fake' }], default: { provider: 'fake', model: 'bench' } },
  secrets: { get: async () => 'sk-bench-not-real' },
});
await core.whenSettled();
const { api } = core;

/** When the server received each request, from its stderr lines (the same machine's clock). */
const serverSaw = (method: string, taskId?: string): number | undefined => {
  const line = server
    .stderr()
    .split('\n')
    .find((l) => l.startsWith(`request ${method}${taskId ? ` ${taskId}` : ''} at `));
  return line ? Number(line.split(' at ')[1]) : undefined;
};

try {
  const { conversationId } = await api.sendMessage({ text: 'warm up' });
  const timeTurn = async () => {
    const started = performance.now();
    await api.sendMessage({ conversationId, text: 'a plain question' });
    return performance.now() - started;
  };
  const baseline: number[] = [];
  for (let i = 1; i < BASELINE_TURNS; i++) baseline.push(await timeTurn());

  // The card: from the server answering tools/call with a task to the host's taskChanged for it.
  let cardAt = 0;
  const offCard = core.events.on('taskChanged', (task) => {
    if (task.tool === 'slow_task' && cardAt === 0) cardAt = Date.now();
  });
  await api.sendMessage({ conversationId, text: 'start the long job' });
  offCard();
  const [longTask] = (await api.listTasks({})).filter((task) => task.tool === 'slow_task');
  if (!longTask) throw new Error('the long job did not start as a task');
  const answeredAt = serverSaw('tools/call') ?? NaN;
  const cardMs = cardAt - answeredAt;

  const during: number[] = [];
  for (let i = 0; i < TURNS_DURING_TASK; i++) during.push(await timeTurn());
  const stillRunning = (await api.listTasks({})).find((task) => task.key === longTask.key)?.endedAt === undefined;

  const cancelMs: number[] = [];
  for (let i = 0; i < CANCELS; i++) {
    await api.sendMessage({ conversationId, text: 'start a job to cancel' });
    const task = (await api.listTasks({})).find((t) => t.tool === 'cancel_task' && t.endedAt === undefined);
    if (!task) throw new Error('the job to cancel did not start as a task');
    const asked = Date.now();
    await api.cancelTask({ key: task.key });
    const seen = serverSaw('tasks/cancel', task.taskId);
    if (seen === undefined) throw new Error('tasks/cancel did not reach the server');
    cancelMs.push(seen - asked);
  }

  // The long task to its end, then what the server saw of its polls.
  await new Promise<void>((resolve) => {
    const check = async () => {
      if ((await api.listTasks({})).find((task) => task.key === longTask.key)?.endedAt !== undefined) return resolve();
      setTimeout(() => void check(), 500);
    };
    void check();
  });
  const seen = (await (await fetch(server.url.replace(/\/mcp$/, '/observations'))).json()) as {
    pollGaps: { taskId: string; gapMs: number; askedMs: number }[];
    tasks: { taskId: string; getsAfterEnd: number }[];
  };
  const gaps = seen.pollGaps.filter((gap) => gap.taskId === longTask.taskId);
  const earliest = Math.min(...gaps.map((gap) => gap.gapMs - gap.askedMs));
  const afterEnd = seen.tasks.reduce((sum, task) => sum + task.getsAfterEnd, 0);

  const ratio = median(during) / median(baseline);
  console.log(`a turn while a ${TASK_SECONDS} s task runs: median ${median(during).toFixed(1)} ms, beside ${median(baseline).toFixed(1)} ms with none (${ratio.toFixed(2)}×; the task still ran: ${stillRunning}) — target ≤ 1.5×: ${verdict(ratio <= 1.5 && stillRunning)}`);
  console.log(`the task's card after its answer: ${cardMs} ms — target < 1000 ms: ${verdict(cardMs < 1000)}`);
  console.log(`Cancel → tasks/cancel at the server: median ${median(cancelMs)} ms, worst ${Math.max(...cancelMs)} ms over ${CANCELS} — target < 1000 ms: ${verdict(Math.max(...cancelMs) < 1000)}`);
  console.log(`polls of the ${TASK_SECONDS} s task: ${gaps.length} gaps, the earliest ${earliest} ms from the interval asked (1000 ms) — target ≥ −50 ms: ${verdict(earliest >= -50)}`);
  console.log(`polls after a task ended: ${afterEnd} — target 0: ${verdict(afterEnd === 0)}`);
  const met = (ok: boolean) => (ok ? 'met' : 'MISSED');
  console.log(
    `targets: a turn beside a running task ≤ 1.5× ${met(ratio <= 1.5 && stillRunning)}; the card < 1 s after the task answer ${met(cardMs < 1000)}; Cancel → tasks/cancel < 1 s ${met(Math.max(...cancelMs) < 1000)}; no poll sooner than pollInterval − 50 ms ${met(earliest >= -50)}; no poll after the end ${met(afterEnd === 0)}`,
  );
} finally {
  await core.shutdown();
  await llm.close();
  await server.stop();
  rmSync(home, { recursive: true, force: true });
}
