// A registry is read as untrusted: against the tests' own registry on 127.0.0.1, every page is read and
// the search finds words the registry itself matches only in names, deleted entries never show and
// deprecated ones carry their message; against a hostile one — garbage, a list that loops, an answer that
// hangs (before or during its body), 50 MB — each read fails with a sentence naming the registry, and a
// registry that goes down leaves the list Atrium kept, said with its age.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { startRegistryFixture } from '../../../../e2e/fixtures/registryFixture.ts';
import type { RegistryFixture } from '../../../../e2e/fixtures/registryFixture.ts';
import { InstallError } from '../installError.ts';
import { registryClient } from './registryClient.ts';
import { RegistryLists } from './registryLists.ts';
import { searchRecords } from './registryViews.ts';

async function failure(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof InstallError, `an InstallError, not ${String(error)}`);
    return error.message;
  }
  assert.fail('it succeeded');
}

describe('the tests’ own registry', () => {
  let registry: RegistryFixture;
  let home: string;
  before(async () => {
    registry = await startRegistryFixture(undefined, { pageSize: 7 });
    home = await mkdtemp(join(tmpdir(), 'atrium-registry-'));
  });
  after(async () => {
    await registry.close();
    await rm(home, { recursive: true, force: true });
  });

  test('every page read; deleted never listed; the broken entry counted; the search matches titles and descriptions too', async () => {
    const listing = await registryClient(registry.url).listLatest();
    assert.equal(registry.requests.filter((request) => request.startsWith('/v0.1/servers?')).length, 5, 'its 30 latest entries, seven a page');
    const names = listing.records.map((record) => record.server.name);
    assert.equal(names.length, 29);
    assert.equal(listing.skipped, 1, 'the one without a description');
    assert.ok(!names.includes('io.github.atrium-test/old-weather'), 'deleted: never listed');
    assert.deepEqual(searchRecords(listing.records, 'forecasts').map((record) => record.server.name), ['io.github.atrium-test/weather'], 'a word of the description');
    assert.deepEqual(searchRecords(listing.records, 'ticket desk').map((record) => record.server.name), ['com.example/tickets'], 'words of the title');
    assert.equal(searchRecords(listing.records, 'filler').length, 23, 'across pages');
    const legacy = searchRecords(listing.records, 'legacy')[0];
    assert.equal(legacy?.status, 'deprecated');
    assert.equal(legacy?.statusMessage, 'Use io.github.atrium-test/notes instead.');
  });

  test('a deleted entry asked for by name is refused', async () => {
    assert.match(await failure(registryClient(registry.url).entry('io.github.atrium-test/old-weather')), /has no server named io\.github\.atrium-test\/old-weather/);
  });

  test('down, the list kept before is used and said with its age and why', async () => {
    let now = Date.parse('2026-01-01T10:00:00Z');
    const lists = new RegistryLists(home, () => now);
    const first = await lists.latest(registryClient(registry.url));
    assert.equal(first.fromCopy, undefined);
    registry.setDown(true);
    try {
      now += 60 * 60 * 1000;
      const kept = await lists.latest(registryClient(registry.url));
      assert.equal(kept.fetchedAt, first.fetchedAt, 'the copy from an hour ago');
      assert.equal(kept.records.length, 29);
      assert.match(kept.fromCopy ?? '', /^the registry at http:\/\/127\.0\.0\.1:\d+ answered 503 Service Unavailable$/);
    } finally {
      registry.setDown(false);
    }
  });
});

describe('a hostile registry', () => {
  let url: string;
  let answer: (req: IncomingMessage, res: ServerResponse) => void = () => undefined;
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    answer(req, res);
  });
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const res of open) res.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  const quick = () => registryClient(url, fetch, { timeoutMs: 500 });

  test('garbage: not JSON, or JSON that is not a list of servers', async () => {
    answer = (_req, res) => res.end('<html>Welcome to nginx!</html>');
    assert.match(await failure(quick().listLatest()), /^the registry at http:\/\/127\.0\.0\.1:\d+ did not answer with JSON: is it an MCP Registry \(API v0\.1\)\?$/);
    answer = (_req, res) => res.end(JSON.stringify({ servers: 'many', metadata: 7 }));
    assert.match(await failure(quick().listLatest()), /answered with something that is not a list of servers/);
    answer = (_req, res) => res.end(JSON.stringify({ server: { name: 'someone/else', version: '1.0.0', description: 'x' }, _meta: {} }));
    assert.match(await failure(quick().entry('io.github.a/b')), /answered for io\.github\.a\/b with another server \(someone\/else\)|does not fit the server\.json schema/);
  });

  test('a registry that cannot be reached says why in words, not "fetch failed"', async () => {
    const refused = registryClient('http://127.0.0.1:9', fetch, { timeoutMs: 2000 });
    const said = await failure(refused.listLatest());
    assert.match(said, /^the registry at http:\/\/127\.0\.0\.1:9 could not be reached \(.+\): check this computer's connection, then try again$/);
    assert.doesNotMatch(said, /fetch failed/);
  });

  test('a list whose cursor loops back stops, said', async () => {
    answer = (_req, res) => res.end(JSON.stringify({ servers: [], metadata: { count: 0, nextCursor: 'again' } }));
    assert.match(await failure(quick().listLatest()), /sent a page cursor it had sent before: its list loops/);
  });

  test('an answer that never comes, or stops halfway, ends at the time limit', async () => {
    answer = () => undefined;
    const started = Date.now();
    assert.match(await failure(quick().listLatest()), /did not answer within 0\.5 s: try again later/);
    answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.write('{"servers": [');
    };
    assert.match(await failure(quick().listLatest()), /did not answer within 0\.5 s: try again later/);
    assert.ok(Date.now() - started < 5000, 'both within the limit, not the default');
  });

  test('a 50 MB answer is cut at 16 MB and refused, and the connection closed', async () => {
    let sent = 0;
    answer = (_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      const more = () => {
        while (sent < 50 * 1024 * 1024) {
          sent += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      more();
    };
    assert.match(await failure(registryClient(url).listLatest()), /sent an answer over 16 MB/);
    assert.ok(sent < 50 * 1024 * 1024, `the rest was not read (${Math.round(sent / 1024 / 1024)} MB sent)`);
  });
});
