// Per-call latency and pipelined throughput of `tools/call echo` over stdio for (a) Atrium's client, (b) the
// bare SDK client, (c) a raw newline-JSON client and (d) Atrium's transport without the SDK Client, which
// says whether (a)'s cost lies in the transport or the protocol layer above it. Rounds alternate between
// the clients so drift (thermal, other load) hits them all alike. Targets: (a) p50 ≤ 1.3× raw, throughput
// ≥ 0.8× raw.
import { benchServerName, clientFactories } from './stdioClients.ts';
import { pipelinedCalls, sequentialCalls } from './stdioClients.ts';
import type { BenchClient, ClientName } from './stdioClients.ts';
import { showSpread, spreadOf } from './spread.ts';

const SEQUENTIAL_CALLS = 4000;
const PIPELINED_CALLS = 150_000;
const IN_FLIGHT = 32;
// Alternating rounds spread the load of this shared machine over all the clients; each round is long
// enough (10,000 calls, a tenth of a second or more) that one scheduling hiccup does not decide it.
const ROUNDS = 15;
const WARMUP_CALLS = 500;

const names = Object.keys(clientFactories) as ClientName[];
const clients = {} as Record<ClientName, BenchClient>;
for (const name of names) clients[name] = await clientFactories[name]();

const latencies = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<ClientName, number[]>;
const roundRates = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<ClientName, number[]>;

for (const name of names) {
  await sequentialCalls(clients[name], WARMUP_CALLS, []);
  await pipelinedCalls(clients[name], WARMUP_CALLS, IN_FLIGHT);
}

for (let round = 0; round < ROUNDS; round++) {
  // Rotate the order each round so no client always runs first or last.
  const order = names.map((_, i) => names[(i + round) % names.length] as ClientName);
  for (const name of order) await sequentialCalls(clients[name], SEQUENTIAL_CALLS / ROUNDS, latencies[name]);
  for (const name of order) roundRates[name].push(await pipelinedCalls(clients[name], PIPELINED_CALLS / ROUNDS, IN_FLIGHT));
}

for (const name of names) await clients[name].close();

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const stats = Object.fromEntries(
  names.map((name) => {
    const own = latencies[name];
    return [name, { p50: percentile(own, 50), p99: percentile(own, 99), callsPerSecond: percentile(roundRates[name], 50), min: Math.min(...roundRates[name]), max: Math.max(...roundRates[name]) }];
  }),
) as Record<ClientName, { p50: number; p99: number; callsPerSecond: number; min: number; max: number }>;

console.log(`stdio round trip against ${benchServerName}: ${SEQUENTIAL_CALLS} sequential calls, ${PIPELINED_CALLS} calls with ${IN_FLIGHT} in flight, ${ROUNDS} interleaved rounds`);
console.log('throughput: calls/s per round, min / median / max; each ratio is judged by the median of the per-round ratios');
console.table(
  Object.fromEntries(
    names.map((name) => [
      name,
      { 'p50 ms': stats[name].p50.toFixed(3), 'p99 ms': stats[name].p99.toFixed(3), 'calls/s @32 min / median / max': `${Math.round(stats[name].min)} / ${Math.round(stats[name].callsPerSecond)} / ${Math.round(stats[name].max)}` },
    ]),
  ),
);

// A client's throughput is compared with raw's in the same round, measured moments apart, then the median
// of those ratios is taken: on this shared machine the speed available drifts by 2-4× within a run, and a
// ratio of two medians taken over different moments carries that drift; a round's ratio mostly does not.
function throughputRatio(name: ClientName): { median: number; spread: string } {
  const ratios = roundRates[name].map((rate, round) => rate / (roundRates.raw[round] as number));
  return { median: spreadOf(ratios).median, spread: showSpread(ratios, '×', 2) };
}

const raw = stats.raw;
const labels = { atrium: 'a/c', sdk: 'b/c', atriumTransport: 'd/c' } as const;
for (const name of ['atrium', 'sdk', 'atriumTransport'] as const) {
  const label = labels[name];
  const ratio = throughputRatio(name);
  console.log(
    `${label} (${name}/raw): p50 ${(stats[name].p50 / raw.p50).toFixed(2)}×  p99 ${(stats[name].p99 / raw.p99).toFixed(2)}×  throughput ${ratio.median.toFixed(2)}× (rounds ${ratio.spread}; medians ${(stats[name].callsPerSecond / raw.callsPerSecond).toFixed(2)}×)`,
  );
}
const overheadOk = stats.atrium.p50 / raw.p50 <= 1.3;
const throughputOk = throughputRatio('atrium').median >= 0.8;
console.log(`targets: p50 overhead ≤ 1.3× raw ${overheadOk ? 'met' : 'MISSED'}; throughput ≥ 0.8× raw ${throughputOk ? 'met' : 'MISSED'}`);
