// What a server's trace costs a tool call over stdio: Atrium's client with nobody watching the trace (it
// records every message all the same), a second one just like it (the control: how far two identical
// clients drift apart on this shared machine), and one with the trace watched as a window watches it (every
// batch of new messages announced and serialised as the browser bridge sends it), beside the raw
// newline-JSON client, and one whose trace records nothing (its record() made a no-op: what recording itself
// costs, with the layer still there). Rounds alternate between them so drift hits them alike; each ratio is
// the median of the per-round ratios. Target: watching costs nothing measurable — watched/unwatched within
// 5%, or no further from 1 than the control is. Then what recording alone costs a call, and what watching
// adds to it, timed on their own: on a busy machine the clients' drift hides a few percent either way.
import { createRawClientForBench } from './stdioClients.ts';
import { pipelinedCalls, sequentialCalls } from './stdioClients.ts';
import type { BenchClient } from './stdioClients.ts';
import { startBenchConnection } from './benchConnection.ts';
import { ServerTrace } from '../main/mcp/trace/serverTrace.ts';
import { linkCall } from '../main/mcp/trace/traceLink.ts';
import { fileURLToPath } from 'node:url';
import { showSpread, spreadOf } from './spread.ts';

const SEQUENTIAL_CALLS = 16_000;
const PIPELINED_CALLS = 400_000;
const IN_FLIGHT = 32;
const ROUNDS = 100;
const WARMUP_CALLS = 500;
const serverPath = fileURLToPath(new URL('./servers/minimalServer.ts', import.meta.url));

let announcedBytes = 0;
let announcedMessages = 0;
let skippedMessages = 0;

async function atriumClient(watched: boolean, recording = true): Promise<BenchClient> {
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
  if (!recording) connection.trace.record = () => undefined;
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

const names = ['unwatched', 'control', 'watched', 'notRecording', 'raw'] as const;
type Name = (typeof names)[number];
const clients: Record<Name, BenchClient> = {
  unwatched: await atriumClient(false),
  control: await atriumClient(false),
  watched: await atriumClient(true),
  notRecording: await atriumClient(false, false),
  raw: await createRawClientForBench(),
};
const latencies: Record<Name, number[]> = { unwatched: [], control: [], watched: [], notRecording: [], raw: [] };
const rates: Record<Name, number[]> = { unwatched: [], control: [], watched: [], notRecording: [], raw: [] };
const roundP50: Record<Name, number[]> = { unwatched: [], control: [], watched: [], notRecording: [], raw: [] };

for (const name of names) {
  await sequentialCalls(clients[name], WARMUP_CALLS, []);
  await pipelinedCalls(clients[name], WARMUP_CALLS, IN_FLIGHT);
}
for (let round = 0; round < ROUNDS; round++) {
  const order = names.map((_, i) => names[(i + round) % names.length] as Name);
  for (const name of order) roundP50[name].push(spreadOf(await sequentialCalls(clients[name], SEQUENTIAL_CALLS / ROUNDS, latencies[name])).median);
  for (const name of order) rates[name].push(await pipelinedCalls(clients[name], PIPELINED_CALLS / ROUNDS, IN_FLIGHT));
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
const throughputControl = spreadOf(ratios('control', 'unwatched', rates));
const p50Control = spreadOf(ratios('control', 'unwatched', roundP50));
console.log(`watched/unwatched: throughput ${throughputWatched.median.toFixed(3)}× (rounds ${showSpread(ratios('watched', 'unwatched', rates), '×', 2)}), p50 ${p50Watched.median.toFixed(3)}× (rounds ${showSpread(ratios('watched', 'unwatched', roundP50), '×', 2)})`);
console.log(`control/unwatched (two identical clients): throughput ${throughputControl.median.toFixed(3)}× (rounds ${showSpread(ratios('control', 'unwatched', rates), '×', 2)}), p50 ${p50Control.median.toFixed(3)}× (rounds ${showSpread(ratios('control', 'unwatched', roundP50), '×', 2)})`);
console.log(`unwatched/not recording: throughput ${spreadOf(ratios('unwatched', 'notRecording', rates)).median.toFixed(3)}× (rounds ${showSpread(ratios('unwatched', 'notRecording', rates), '×', 2)}), p50 ${spreadOf(ratios('unwatched', 'notRecording', roundP50)).median.toFixed(3)}× (rounds ${showSpread(ratios('unwatched', 'notRecording', roundP50), '×', 2)})`);
console.log(`unwatched/raw: throughput ${spreadOf(ratios('unwatched', 'raw', rates)).median.toFixed(3)}×, p50 ${spreadOf(ratios('unwatched', 'raw', roundP50)).median.toFixed(3)}×`);
const throughputMet = throughputWatched.median >= Math.min(0.95, throughputControl.median);
const p50Met = p50Watched.median <= Math.max(1.05, p50Control.median);

// What recording costs when nobody watches, alone: a call's request and answer noted by an unwatched trace,
// as the tracing layer notes them. The messages are made beforehand (the SDK and the channel make them
// anyway) and their JSON text comes with them (the transport makes or reads it anyway).
const unwatched = new ServerTrace('record', { announce: () => undefined });
const MESSAGES_MADE = 1000;
const requests = Array.from({ length: MESSAGES_MADE }, (_, id) => {
  const params = { name: 'echo', arguments: { text: `call ${id}` } };
  linkCall(params, { callId: `call-${id}`, conversationId: 'conversation' });
  return { jsonrpc: '2.0' as const, id, method: 'tools/call', params };
});
const answers = Array.from({ length: MESSAGES_MADE }, (_, id) => ({ jsonrpc: '2.0' as const, id, result: { content: [{ type: 'text', text: `call ${id}` }] } }));
const requestText = JSON.stringify(requests[0]);
const answerText = JSON.stringify(answers[0]);
const RECORDED_CALLS = 500_000;
let recordedBytes = 0;
// Watched as a window watches it: each batch serialised as the browser bridge sends it.
const watchedRecord = new ServerTrace('watched-record', {
  announce: (messages, skipped) => (recordedBytes += JSON.stringify({ event: 'traceMessages', payload: { serverId: 'watched-record', messages, skipped } }).length),
});
watchedRecord.setWatched(true);
// Every 1,000 calls the loop yields, as a real connection does between messages, so the watched trace's
// 100 ms announcements run within the timing; the unwatched trace is timed the same way.
async function recordCalls(trace: ServerTrace): Promise<number> {
  const started = performance.now();
  for (let call = 0; call < RECORDED_CALLS; call++) {
    const at = call % MESSAGES_MADE;
    trace.record('out', requests[at] as (typeof requests)[number], requestText);
    trace.record('in', answers[at] as (typeof answers)[number], answerText);
    if (call % 1000 === 999) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return ((performance.now() - started) * 1000) / RECORDED_CALLS;
}
const recordRounds: number[] = [];
const watchedRounds: number[] = [];
for (let round = 0; round < 7; round++) {
  // Alternated, so drift hits both alike.
  if (round % 2 === 0) recordRounds.push(await recordCalls(unwatched));
  watchedRounds.push(await recordCalls(watchedRecord));
  if (round % 2 === 1) recordRounds.push(await recordCalls(unwatched));
}
watchedRecord.setWatched(false);
const recordMicros = spreadOf(recordRounds).median;
const unwatchedCallMicros = 1e6 / spreadOf(rates.unwatched).median;
const watchingMicros = spreadOf(watchedRounds.map((micros, round) => micros - (recordRounds[round] as number))).median;
const share = (micros: number) => `${((micros / unwatchedCallMicros) * 100).toFixed(1)}%`;
console.log(`recording a call's request and answer, nobody watching: ${showSpread(recordRounds, 'µs', 2)} per call (rounds of ${RECORDED_CALLS}), ${share(recordMicros)} of a call at the unwatched median throughput (${unwatchedCallMicros.toFixed(1)} µs)`);
console.log(`watching it adds ${watchingMicros.toFixed(2)} µs per call (median of the rounds' differences; watched ${showSpread(watchedRounds, 'µs', 2)}), ${share(watchingMicros)} of a call; its batches made ${(recordedBytes / 1e6).toFixed(1)} MB of events`);
const watchingMet = watchingMicros / unwatchedCallMicros < 0.01;
console.log(
  `targets: watching the trace costs no measurable throughput ${throughputMet ? 'met' : 'MISSED'}; no measurable p50 ${p50Met ? 'met' : 'MISSED'}; watching's own cost under 1% of a call ${watchingMet ? 'met' : 'MISSED'}`,
);
