// Serves the built renderer and the typed API over a WebSocket on the loopback interface, so the
// whole app runs in a plain browser. Anything on this machine can reach 127.0.0.1, so every upgrade
// must carry the per-run token (delivered in the URL fragment, which browsers never send), and Host
// and Origin are checked to stop DNS-rebinding and cross-site pages.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { WebSocketServer } from 'ws';
import type { RawData, WebSocket } from 'ws';
import type { AtriumApi } from '../../shared/contract.ts';
import type { EventBus } from './eventBus.ts';
import { securityHeaders } from './securityHeaders.ts';
import { linkCheckHeader, linkCheckPath } from '../../shared/linkCheck.ts';
import { serveStatic } from './serveStatic.ts';
import { dispatchRequest } from './dispatchRequest.ts';

export interface BrowserBridgeOptions {
  api: AtriumApi;
  events: EventBus;
  /** The Vite build output (dist/renderer). */
  staticDir: string;
  /** 0 or absent: a free port chosen by the OS. */
  port?: number;
  /** Loopback only: 127.0.0.1 (default) or ::1. */
  host?: string;
  /** The view sandbox's origin (MCP Apps views), which the page may frame. */
  viewSandboxOrigin?: string;
}

export interface BrowserBridge {
  /** The page to open, with the token in the fragment (`#token=…`). */
  url: string;
  port: number;
  close(): Promise<void>;
}

/** The subprotocol the bridge speaks; the client also offers `atrium.<token>` to authenticate. */
export const bridgeProtocol = 'atrium';
export const bridgePath = '/ws';
const maxMessageBytes = 64 * 1024 * 1024;
/** A client that lets this much pile up unread is dropped rather than letting the host's memory grow. */
const maxBufferedBytes = 128 * 1024 * 1024;
const closeGraceMs = 1_000;

export async function startBrowserBridge(options: BrowserBridgeOptions): Promise<BrowserBridge> {
  const host = options.host ?? '127.0.0.1';
  if (host !== '127.0.0.1' && host !== '::1') {
    throw new Error(`The browser bridge only listens on the loopback interface (127.0.0.1 or ::1), not "${host}".`);
  }
  const token = randomBytes(32).toString('base64url');
  const tokenDigest = digest(token);
  const { api, events, staticDir } = options;

  const hostLiteral = host === '::1' ? '[::1]' : host;
  let port = 0;
  const origin = () => `http://${hostLiteral}:${port}`;
  const hostAllowed = (value: string | undefined) =>
    value === `${hostLiteral}:${port}` || value === `localhost:${port}`;

  const server = createServer((req, res) => {
    if (!hostAllowed(req.headers.host)) return plain(res, 403, 'Forbidden host');
    if (req.headers.host === `localhost:${port}`) {
      // One origin only: the CSP and the WebSocket origin check are written for the IP address.
      res.writeHead(308, { Location: `${origin()}${req.url ?? '/'}` });
      return res.end();
    }
    // A page whose link was refused asks whether its token is this run's (or the link is from an earlier
    // start): it sends only the token's SHA-256, from this origin, and hears yes (204) or no (403).
    if (pathOf(req.url) === linkCheckPath) {
      if (req.method !== 'POST' || req.headers.origin !== origin()) return plain(res, 403, 'Forbidden');
      const offered = Buffer.from(String(req.headers[linkCheckHeader] ?? ''), 'base64url');
      const valid = offered.length === tokenDigest.length && timingSafeEqual(offered, tokenDigest);
      res.writeHead(valid ? 204 : 403, { 'Cache-Control': 'no-store' });
      return res.end();
    }
    // The page's own origin too: a page whose link is refused asks it about its token (above).
    serveStatic(req, res, staticDir, securityHeaders({ connect: [`ws://${hostLiteral}:${port}`, origin()], frames: options.viewSandboxOrigin ? [options.viewSandboxOrigin] : [] })).catch(() => {
      if (!res.headersSent) plain(res, 500, 'Internal error');
      else res.destroy();
    });
  });

  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: maxMessageBytes,
    handleProtocols: (protocols) => (protocols.has(bridgeProtocol) ? bridgeProtocol : false),
  });

  server.on('upgrade', (req: IncomingMessage, socket: Socket, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    if (!hostAllowed(req.headers.host)) return refuse(socket, 403, 'Forbidden');
    if (req.headers.origin !== undefined && req.headers.origin !== origin()) return refuse(socket, 403, 'Forbidden');
    if (pathOf(req.url) !== bridgePath) return refuse(socket, 404, 'Not Found');
    if (!carriesToken(req, tokenDigest)) return refuse(socket, 401, 'Unauthorized');
    wss.handleUpgrade(req, socket, head, (ws) => attachClient(ws, api));
  });

  const offEvents = events.onAny((event, payload) => {
    if (wss.clients.size === 0) return;
    const frame = JSON.stringify({ event, payload });
    for (const ws of wss.clients) {
      if (ws.readyState !== ws.OPEN) continue;
      if (ws.bufferedAmount > maxBufferedBytes) {
        ws.close(1008, 'Client is not reading its messages');
        continue;
      }
      ws.send(frame);
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: options.port ?? 0, host, exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  }).catch((error: unknown) => {
    // A port that is taken leaves nothing behind, so the caller may try another.
    offEvents();
    wss.close();
    throw error;
  });
  port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  return {
    url: `${origin()}/#token=${token}`,
    port,
    close() {
      closing ??= (async () => {
        offEvents();
        for (const ws of wss.clients) ws.close(1001, 'Atrium is shutting down');
        const clientsGone = new Promise<void>((resolve) => wss.close(() => resolve()));
        // A client that does not answer the close handshake promptly is cut off, not waited for.
        await Promise.race([clientsGone, new Promise((resolve) => setTimeout(resolve, closeGraceMs).unref())]);
        for (const ws of wss.clients) ws.terminate();
        await clientsGone;
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
      })();
      return closing;
    },
  };
}

function attachClient(ws: WebSocket, api: AtriumApi): void {
  ws.on('error', () => ws.terminate());
  ws.on('message', (data: RawData, isBinary: boolean) => {
    void handleMessage(ws, api, data, isBinary);
  });
}

type RequestId = string | number | null;

async function handleMessage(ws: WebSocket, api: AtriumApi, data: RawData, isBinary: boolean): Promise<void> {
  if (isBinary) return reply(ws, null, { error: { code: 'invalid_params', message: 'Messages must be JSON text.' } });
  let message: unknown;
  try {
    message = JSON.parse(rawText(data));
  } catch {
    return reply(ws, null, { error: { code: 'invalid_params', message: 'The message is not valid JSON.' } });
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) {
    return reply(ws, null, { error: { code: 'invalid_params', message: 'A message must be a JSON object.' } });
  }
  const { id, method, params } = message as { id?: unknown; method?: unknown; params?: unknown };
  if (!isRequestId(id)) {
    return reply(ws, null, { error: { code: 'invalid_params', message: 'A request needs an "id" (a string or a number).' } });
  }
  const answer = await dispatchRequest(api, method, params);
  reply(ws, id, answer.ok ? { result: answer.result } : { error: answer.error });
}

function reply(ws: WebSocket, id: RequestId, body: { result: unknown } | { error: unknown }): void {
  if (ws.readyState !== ws.OPEN) return;
  let frame: string;
  try {
    frame = JSON.stringify({ id, ...body });
  } catch {
    frame = JSON.stringify({ id, error: { code: 'failed', message: 'The result could not be sent to the window.' } });
  }
  ws.send(frame);
}

function isRequestId(id: unknown): id is string | number {
  return (typeof id === 'string' && id.length > 0 && id.length <= 200) || (typeof id === 'number' && Number.isSafeInteger(id));
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return data.toString('utf8');
}

function carriesToken(req: IncomingMessage, expected: Buffer): boolean {
  const offered = (req.headers['sec-websocket-protocol'] ?? '').split(',').map((p) => p.trim());
  // Hashing first gives equal-length inputs, so timingSafeEqual never sees (or leaks) a length mismatch.
  return offered.some((p) => p.startsWith(`${bridgeProtocol}.`) && timingSafeEqual(digest(p.slice(bridgeProtocol.length + 1)), expected));
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

function pathOf(url: string | undefined): string {
  return (url ?? '').split('?')[0] ?? '';
}

function refuse(socket: Socket, status: number, reason: string): void {
  if (!socket.writable) return void socket.destroy();
  socket.once('finish', () => socket.destroy());
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${reason.length}\r\n\r\n${reason}`);
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...securityHeaders({ connect: [] }) });
  res.end(text);
}
