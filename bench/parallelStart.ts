// Start-up time of the host core with 1 and with 10 copies of bench/servers/trivialServer.ts configured:
// from startHostCore until hub.whenSettled() with every server ready (process spawned, discovery probe or
// initialize done, tools listed). Rounds alternate N=1 and N=10 (order swapped each round) so load on this
// shared machine hits both alike; the host is shut down (every process gone) between rounds.
// Target: 10 servers in parallel ready in ≤ 1.5 s on a 2-core machine.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHostCore } from '../main/app/hostCore.ts';

const COUNTS = [1, 10] as const;
const ROUNDS = 7;
const TARGET_MS = 1_500;

const serverPath = fileURLToPath(new URL('./servers/trivialServer.ts', import.meta.url));

async function homeWith(count: number): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), `atrium-bench-start-${count}-`));
  const mcpServers = Object.fromEntries(Array.from({ length: count }, (_, i) => [`trivial-${i + 1}`, { command: process.execPath, args: [serverPath] }]));
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers }, null, 2));
  return home;
}

/** Milliseconds from startHostCore until every server is ready. */
async function startOnce(home: string, count: number): Promise<number> {
  const started = performance.now();
  const core = await startHostCore({ home, keepAliveMs: 0 });
  try {
    const statuses = await core.hub.whenSettled();
    const elapsed = performance.now() - started;
    const notReady = [...statuses].filter(([, status]) => status.kind !== 'ready');
    if (statuses.size !== count || notReady.length > 0) throw new Error(`not every server became ready: ${JSON.stringify(notReady)}`);
    return elapsed;
  } finally {
    await core.shutdown();
  }
}

const homes = new Map<number, string>();
for (const count of COUNTS) homes.set(count, await homeWith(count));
const times = new Map<number, number[]>(COUNTS.map((count) => [count, []]));
try {
  // One unmeasured start of each warms the module graph and the file cache of node and the server's imports.
  for (const count of COUNTS) await startOnce(homes.get(count)!, count);
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? COUNTS : [...COUNTS].reverse();
    for (const count of order) times.get(count)!.push(await startOnce(homes.get(count)!, count));
  }
} finally {
  for (const home of homes.values()) await rm(home, { recursive: true, force: true });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

const one = median(times.get(1)!);
const ten = median(times.get(10)!);
console.log(`parallel start: host core with N trivial stdio servers until all are ready, ${ROUNDS} interleaved rounds, ${availableParallelism()} CPUs`);
console.table(
  Object.fromEntries(
    COUNTS.map((count) => [`N=${count}`, { 'median ms': Math.round(median(times.get(count)!)), 'min ms': Math.round(Math.min(...times.get(count)!)), 'max ms': Math.round(Math.max(...times.get(count)!)) }]),
  ),
);
console.log(`10/1: ${(ten / one).toFixed(2)}× (10 servers one after another would be ≈ 10×)`);
console.log(`target: 10 servers in parallel ready in ≤ ${TARGET_MS} ms (median ${Math.round(ten)} ms) ${ten <= TARGET_MS ? 'MET' : 'MISSED'}`);
