// Runs every bench one after another, each in its own node process (so one bench's heap, JIT state and
// child processes cannot skew the next), shows their output as it comes, and ends with one table of every
// target line they printed ("target: … MET" / "targets: … met; … MISSED"). Exits non-zero only when a
// bench fails to run: a missed target is a measurement, not a failure.
//   npm run bench            or   node bench/runAll.ts [name …]   (e.g. `node bench/runAll.ts httpRoundTrip`)
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const BENCHES = ['stdioRoundTrip', 'traceOverhead', 'largeResult', 'toolsListHeap', 'httpRoundTrip', 'parallelStart', 'sandboxStart', 'historyBench', 'turnOverhead', 'rendererBundle', 'rendererBench', 'viewsBench', 'toolRetrieval', 'toolPromptCache', 'longConversationStep', 'longConversationRequest', 'cliCall', 'toolsTenServers', 'coldStart', 'electronStart', 'tasksTiming', 'taskRestart'];

type Row = { bench: string; target: string; result: string };

function run(name: string): Promise<{ output: string; code: number | null; seconds: number }> {
  const script = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let output = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      output += chunk;
      process.stdout.write(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ output, code, seconds: (performance.now() - started) / 1000 }));
  });
}

/** "target: X met" or "targets: X met; Y MISSED" → one row per target. */
function targetsOf(bench: string, output: string): Row[] {
  return output
    .split('\n')
    .filter((line) => /^targets?:/i.test(line))
    .flatMap((line) => line.replace(/^targets?:\s*/i, '').split(/;\s*/))
    .map((part) => {
      const verdict = /\s(met|missed)\s*$/i.exec(part);
      return { bench, target: verdict ? part.slice(0, verdict.index).trim() : part.trim(), result: verdict ? (verdict[1] ?? '').toUpperCase() : '?' };
    });
}

const wanted = process.argv.slice(2);
const benches = wanted.length > 0 ? BENCHES.filter((name) => wanted.includes(name)) : BENCHES;
const rows: Row[] = [];
let failed = false;
for (const name of benches) {
  console.log(`\n=== ${name} ===`);
  const { output, code, seconds } = await run(name);
  console.log(`(${name}: ${seconds.toFixed(0)} s)`);
  const found = targetsOf(name, output);
  if (code !== 0) {
    failed = true;
    rows.push({ bench: name, target: `exited with code ${code}`, result: 'FAILED' });
  } else if (found.length === 0) {
    rows.push({ bench: name, target: 'printed no target line', result: '?' });
  }
  rows.push(...found);
}

console.log('\n=== summary ===');
console.table(rows);
const missed = rows.filter((row) => row.result !== 'MET').length;
console.log(`${rows.length - missed} of ${rows.length} targets met`);
if (failed) process.exitCode = 1;
