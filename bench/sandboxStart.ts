// What the sandbox costs a server's start: one host with two copies of bench/servers/trivialServer.ts,
// one in its sandbox (the default) and one with "sandbox": false, each stopped and started again until
// ready (handshake done, tools listed), 20 times each, interleaved so load on this shared machine hits
// both alike. The proxy and its bridges are shared by every server of a host, so they are set up once,
// in a first start that is not counted. Prints min / median / max of each, their difference and ratio.
// Target: sandboxed ≤ bare + 200 ms at the median.
//   node bench/sandboxStart.ts [--rounds N]
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHostCore } from '../main/app/hostCore.ts';
import { approveServers } from '../e2e/fixtures/approvedServers.ts';
import { showSpread, spreadOf } from './spread.ts';

const serverPath = fileURLToPath(new URL('./servers/trivialServer.ts', import.meta.url));
const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 20;

const home = mkdtempSync(join(tmpdir(), 'atrium-bench-sandbox-'));
writeFileSync(
  join(home, 'servers.json'),
  JSON.stringify({ mcpServers: { sandboxed: { command: process.execPath, args: [serverPath] }, bare: { command: process.execPath, args: [serverPath], sandbox: false } } }),
);
await approveServers(home);
const core = await startHostCore({ home, keepAliveMs: 0 });
try {
  const first = await core.hub.whenSettled();
  for (const [id, status] of first) if (status.kind !== 'ready') throw new Error(`${id} did not start: ${JSON.stringify(status)}`);
  const [sandbox] = await core.api.listSandboxes({ serverId: 'sandboxed' });
  if (sandbox?.state !== 'sandboxed') throw new Error(`the sandboxed copy is not sandboxed: ${JSON.stringify(sandbox)}`);
  /** Milliseconds from stopped to ready again. */
  const start = async (id: 'sandboxed' | 'bare') => {
    const connection = core.hub.get(id);
    await connection.stop();
    const began = performance.now();
    connection.start();
    const status = await connection.whenSettled();
    if (status.kind !== 'ready') throw new Error(`${id} did not start again: ${JSON.stringify(status)}`);
    return performance.now() - began;
  };
  const times = { sandboxed: [] as number[], bare: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    const order: ('sandboxed' | 'bare')[] = round % 2 === 0 ? ['sandboxed', 'bare'] : ['bare', 'sandboxed'];
    for (const id of order) times[id].push(await start(id));
  }
  const sandboxed = spreadOf(times.sandboxed).median;
  const bare = spreadOf(times.bare).median;
  console.log(`a stdio server stopped and started until ready, ${ROUNDS} interleaved starts each, ${availableParallelism()} CPUs (min / median / max)`);
  console.log(`bare ("sandbox": false)  ${showSpread(times.bare)}`);
  console.log(`sandboxed                ${showSpread(times.sandboxed)}`);
  console.log(`sandboxed − bare at the median: ${(sandboxed - bare).toFixed(0)} ms (${(sandboxed / bare).toFixed(2)}×)`);
  console.log(`target: sandboxed start ≤ bare + 200 ms at the median (+${(sandboxed - bare).toFixed(0)} ms) ${sandboxed - bare <= 200 ? 'met' : 'MISSED'}`);
} finally {
  await core.shutdown();
  rmSync(home, { recursive: true, force: true });
}
