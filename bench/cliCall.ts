// How long `atrium call` takes beside a plain SDK script doing the same, in the same run, rounds
// interleaved (issue 18 §2): against server-everything (bench/rawEverythingCall.ts: start the server,
// initialize, call `echo` once, print, end — server-everything does not exit when its input closes, so
// how long a client waits before signalling it shows here). Each command runs as a new process, as a
// person runs it: the CLI's start-up is in the figure. (`atrium tools` over 10 servers is
// bench/toolsTenServers.ts, against a script without the SDK.)
// Target: `atrium call` ≤ 2× the raw script. Prints min / median / max of each and the ratio of medians.
//   node bench/cliCall.ts [--rounds N]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { showSpread, spreadOf } from './spread.ts';

const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 7;
const atrium = fileURLToPath(new URL('../bin/atrium.mjs', import.meta.url));
const raw = fileURLToPath(new URL('./rawEverythingCall.ts', import.meta.url));
const everything = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

const home = mkdtempSync(join(tmpdir(), 'atrium-cli-call-'));
const run = (args: string[], expect: string, env: NodeJS.ProcessEnv = process.env) => {
  const started = performance.now();
  const out = execFileSync(process.execPath, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (!out.includes(expect)) throw new Error(`unexpected output: ${out.slice(0, 500)}`);
  return performance.now() - started;
};

/** Rounds of the raw script and the Atrium command, interleaved; prints both and the ratio of medians. */
function compare(label: string, rawRun: () => number, atriumRun: () => number, target: number): void {
  rawRun();
  atriumRun();
  const times = { raw: [] as number[], atrium: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    times.raw.push(rawRun());
    times.atrium.push(atriumRun());
  }
  console.log(`${label}, ${ROUNDS} rounds, min / median / max: raw SDK script ${showSpread(times.raw)}; atrium ${showSpread(times.atrium)}`);
  const ratio = spreadOf(times.atrium).median / spreadOf(times.raw).median;
  console.log(`target: ${label} ≤ ${target}× the raw script (${ratio.toFixed(2)}×) ${ratio <= target ? 'met' : 'MISSED'}`);
}

try {
  writeFileSync(join(home, 'servers.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }));
  const callEnv = { ...process.env, ATRIUM_HOME: home };
  execFileSync(process.execPath, [atrium, 'servers', 'approve', 'everything'], { env: callEnv, stdio: 'ignore' });
  compare('atrium call', () => run([raw], 'Echo: hi'), () => run([atrium, 'call', 'everything', 'echo', '{"message":"hi"}'], 'Echo: hi', callEnv), 2);
} finally {
  rmSync(home, { recursive: true, force: true });
}
