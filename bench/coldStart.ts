// Cold start (issue 18 §1), each a new process as a person starts it, rounds interleaved: `node -e 0`
// (the floor), `atrium --help`, `atrium servers` in an empty data folder, and the browser-mode host from
// launch to its first page served. Prints min / median / max of each and the ratio each is judged by.
// Targets: `atrium --help` ≤ 3× `node -e 0`; `atrium servers` with no servers ≤ 5×; the browser-mode host
// to its first page ≤ 800 ms. Each is started as people start it (bin/atrium.mjs, main/web/web.mjs), so
// it runs the bundle when that is current (`npm run build:node`), and says which it ran.
//   node bench/coldStart.ts [--rounds N]   (the first page needs `npm run build:renderer`)
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { showSpread, spreadOf } from './spread.ts';
import { bundleStaleReason } from '../main/bundle/builtOrSource.mjs';

const roundsArg = process.argv.indexOf('--rounds');
const ROUNDS = roundsArg > 0 ? Number(process.argv[roundsArg + 1]) : 7;
const atrium = fileURLToPath(new URL('../bin/atrium.mjs', import.meta.url));
const serveWeb = fileURLToPath(new URL('../main/web/web.mjs', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'atrium-cold-'));
const env = { ...process.env, ATRIUM_HOME: home, HOME: home };

const timed = (args: string[]) => {
  const started = performance.now();
  execFileSync(process.execPath, args, { env, stdio: 'ignore' });
  return performance.now() - started;
};

/**
 * From launching the browser-mode host to its first page fetched whole; resolves once the host has ended
 * (it holds the data folder until then, and the next command would find it taken).
 */
function firstPage(): Promise<number> {
  const started = performance.now();
  const child = spawn(process.execPath, [serveWeb, '--port', '0', '--no-build'], { env, stdio: ['ignore', 'pipe', 'ignore'] });
  let served: number | undefined;
  return new Promise((resolve, reject) => {
    let out = '';
    let asked = false;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      const url = /(http:\/\/127\.0\.0\.1:\d+\/)#token/.exec(out)?.[1];
      if (!url || asked) return;
      asked = true;
      fetch(url)
        .then(async (response) => {
          if (!response.ok) throw new Error(`the first page answered ${response.status}`);
          await response.text();
          served = performance.now() - started;
        })
        .catch(reject)
        .finally(() => child.kill('SIGTERM'));
    });
    child.once('exit', () => (served === undefined ? reject(new Error('the host ended before serving its first page')) : resolve(served)));
  });
}

try {
  const times = { node: [] as number[], help: [] as number[], servers: [] as number[], page: [] as number[] };
  // One of each first: the disk cache, and the data folder's first files.
  timed(['-e', '0']);
  timed([atrium, '--help']);
  timed([atrium, 'servers']);
  await firstPage();
  for (let round = 0; round < ROUNDS; round++) {
    times.node.push(timed(['-e', '0']));
    times.help.push(timed([atrium, '--help']));
    times.servers.push(timed([atrium, 'servers']));
    times.page.push(await firstPage());
  }
  const stale = bundleStaleReason();
  console.log(`cold start, ${ROUNDS} interleaved rounds, each a new process, ${stale ? `from the source (no current bundle: ${stale})` : 'from the bundle in dist/node/'} (min / median / max):`);
  console.log(`  node -e 0                      ${showSpread(times.node)}`);
  console.log(`  atrium --help                  ${showSpread(times.help)}`);
  console.log(`  atrium servers (none)          ${showSpread(times.servers)}`);
  console.log(`  browser-mode host, first page  ${showSpread(times.page)}`);
  const floor = spreadOf(times.node).median;
  const help = spreadOf(times.help).median / floor;
  const servers = spreadOf(times.servers).median / floor;
  const page = spreadOf(times.page).median;
  console.log(
    `targets: atrium --help ≤ 3× node -e 0 (${help.toFixed(1)}×) ${help <= 3 ? 'met' : 'MISSED'}; atrium servers ≤ 5× (${servers.toFixed(1)}×) ${servers <= 5 ? 'met' : 'MISSED'}; ` +
      `first page ≤ 800 ms (${page.toFixed(0)} ms) ${page <= 800 ? 'met' : 'MISSED'}`,
  );
} finally {
  rmSync(home, { recursive: true, force: true });
}
