// Time to receive one large tool result (1, 10, 50 MB of text) over stdio, for Atrium's client, the bare SDK
// client and a raw newline-JSON client, repetitions interleaved. The SDK's stdio transport re-copies its
// buffer on every chunk and gives up past 10 MiB; that shows up as "failed: <reason>". Target: Atrium ≤ 2× raw.
import { clientFactories } from './stdioClients.ts';
import type { BenchClient, ClientName } from './stdioClients.ts';
import { showSpread } from './spread.ts';

const MB = 1_000_000;
const SIZES = [1 * MB, 10 * MB, 50 * MB];
const REPETITIONS: Record<number, number> = { [1 * MB]: 9, [10 * MB]: 7, [50 * MB]: 5 };
const names: ClientName[] = ['atrium', 'sdk', 'raw', 'atriumTransport'];

const clients = {} as Record<ClientName, BenchClient>;
for (const name of names) clients[name] = await clientFactories[name]();
// Warm up JIT and the servers' blob cache paths at a size every client can take.
for (const name of names) for (let i = 0; i < 3; i++) await clients[name].call('blob', { size: 100_000 });

// times[rep] is one call's time, so each client's call can be paired with raw's call of the same repetition.
type Outcome = { times: number[]; failure?: string };
const results = new Map<number, Record<ClientName, Outcome>>();

for (const size of SIZES) {
  const outcomes = Object.fromEntries(names.map((name) => [name, { times: [] } as Outcome])) as Record<ClientName, Outcome>;
  results.set(size, outcomes);
  for (let rep = 0; rep < (REPETITIONS[size] ?? 3); rep++) {
    const order = names.map((_, i) => names[(i + rep) % names.length] as ClientName);
    for (const name of order) {
      const outcome = outcomes[name];
      if (outcome.failure !== undefined) continue;
      const started = performance.now();
      try {
        const length = await clients[name].call('blob', { size });
        if (length !== size) throw new Error(`received ${length} bytes instead of ${size}`);
        outcome.times[rep] = performance.now() - started;
      } catch (error) {
        outcome.failure = error instanceof Error ? error.message : String(error);
        // A failed client may have lost its connection; the next size gets a fresh one.
        await clients[name].close().catch(() => {});
        clients[name] = await clientFactories[name]();
      }
    }
  }
}

for (const name of names) await clients[name].close();

function median(values: number[]): number {
  const sorted = values.filter((value) => value !== undefined).sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

// The ratio is the median of per-repetition ratios: calls made back to back share the machine's load of
// the moment, which a ratio of two medians taken at different moments would not.
function pairedRatio(times: number[], rawTimes: number[]): number {
  return median(times.flatMap((ms, rep) => (rawTimes[rep] === undefined ? [] : [ms / (rawTimes[rep] ?? Number.NaN)])));
}

console.log('large tool result over stdio: min / median / max ms per call (median paired ratio to raw)');
let targetMet = true;
for (const size of SIZES) {
  const outcomes = results.get(size);
  if (!outcomes) continue;
  const rawTimes = outcomes.raw.times;
  const cells = names.map((name) => {
    const outcome = outcomes[name];
    if (outcome.failure !== undefined) return `${name}: failed: ${outcome.failure}`;
    return `${name}: ${showSpread(outcome.times)} (${pairedRatio(outcome.times, rawTimes).toFixed(2)}×)`;
  });
  const atrium = outcomes.atrium;
  if (atrium.failure !== undefined || pairedRatio(atrium.times, rawTimes) > 2) targetMet = false;
  console.log(`${String(size / MB).padStart(3)} MB  ${cells.join('  |  ')}`);
}
console.log(`target: atrium ≤ 2× raw at every size ${targetMet ? 'met' : 'MISSED'}`);
