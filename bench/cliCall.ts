// How long `atrium call` takes against server-everything, beside a plain SDK script making the same call
// (bench/rawEverythingCall.ts), in the same run, rounds interleaved (issue 18 §2). Both start the server,
// initialize, call `echo` once, print the result and end; server-everything does not exit when its input
// closes, so how long a client waits before signalling it shows here. Each command runs as a new process,
// as a person runs it: the CLI's start-up is in the figure.
// Target: `atrium call` ≤ 2× the raw script. Prints min / median / max of each and the ratio of medians.
//   node bench/cliCall.ts [--rounds N]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 7;
const atrium = fileURLToPath(new URL('../bin/atrium.mjs', import.meta.url));
const raw = fileURLToPath(new URL('./rawEverythingCall.ts', import.meta.url));
const everything = join(dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json')), 'dist', 'index.js');

const home = mkdtempSync(join(tmpdir(), 'atrium-cli-call-'));
const run = (args: string[], env: NodeJS.ProcessEnv = process.env) => {
  const started = performance.now();
  const out = execFileSync(process.execPath, args, { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  if (!out.includes('Echo: hi')) throw new Error(`unexpected output: ${out}`);
  return performance.now() - started;
};
try {
  writeFileSync(join(home, 'servers.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everything, 'stdio'] } } }));
  const env = { ...process.env, ATRIUM_HOME: home };
  execFileSync(process.execPath, [atrium, 'servers', 'approve', 'everything'], { env, stdio: 'ignore' });
  // One of each first, so neither pays for the disk cache alone.
  run([raw]);
  run([atrium, 'call', 'everything', 'echo', '{"message":"hi"}'], env);
  const times = { raw: [] as number[], atrium: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    times.raw.push(run([raw]));
    times.atrium.push(run([atrium, 'call', 'everything', 'echo', '{"message":"hi"}'], env));
  }
  const stats = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return { min: sorted[0] ?? 0, median: sorted[Math.floor(sorted.length / 2)] ?? 0, max: sorted.at(-1) ?? 0 };
  };
  const r = stats(times.raw);
  const a = stats(times.atrium);
  const show = (s: { min: number; median: number; max: number }) => `${s.min.toFixed(0)} / ${s.median.toFixed(0)} / ${s.max.toFixed(0)} ms`;
  console.log(`${ROUNDS} rounds, min / median / max`);
  console.log(`raw SDK script   ${show(r)}`);
  console.log(`atrium call      ${show(a)}`);
  const ratio = a.median / r.median;
  console.log(`atrium call / raw script: ${ratio.toFixed(2)}× (target ≤ 2×: ${ratio <= 2 ? 'met' : 'MISSED'})`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
