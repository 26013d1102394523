// A 2025-era server that exits on the discovery probe is started twice the first time (the probe, then
// the plain initialize) and once at every later host start; one that answers the probe "method not
// found" is probed the first time only. The verdict is kept in the data folder, for this exact launch
// definition, for a week.
import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { startHostCore } from '../../app/hostCore.ts';
import { makeTempDir } from '../../../e2e/fixtures/hostHarness.ts';
import { LearnedEras, LEGACY_VERDICT_DAYS } from './learnedEras.ts';
import { parseServersFile } from '../config/serverConfig.ts';
import { approveServers } from '../../../e2e/fixtures/approvedServers.ts';

const serverPath = fileURLToPath(new URL('../../../e2e/servers/probeExitServer.ts', import.meta.url));
const homes: string[] = [];
after(() => Promise.all(homes.map((home) => rm(home, { recursive: true, force: true }))));

async function setUp(serverArgs: string[] = []) {
  const home = await makeTempDir('atrium-eras-');
  homes.push(home);
  // The server counts its starts in a root of its own: in its sandbox it writes nowhere else.
  const counts = await makeTempDir('atrium-eras-counts-');
  homes.push(counts);
  const startsFile = join(counts, 'starts.txt');
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { strict: { command: process.execPath, args: [serverPath, startsFile, ...serverArgs] } } }));
  await approveServers(home);
  const lines = async () => (await readFile(startsFile, 'utf8').catch(() => '')).split('\n');
  const starts = async () => (await lines()).filter((line) => /^\d+$/.test(line)).length;
  const probes = async () => (await lines()).filter((line) => line === 'probe').length;
  const runHost = async (connectTimeoutMs?: number) => {
    const core = await startHostCore({ home, keepAliveMs: 0, roots: [counts], ...(connectTimeoutMs !== undefined ? { connectTimeoutMs } : {}) });
    await core.hub.whenSettled();
    const [server] = await core.api.listServers({});
    await core.shutdown();
    return server;
  };
  return { home, starts, probes, runHost };
}

test('a server that exits on the discovery probe is started once at every later host start', async () => {
  const { home, starts, runHost } = await setUp();
  const first = await runHost();
  assert.deepEqual([first?.status.kind, first?.era], ['ready', 'legacy']);
  assert.equal(await starts(), 2, 'the probe, then the plain initialize');
  assert.match(await readFile(join(home, 'learned-eras.json'), 'utf8'), /"era": "legacy"/);

  assert.equal((await runHost())?.status.kind, 'ready');
  assert.equal(await starts(), 3, 'started once: the era was kept');

});

test('a server that answers the discovery probe "method not found" is not probed again at later host starts', async () => {
  const { home, starts, probes, runHost } = await setUp(['--answers-probe']);
  const first = await runHost();
  assert.deepEqual([first?.status.kind, first?.era], ['ready', 'legacy']);
  assert.deepEqual([await starts(), await probes()], [1, 1], 'started once, probed once');
  assert.match(await readFile(join(home, 'learned-eras.json'), 'utf8'), /"era": "legacy"/);

  assert.deepEqual([(await runHost())?.status.kind, (await runHost())?.status.kind], ['ready', 'ready']);
  assert.deepEqual([await starts(), await probes()], [3, 1], 'two more starts, no more probes: the era was kept');
});

test('a server that leaves the discovery probe unanswered is started once each time: initialize follows on the same process; unanswered twice running, later starts skip the probe', async () => {
  const { starts, probes, runHost } = await setUp(['--ignores-probe']);
  // The probe waits half the start's time limit (here 3 s of 6) before it gives up.
  const first = await runHost(6_000);
  assert.deepEqual([first?.status.kind, first?.era], ['ready', 'legacy']);
  assert.deepEqual([await starts(), await probes()], [1, 1], 'one process: not ended for the unanswered probe and started again');
  assert.equal((await runHost(6_000))?.status.kind, 'ready');
  assert.deepEqual([await starts(), await probes()], [2, 2], 'once is no verdict (a slow start): asked again');
  assert.equal((await runHost(6_000))?.status.kind, 'ready');
  assert.deepEqual([await starts(), await probes()], [3, 2], 'unanswered twice running: the era was kept, no probe the third time');
});

test('a modern server slow to answer at its first start (a first download) is asked again at the next one, and gets its era', async () => {
  const home = await makeTempDir('atrium-eras-');
  homes.push(home);
  const marks = await makeTempDir('atrium-eras-marks-');
  homes.push(marks);
  const slowStart = fileURLToPath(new URL('../../../e2e/servers/slowStartServer.ts', import.meta.url));
  // Unsandboxed: its mark of a first start must outlive the start.
  const definition = { command: process.execPath, args: [slowStart, '--delay-ms', '6500', '--slow-once', join(marks, 'started-once')], sandbox: false };
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { slow: definition } }));
  await approveServers(home);
  const runHost = async () => {
    // The probe gives up after half of the 10 s: the server, silent for 6.5 s, is then met with initialize.
    const core = await startHostCore({ home, keepAliveMs: 0, connectTimeoutMs: 10_000 });
    await core.hub.whenSettled();
    const [server] = await core.api.listServers({});
    const log = core.hub.get('slow').log.recent().map((line) => line.text);
    await core.shutdown();
    return { server, log };
  };
  const first = await runHost();
  assert.deepEqual([first.server?.status.kind, first.server?.era], ['ready', 'legacy'], 'the slow first start falls back to the 2025-era handshake');
  assert.ok(
    first.log.some((line) => line.includes('no answer to the discovery probe within 5000 ms')),
    `the log says why it started with the 2025-era handshake:\n${first.log.join('\n')}`,
  );
  const second = await runHost();
  assert.deepEqual([second.server?.status.kind, second.server?.era], ['ready', 'modern'], 'asked again at once, it speaks the 2026-07-28 protocol');
});

test('a damaged memory of eras is set aside and learnt again; a verdict is not used past a week, nor for another definition', async () => {
  const { home, starts, runHost } = await setUp();
  await writeFile(join(home, 'learned-eras.json'), '{ not json');
  assert.equal((await runHost())?.status.kind, 'ready');
  assert.equal(await starts(), 2, 'probed, as if nothing were known');

  const [server] = parseServersFile(await readFile(join(home, 'servers.json'), 'utf8'), 'servers.json').servers;
  assert.ok(server);
  let now = Date.now();
  const eras = await LearnedEras.open(home, { now: () => now });
  assert.equal(eras.knownLegacy(server), true);
  now += LEGACY_VERDICT_DAYS * 24 * 3_600_000 + 1;
  assert.equal(eras.knownLegacy(server), false, 'past a week the probe runs again');
  assert.equal(eras.knownLegacy({ ...server, args: [...(server.transport === 'stdio' ? server.args : []), '--other'] } as typeof server), false);
});

test('once the host has stopped, a server that finishes its handshake late writes nothing in the data folder', async () => {
  const { home } = await setUp();
  const [server] = parseServersFile(await readFile(join(home, 'servers.json'), 'utf8'), 'servers.json').servers;
  assert.ok(server);
  const eras = await LearnedEras.open(home);
  await eras.close();
  eras.learnLegacy(server);
  await eras.close();
  await assert.rejects(readFile(join(home, 'learned-eras.json')), { code: 'ENOENT' }, 'nothing learnt after the stop is written');
});
