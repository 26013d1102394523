// `atrium tools` over 10 minimal stdio servers (bench/servers/minimalServer.mjs, hand-written, no SDK)
// beside a script with no dependency at all that starts the same 10 servers and lists their tools with raw
// JSON-RPC (bench/rawJsonRpcToolsOfServers.mjs): the honest floor of the job, with nothing loaded that
// the job does not need. Each is a new process, as a person runs it (the CLI's start-up, loading what it
// loads, is in the figure), rounds interleaved.
// Target: `atrium tools` ≤ 1.5× the dependency-free script. Prints min / median / max of each and the
// ratio of medians. Runs the bundle when it is current (`npm run build:node`), and says which it ran.
//   node bench/toolsTenServers.ts [--rounds N]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as delay } from 'node:timers/promises';
import { bundleStaleReason } from '../main/bundle/builtOrSource.mjs';
import { recordFolder } from '../main/mcp/stdio/processReaper.ts';
import { showSpread, spreadOf } from './spread.ts';

const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 11;
const SERVERS = 10;
const TARGET = 1.5;
const atrium = fileURLToPath(new URL('../bin/atrium.mjs', import.meta.url));
const raw = fileURLToPath(new URL('./rawJsonRpcToolsOfServers.mjs', import.meta.url));
const server = fileURLToPath(new URL('./servers/minimalServer.mjs', import.meta.url));

const home = mkdtempSync(join(tmpdir(), 'atrium-tools-ten-'));
const env = { ...process.env, ATRIUM_HOME: home };
const reaperRecords = recordFolder();
const run = async (args: string[], expect: string) => {
  const started = performance.now();
  const { stdout, pid } = spawnSync(process.execPath, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const took = performance.now() - started;
  if (!stdout.includes(expect)) throw new Error(`unexpected output: ${stdout.slice(0, 500)}`);
  // Atrium's reaper makes its last pass once the host is gone: that pass finishes before the next
  // round, so it weighs on neither side's next figure (it once made the script's look slower).
  const record = reaperRecords === undefined ? undefined : join(reaperRecords, `host-${pid}`);
  const deadline = Date.now() + 5_000;
  while (record !== undefined && existsSync(record) && Date.now() < deadline) await delay(5);
  return took;
};

try {
  // Unsandboxed, as the script runs them: this figure is Atrium's own cost over the job; what the
  // sandbox adds to a start is bench/sandboxStart.ts's.
  const mcpServers = Object.fromEntries(Array.from({ length: SERVERS }, (_, i) => [`minimal-${i + 1}`, { command: process.execPath, args: [server], sandbox: false }]));
  writeFileSync(join(home, 'servers.json'), JSON.stringify({ mcpServers }));
  for (const id of Object.keys(mcpServers)) execFileSync(process.execPath, [atrium, 'servers', 'approve', id], { env, stdio: 'ignore' });
  const rawRun = () => run([raw, String(SERVERS), server], `${SERVERS * 2} tools`);
  const atriumRun = () => run([atrium, 'tools'], `minimal-${SERVERS}`);
  // One of each first: the disk cache, Node's compile cache, the data folder's first files.
  await rawRun();
  await atriumRun();
  const times = { raw: [] as number[], atrium: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    // Which goes first alternates, so neither always follows the other's leftovers.
    if (round % 2 === 0) times.raw.push(await rawRun());
    times.atrium.push(await atriumRun());
    if (round % 2 === 1) times.raw.push(await rawRun());
  }
  const stale = bundleStaleReason();
  console.log(`atrium tools over ${SERVERS} minimal stdio servers, ${ROUNDS} interleaved rounds, each a new process, ${stale ? `from the source (no current bundle: ${stale})` : 'from the bundle in dist/node/'} (min / median / max):`);
  console.log(`  dependency-free script (raw JSON-RPC)  ${showSpread(times.raw)}`);
  console.log(`  atrium tools                           ${showSpread(times.atrium)}`);
  const ratio = spreadOf(times.atrium).median / spreadOf(times.raw).median;
  console.log(`target: atrium tools over ${SERVERS} servers ≤ ${TARGET}× a dependency-free script (${ratio.toFixed(2)}×) ${ratio <= TARGET ? 'met' : 'MISSED'}`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
