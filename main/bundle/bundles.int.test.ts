// The bundle people run (buildBundles.ts), built here into a folder of this test's own and run as a
// person runs it: the atrium command against server-everything, and the browser-mode host serving its
// page and answering over the bridge, with the sample server (found from the bundle's own place) ready.
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { WebSocket } from 'ws';
import { everythingServerPath, makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { atriumCliPath } from '../../e2e/fixtures/atriumCliProcess.ts';
import { buildBundles } from './buildBundles.ts';
import { bundleEntries, bundleManifestName, repoRoot } from './builtOrSource.mjs';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';

const run = promisify(execFile);
const TIME_LIMIT_MS = 60_000;
const outDir = join(repoRoot, 'dist', `.bundle-test-${process.pid}`);

describe('the built bundle', () => {
  let home: string;
  before(async () => {
    await buildBundles(outDir);
    home = await makeTempDir('atrium-bundle-');
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'] } } }));
    await approveServers(home);
  });
  after(async () => {
    await rm(outDir, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  });

  test('is one file per entry beside its chunks and the list of what it was made from', () => {
    for (const name of Object.keys(bundleEntries)) assert.ok(existsSync(join(outDir, `${name}.mjs`)), `${name}.mjs`);
    assert.ok(existsSync(join(outDir, bundleManifestName)));
    assert.deepEqual(readdirSync(dirname(outDir)).filter((name) => name.startsWith(`${basename(outDir)}.building-`)), [], 'nothing of the build is left beside it');
  });

  const atrium = (...args: string[]) =>
    run(process.execPath, [join(outDir, 'atrium.mjs'), ...args], { env: { ...process.env, ATRIUM_HOME: home }, timeout: TIME_LIMIT_MS, killSignal: 'SIGKILL' });

  test('atrium --help says what the source says', async () => {
    const built = await atrium('--help');
    const source = await run(process.execPath, [atriumCliPath, '--help'], { timeout: TIME_LIMIT_MS });
    assert.equal(built.stdout, source.stdout);
    assert.match(built.stdout, /^ {2}call <server> <tool>/m);
  });

  test('atrium lists the servers and calls a tool of server-everything', async () => {
    const servers = await atrium('servers');
    assert.match(servers.stdout, /everything {2}\[stdio\] {2}Ready/);
    const call = await atrium('call', 'everything', 'echo', '{"message": "from the bundle"}');
    assert.match(call.stdout, /Echo: from the bundle/);
  });

  test('the browser-mode host serves its page and answers over the bridge; the sample server starts', async () => {
    const child = spawn(process.execPath, [join(outDir, 'serveWeb.mjs'), '--port', '0', '--no-build'], { env: { ...process.env, ATRIUM_HOME: await makeTempDir('atrium-bundle-web-') }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    try {
      const url = await new Promise<URL>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`no address within ${TIME_LIMIT_MS} ms:\n${out}\n${stderr}`)), TIME_LIMIT_MS);
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          out += chunk;
          const found = /Atrium is running at (\S+)/.exec(out)?.[1];
          if (found) {
            clearTimeout(timer);
            resolve(new URL(found));
          }
        });
        void exited.then(() => reject(new Error(`the host ended:\n${out}\n${stderr}`)));
      });
      const page = await fetch(new URL('/', url));
      assert.equal(page.status, 200);
      assert.match(await page.text(), /<div id="root">/);

      const token = url.hash.replace('#token=', '');
      const ws = new WebSocket(`ws://${url.host}/ws`, ['atrium', `atrium.${token}`], { headers: { Origin: url.origin } });
      const answers = new Map<number, (frame: { result?: unknown; error?: unknown }) => void>();
      ws.on('message', (data) => {
        const frame = JSON.parse(String(data)) as { id?: number; result?: unknown; error?: unknown };
        if (typeof frame.id === 'number') answers.get(frame.id)?.(frame);
      });
      await new Promise<void>((resolve, reject) => {
        ws.once('open', () => resolve());
        ws.once('error', reject);
      });
      let nextId = 0;
      const ask = (method: string, params: object = {}) =>
        new Promise<{ result?: unknown; error?: unknown }>((resolve, reject) => {
          const id = ++nextId;
          const timer = setTimeout(() => reject(new Error(`no answer to ${method} within ${TIME_LIMIT_MS} ms`)), TIME_LIMIT_MS);
          answers.set(id, (frame) => {
            clearTimeout(timer);
            resolve(frame);
          });
          ws.send(JSON.stringify({ id, method, params }));
        });
      const added = (await ask('addSampleServer')) as { result: { server: { id: string } } };
      const sampleId = added.result.server.id;
      // Added as any new server is: its command line shown, approved and started by the person.
      assert.deepEqual(await ask('setServerEnabled', { serverId: sampleId, enabled: true }), { id: nextId, result: null });
      const review = (await ask('reviewServerLaunch', { serverId: sampleId })) as { result: { hash: string } };
      await ask('approveServerLaunch', { serverId: sampleId, hash: review.result.hash });
      // Ready is pushed as an event; asking again until it shows keeps this test to the contract's requests.
      const deadline = Date.now() + TIME_LIMIT_MS;
      let status = '';
      while (status !== 'ready' && Date.now() < deadline) {
        const listed = (await ask('listServers')) as { result: { id: string; status: { kind: string; message?: string } }[] };
        const sample = listed.result.find((server) => server.id === sampleId);
        status = sample?.status.kind ?? 'missing';
        assert.notEqual(status, 'error', sample?.status.message);
        if (status !== 'ready') await new Promise((resolve) => setTimeout(resolve, 100));
      }
      assert.equal(status, 'ready');
      ws.close();
    } finally {
      child.kill('SIGTERM');
      assert.equal(await exited, 0, stderr);
    }
  });
});
