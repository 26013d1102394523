import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { networkInterfaces, tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { WebSocket } from 'ws';
import { requestNames } from '../../shared/contract.ts';
import type { AtriumApi } from '../../shared/contract.ts';
import type { ServerSnapshot } from '../../shared/domain.ts';
import { EventBus } from './eventBus.ts';
import { startBrowserBridge } from './browserBridge.ts';
import type { BrowserBridge } from './browserBridge.ts';

const snapshot: ServerSnapshot = {
  id: 'everything',
  transport: 'stdio',
  target: 'node everything.js stdio',
  status: { kind: 'ready', since: 1 },
  trusted: false,
  counts: { tools: 3, resources: 2, resourceTemplates: 1, prompts: 1 },
};

function fakeApi(): AtriumApi {
  const unused = Object.fromEntries(
    requestNames.map((name) => [name, async () => Promise.reject(new Error(`${name} is not part of this test`))]),
  ) as unknown as AtriumApi;
  return {
    ...unused,
    listServers: async () => [snapshot],
    restartServer: async ({ serverId }) => {
      if (serverId !== 'everything') throw Object.assign(new Error(`No server called "${serverId}"`), { code: 'not_found' });
      return null;
    },
  } satisfies AtriumApi;
}

type Frame = { id?: unknown; result?: unknown; error?: { code: string; message: string }; event?: string; payload?: unknown };

/** A real `ws` client that queues incoming frames so a test can await the next one. */
class Client {
  readonly ws: WebSocket;
  private readonly frames: Frame[] = [];
  private waiting: ((frame: Frame) => void) | undefined;

  constructor(url: string, protocols: string[], headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url, protocols, { headers });
    this.ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as Frame;
      if (this.waiting) {
        const waiting = this.waiting;
        this.waiting = undefined;
        waiting(frame);
      } else this.frames.push(frame);
    });
  }

  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.ws.once('open', () => resolve());
      this.ws.once('error', reject);
    });
  }

  /** Resolves with the HTTP status the server refused the upgrade with. */
  refused(): Promise<number> {
    return new Promise((resolve, reject) => {
      this.ws.once('open', () => reject(new Error('the upgrade was accepted')));
      this.ws.once('unexpected-response', (_req, res) => {
        resolve(res.statusCode ?? 0);
        res.resume();
      });
      this.ws.once('error', () => undefined);
    });
  }

  next(): Promise<Frame> {
    const queued = this.frames.shift();
    if (queued) return Promise.resolve(queued);
    return new Promise((resolve) => (this.waiting = resolve));
  }

  send(value: unknown): void {
    this.ws.send(typeof value === 'string' ? value : JSON.stringify(value));
  }

  close(): void {
    this.ws.close();
  }
}

function get(port: number, path: string, host = `127.0.0.1:${port}`) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('browser bridge', () => {
  let dir: string;
  let events: EventBus;
  let bridge: BrowserBridge;
  let token: string;
  let wsUrl: string;
  const auth = () => ['atrium', `atrium.${token}`];

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'atrium-bridge-'));
    const staticDir = join(dir, 'renderer');
    await mkdir(join(staticDir, 'assets'), { recursive: true });
    await writeFile(join(staticDir, 'index.html'), '<!doctype html><title>Atrium</title>');
    await writeFile(join(staticDir, 'assets', 'app.js'), 'console.log(1);');
    await writeFile(join(dir, 'package.json'), '{"secret": true}');
    events = new EventBus();
    bridge = await startBrowserBridge({ api: fakeApi(), events, staticDir });
    token = new URL(bridge.url).hash.replace('#token=', '');
    wsUrl = `ws://127.0.0.1:${bridge.port}/ws`;
  });

  after(async () => {
    await bridge.close();
    await rm(dir, { recursive: true, force: true });
  });

  test('the URL points at 127.0.0.1 and carries a 256-bit token in the fragment', () => {
    const url = new URL(bridge.url);
    assert.equal(url.hostname, '127.0.0.1');
    assert.equal(Number(url.port), bridge.port);
    assert.equal(Buffer.from(token, 'base64url').length, 32);
  });

  test("a refused page can ask whether its token is this run's: only its digest is sent, and only from the page's origin", async () => {
    const origin = new URL(bridge.url).origin;
    const ask = (value: string, from: string | undefined) =>
      fetch(`${origin}/link-check`, { method: 'POST', headers: { 'atrium-token-digest': value, ...(from ? { origin: from } : {}) } }).then((r) => r.status);
    const digestOf = (value: string) => createHash('sha256').update(value).digest('base64url');
    assert.equal(await ask(digestOf(token), origin), 204, "this run's token");
    assert.equal(await ask(digestOf(`${token}x`), origin), 403, 'a token from an earlier start');
    assert.equal(await ask(token, origin), 403, 'the token itself is not what is compared');
    assert.equal(await ask(digestOf(token), 'http://evil.example'), 403, 'another origin hears nothing useful');
  });

  test('with the right token: request/response and pushed events', async () => {
    const client = new Client(wsUrl, auth(), { Origin: `http://127.0.0.1:${bridge.port}` });
    await client.opened();
    assert.equal(client.ws.protocol, 'atrium', 'the token is never echoed back as the chosen subprotocol');
    client.send({ id: 1, method: 'listServers', params: {} });
    assert.deepEqual(await client.next(), { id: 1, result: [snapshot] });
    client.send({ id: 'r2', method: 'restartServer', params: { serverId: 'everything' } });
    assert.deepEqual(await client.next(), { id: 'r2', result: null });
    client.send({ id: 3, method: 'restartServer', params: { serverId: 'ghost' } });
    assert.deepEqual(await client.next(), { id: 3, error: { code: 'not_found', message: 'No server called "ghost"' } });
    events.emit('serverRemoved', { serverId: 'everything' });
    assert.deepEqual(await client.next(), { event: 'serverRemoved', payload: { serverId: 'everything' } });
    client.close();
  });

  test('a wrong or missing token is refused with 401', async () => {
    assert.equal(await new Client(wsUrl, ['atrium', `atrium.${'A'.repeat(43)}`]).refused(), 401);
    assert.equal(await new Client(wsUrl, ['atrium', `atrium.${token}x`]).refused(), 401);
    assert.equal(await new Client(wsUrl, ['atrium']).refused(), 401);
    assert.equal(await new Client(`${wsUrl}?token=${token}`, ['atrium']).refused(), 401);
  });

  test('a foreign Origin is refused with 403 even with the token', async () => {
    assert.equal(await new Client(wsUrl, auth(), { Origin: 'http://evil.example' }).refused(), 403);
    assert.equal(await new Client(wsUrl, auth(), { Origin: `http://localhost:${bridge.port}` }).refused(), 403);
    assert.equal(await new Client(wsUrl, auth(), { Origin: 'null' }).refused(), 403);
  });

  test('a foreign Host header (DNS rebinding) is refused with 403', async () => {
    assert.equal(await new Client(wsUrl, auth(), { Host: `evil.example:${bridge.port}` }).refused(), 403);
    assert.equal((await get(bridge.port, '/', `evil.example:${bridge.port}`)).status, 403);
    const viaLocalhost = await get(bridge.port, '/assets/app.js', `localhost:${bridge.port}`);
    assert.equal(viaLocalhost.status, 308);
    assert.equal(viaLocalhost.headers.location, `http://127.0.0.1:${bridge.port}/assets/app.js`);
  });

  test('bad JSON and malformed messages are answered with an error and the connection survives', async () => {
    const client = new Client(wsUrl, auth());
    await client.opened();
    client.send('{not json');
    assert.deepEqual(await client.next(), { id: null, error: { code: 'invalid_params', message: 'The message is not valid JSON.' } });
    client.send('[1,2]');
    assert.equal((await client.next()).error?.code, 'invalid_params');
    client.send({ method: 'listServers' });
    assert.match((await client.next()).error?.message ?? '', /needs an "id"/);
    client.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    assert.equal((await client.next()).error?.message, 'Messages must be JSON text.');
    client.send({ id: 9, method: 'listServers' });
    assert.deepEqual(await client.next(), { id: 9, result: [snapshot] });
    client.close();
  });

  test('unknown methods and invalid params are rejected by validateRequest before the API runs', async () => {
    const client = new Client(wsUrl, auth());
    await client.opened();
    client.send({ id: 1, method: 'restartServer', params: { serverId: 42 } });
    assert.deepEqual(await client.next(), {
      id: 1,
      error: { code: 'invalid_params', message: 'Invalid params for restartServer: serverId must be a string.' },
    });
    client.send({ id: 2, method: 'restartServer', params: { serverId: 'everything', force: true } });
    assert.match((await client.next()).error?.message ?? '', /"force" is not allowed/);
    client.send({ id: 3, method: 'toString', params: {} });
    assert.equal((await client.next()).error?.code, 'unknown_method');
    client.close();
  });

  test('a message over the size cap closes that connection only (1009)', async () => {
    const client = new Client(wsUrl, auth());
    await client.opened();
    const closed = new Promise<number>((resolve) => client.ws.once('close', (code) => resolve(code)));
    client.send(`{"id":1,"method":"listServers","params":{"pad":"${'x'.repeat(64 * 1024 * 1024)}"}}`);
    assert.equal(await closed, 1009);
    const other = new Client(wsUrl, auth());
    await other.opened();
    other.send({ id: 1, method: 'listServers' });
    assert.equal((await other.next()).id, 1);
    other.close();
  });

  test('static files: index for /, content types, security headers', async () => {
    const index = await get(bridge.port, '/');
    assert.equal(index.status, 200);
    assert.equal(index.body, '<!doctype html><title>Atrium</title>');
    assert.equal(index.headers['content-type'], 'text/html; charset=utf-8');
    assert.equal(
      index.headers['content-security-policy'],
      `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src data:; connect-src ws://127.0.0.1:${bridge.port} http://127.0.0.1:${bridge.port}; frame-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    assert.equal(index.headers['x-content-type-options'], 'nosniff');
    assert.equal(index.headers['referrer-policy'], 'no-referrer');
    assert.equal((await get(bridge.port, '/assets/app.js')).headers['content-type'], 'text/javascript; charset=utf-8');
    assert.equal((await get(bridge.port, '/missing.js')).status, 404);
  });

  test('path traversal gets 404', async () => {
    for (const path of ['/../package.json', '/%2e%2e/package.json', '/assets/../../package.json', '/..%2fpackage.json', '/..\\package.json', '/%00']) {
      const res = await get(bridge.port, path);
      assert.equal(res.status, 404, path);
      assert.doesNotMatch(res.body, /secret/);
    }
  });

  test('listens on 127.0.0.1 only', async (t) => {
    await assert.rejects(startBrowserBridge({ api: fakeApi(), events, staticDir: dir, host: '0.0.0.0' }), /loopback/);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((info) => info && info.family === 'IPv4' && !info.internal);
    if (!external) return t.skip('no non-loopback IPv4 interface on this machine');
    const code = await new Promise<string>((resolve) => {
      const socket = connect({ host: external.address, port: bridge.port });
      socket.once('connect', () => {
        socket.destroy();
        resolve('connected');
      });
      socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    });
    assert.equal(code, 'ECONNREFUSED');
  });

  test('close() ends open connections, cutting off clients that do not answer', async () => {
    const second = await startBrowserBridge({ api: fakeApi(), events, staticDir: dir });
    const secondToken = new URL(second.url).hash.replace('#token=', '');
    const client = new Client(`ws://127.0.0.1:${second.port}/ws`, ['atrium', `atrium.${secondToken}`]);
    await client.opened();
    const deaf = new Client(`ws://127.0.0.1:${second.port}/ws`, ['atrium', `atrium.${secondToken}`]);
    await deaf.opened();
    deaf.ws.pause(); // never answers the close handshake
    const closed = new Promise<number>((resolve) => client.ws.once('close', (code) => resolve(code)));
    const started = Date.now();
    await second.close();
    assert.ok(Date.now() - started < 5_000, 'a silent client does not hold shutdown for ws’s 30 s close timeout');
    assert.equal(await closed, 1001);
    deaf.ws.terminate();
  });
});
