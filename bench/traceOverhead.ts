// What a server's trace costs a tool call over stdio: Atrium's client with nobody watching the trace (it
// records every message all the same), and the same with the trace watched as a window watches it (every
// batch of new messages announced and serialised as the browser bridge sends it), against the raw
// newline-JSON client. Rounds alternate between the three so drift on this shared machine hits them alike;
// each ratio is the median of the per-round ratios. Target: watching costs no measurable throughput or
// latency — the watched/unwatched ratios within the run-to-run spread of unwatched/raw, i.e. ≥ 0.95×
// throughput and ≤ 1.05× p50.
import { createRawClientForBench } from './stdioClients.ts';
import type { BenchClient } from './stdioClients.ts';
import { startBenchConnection } from './benchConnection.ts';
import { fileURLToPath } from 'node:url';
import { showSpread, spreadOf } from './spread.ts';

const SEQUENTIAL_CALLS = 4000;
const PIPELINED_CALLS = 120_000;
const IN_FLIGHT = 32;
const ROUNDS = 15;
const WARMUP_CALLS = 500;
const serverPath = fileURLToPath(new URL('./servers/minimalServer.ts', import.meta.url));

let announcedBytes = 0;
let announcedMessages = 0;
let skippedMessages = 0;

async function atriumClient(watched: boolean): Promise<BenchClient> {
  const connection = await startBenchConnection(
    { id: watched ? 'watched' : 'unwatched', transport: 'stdio', command: process.execPath, args: [serverPath], env: {}, disabled: false },
    {
      // What the browser bridge does with each event: one JSON frame on the socket.
      onTrace: (messages, skipped) => {
        announcedMessages += messages.length;
        skippedMessages += skipped;
        announcedBytes += JSON.stringify({ event: 'traceMessages', payload: { serverId: 'watched', messages, skipped } }).length;
      },
    },
  );
  if (watched) {
    connection.trace.setWatched(true);
    // A window opening the Trace tab reads what the trace keeps first.
    connection.trace.messages();
  }
  const onProgress = () => undefined;
  return {
    name: watched ? 'atrium, trace watched' : 'atrium, trace not watched',
    call: async (tool, args) => {
      const result = await connection.callTool(tool, args, { timeoutMs: 120_000, signal: new AbortController().signal, onProgress, callId: 'bench-call', conversationId: 'bench' });
      const first = (result.content as { text?: string }[])[0];
      return first?.text?.length ?? 0;
    },
    close: () => connection.stop(),
  };
}

const names = ['unwatched', 'watched', 'raw'] as const;
type Name = (typeof names)[number];
const clients: Record<Name, BenchClient> = { unwatched: await atriumClient(false), watched: await atriumClient(true), raw: await createRawClientForBench() };
const latencies: Record<Name, number[]> = { unwatched: [], watched: [], raw: [] };
const rates: Record<Name, number[]> = { unwatched: [], watched: [], raw: [] };
const roundP50: Record<Name, number[]> = { unwatched: [], watched: [], raw: [] };

async function sequential(client: BenchClient, calls: number, into: number[]): Promise<number[]> {
  const own: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await client.call('echo', { text: `call ${i}` });
    own.push(performance.now() - started);
  }
  into.push(...own);
  return own;
}

async function pipelined(client: BenchClient, calls: number): Promise<number> {
  let issued = 0;
  const worker = async (): Promise<void> => {
    while (issued < calls) {
      issued++;
      await client.call('echo', { text: `call ${issued}` });
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return (calls / (performance.now() - started)) * 1000;
}

for (const name of names) {
  await sequential(clients[name], WARMUP_CALLS, []);
  await pipelined(clients[name], WARMUP_CALLS);
}
for (let round = 0; round < ROUNDS; round++) {
  const order = names.map((_, i) => names[(i + round) % names.length] as Name);
  for (const name of order) roundP50[name].push(spreadOf(await sequential(clients[name], SEQUENTIAL_CALLS / ROUNDS, latencies[name])).median);
  for (const name of order) rates[name].push(await pipelined(clients[name], PIPELINED_CALLS / ROUNDS));
}
for (const name of names) await clients[name].close();

const ratios = (a: Name, b: Name, of: Record<Name, number[]>) => of[a].map((value, round) => value / (of[b][round] as number));
console.log(`trace overhead over stdio against the hand-written minimalServer: ${SEQUENTIAL_CALLS} sequential calls, ${PIPELINED_CALLS} calls with ${IN_FLIGHT} in flight, ${ROUNDS} interleaved rounds`);
console.table(
  Object.fromEntries(
    names.map((name) => [name, { 'p50 ms per round, min / median / max': showSpread(roundP50[name], 'ms', 3), 'calls/s @32, min / median / max': showSpread(rates[name], '') }]),
  ),
);
console.log(`the watched trace announced ${announcedMessages} messages in ${(announcedBytes / 1e6).toFixed(1)} MB of events; ${skippedMessages} more passed too fast to list`);
const throughputWatched = spreadOf(ratios('watched', 'unwatched', rates));
const p50Watched = spreadOf(ratios('watched', 'unwatched', roundP50));
console.log(`watched/unwatched: throughput ${throughputWatched.median.toFixed(3)}× (rounds ${showSpread(ratios('watched', 'unwatched', rates), '×', 2)}), p50 ${p50Watched.median.toFixed(3)}× (rounds ${showSpread(ratios('watched', 'unwatched', roundP50), '×', 2)})`);
console.log(`unwatched/raw: throughput ${spreadOf(ratios('unwatched', 'raw', rates)).median.toFixed(3)}×, p50 ${spreadOf(ratios('unwatched', 'raw', roundP50)).median.toFixed(3)}×`);
console.log(`targets: watching the trace costs ≤ 5% throughput ${throughputWatched.median >= 0.95 ? 'met' : 'MISSED'}; ≤ 5% p50 ${p50Watched.median <= 1.05 ? 'met' : 'MISSED'}`);
