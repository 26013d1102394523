// The desktop app's main process to a shown window (issue 18 §1), where Electron's binary cannot run:
// the built shell (dist/electron/main.mjs, built here first) on plain Node, with the stand-in for
// 'electron' (fixtures/electronStandIn.ts) saying the app is ready at once. Each round is a new process
// on the same data folder, from launch to the window's show(): loading main.mjs and what it imports,
// opening the data folder and starting the host, creating the window and loading its page (the stand-in
// loads nothing, so the page's own start is rendererBench's). Electron's own start before `ready` is not
// in it. Prints min / median / max beside `node -e 0` in the same rounds. Target: ≤ 1 s.
//   node bench/electronStart.ts [--rounds N]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildElectron, electronOutDir } from '../main/electron/buildElectron.ts';
import { showSpread, spreadOf } from './spread.ts';

const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 7;
const standIn = fileURLToPath(new URL('./fixtures/electronStandIn.ts', import.meta.url));
const mainModule = join(electronOutDir, 'main.mjs');
const home = mkdtempSync(join(tmpdir(), 'atrium-electron-start-'));
const env = { ...process.env, ATRIUM_HOME: home, HOME: home };

/** Wall time from launching the process to the line the stand-in prints at show(). */
function shown(): number {
  const started = performance.now();
  const out = execFileSync(process.execPath, ['--import', standIn, mainModule], { env, encoding: 'utf8', timeout: 60_000 });
  if (!/^window shown at/m.test(out)) throw new Error(`the shell never showed its window:\n${out}`);
  return performance.now() - started;
}

const timed = (args: string[]) => {
  const started = performance.now();
  execFileSync(process.execPath, args, { env, stdio: 'ignore' });
  return performance.now() - started;
};

try {
  await buildElectron();
  // One of each first: the disk cache, and the data folder's first files.
  shown();
  const times = { node: [] as number[], window: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    times.node.push(timed(['-e', '0']));
    times.window.push(shown());
  }
  console.log(`Electron main process to a shown window (the stand-in for Electron; ready at once), ${ROUNDS} rounds, each a new process (min / median / max):`);
  console.log(`  node -e 0                 ${showSpread(times.node)}`);
  console.log(`  main.mjs to window shown  ${showSpread(times.window)}`);
  const median = spreadOf(times.window).median;
  console.log(`target: main process to a shown window ≤ 1000 ms (${median.toFixed(0)} ms) ${median <= 1000 ? 'met' : 'MISSED'}`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
