// Ten stdio servers ready (issue 18 §5): Atrium's host with 10 copies of bench/servers/trivialServer.ts
// configured, from a new node process until every server is ready (tools listed), beside the same done
// by hand with the bare SDK client — 10 servers spawned in parallel, initialized, their tools listed — in a
// new node process too. Cold, as a person starts Atrium: each start is a fresh process, so loading the
// host's modules counts; rounds interleave the two, so load on this shared machine hits both alike.
// Target: 10 servers ready ≤ 1.3× by hand. Prints min / median / max of each and the ratio of medians.
//   node bench/parallelStart.ts [--rounds N]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { showSpread, spreadOf } from './spread.ts';

const SERVERS = 10;
const serverPath = fileURLToPath(new URL('./servers/trivialServer.ts', import.meta.url));
const self = fileURLToPath(import.meta.url);

// ---- the measured side, in a child process: prints milliseconds from its start to every server ready ----
if (process.argv[2] === '--atrium') {
  const { startHostCore } = await import('../main/app/hostCore.ts');
  const core = await startHostCore({ home: process.argv[3] ?? '', keepAliveMs: 0 });
  const statuses = await core.hub.whenSettled();
  const elapsed = performance.now();
  const notReady = [...statuses].filter(([, status]) => status.kind !== 'ready');
  await core.shutdown();
  if (statuses.size !== SERVERS || notReady.length > 0) throw new Error(`not every server became ready: ${JSON.stringify(notReady)}`);
  console.log(elapsed.toFixed(1));
  process.exit(0);
}
if (process.argv[2] === '--by-hand') {
  const { Client } = await import('@modelcontextprotocol/client');
  const { StdioClientTransport } = await import('@modelcontextprotocol/client/stdio');
  const clients = await Promise.all(
    Array.from({ length: SERVERS }, async () => {
      const client = new Client({ name: 'by-hand', version: '1.0.0' });
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [serverPath], stderr: 'ignore' }));
      await client.listTools();
      return client;
    }),
  );
  const elapsed = performance.now();
  await Promise.all(clients.map((client) => client.close()));
  console.log(elapsed.toFixed(1));
  process.exit(0);
}

// ---- the bench ----
const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 5;
const home = mkdtempSync(join(tmpdir(), 'atrium-bench-start-'));
const measure = (side: '--atrium' | '--by-hand') => Number(execFileSync(process.execPath, [self, side, home], { encoding: 'utf8' }).trim());
try {
  const mcpServers = Object.fromEntries(Array.from({ length: SERVERS }, (_, i) => [`trivial-${i + 1}`, { command: process.execPath, args: [serverPath] }]));
  writeFileSync(join(home, 'servers.json'), JSON.stringify({ mcpServers }, null, 2));
  // Approved as the person would (loaded here only: the measured child must not load it).
  await (await import('../e2e/fixtures/approvedServers.ts')).approveServers(home);
  // One of each first: it fills the disk cache.
  measure('--atrium');
  measure('--by-hand');
  const times = { atrium: [] as number[], byHand: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      times.atrium.push(measure('--atrium'));
      times.byHand.push(measure('--by-hand'));
    } else {
      times.byHand.push(measure('--by-hand'));
      times.atrium.push(measure('--atrium'));
    }
  }
  console.log(`${SERVERS} stdio servers ready, from a new node process, ${ROUNDS} interleaved rounds, ${availableParallelism()} CPUs (min / median / max)`);
  console.log(`by hand (bare SDK)   ${showSpread(times.byHand)}`);
  console.log(`Atrium's host        ${showSpread(times.atrium)}`);
  const ratio = spreadOf(times.atrium).median / spreadOf(times.byHand).median;
  console.log(`target: 10 servers ready ≤ 1.3× by hand, cold (${ratio.toFixed(2)}×) ${ratio <= 1.3 ? 'met' : 'MISSED'}`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
