// A remote MCP server (2025 era only, stateless, no SDK) whose answers never end, to prove that Atrium
// bounds every read from the network in size and in time. Tools: `small` answers "ok" at once;
// `endless` answers as `--answer` says:
//   json            an application/json body that never ends, written as fast as the client reads
//   json-trickle    the same, 1 KiB every 20 ms (never reaching a size cap: only a time limit ends it)
//   event           a text/event-stream answer whose one event never ends
//   legacy-event    the 2024-11-05 HTTP+SSE transport (GET /sse, POST /messages); the answer to `endless`
//                   is an event on the session's stream that never ends
//   metadata        every MCP request is refused with 401; the protected resource metadata never ends
//   metadata-trickle the same, 1 KiB every 20 ms
// stderr, one line per event: `mcp <method>`, `answer started` and `answer cut after <n> bytes` (the
// client closed the connection in the middle of an endless answer), `metadata started` and `metadata cut
// after <n> bytes` likewise.
//   node e2e/servers/endlessAnswerServer.ts --answer json [--port 0]    prints `listening <url>`
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { httpArgs, listenHttp } from './listenHttp.ts';

const MODES = ['json', 'json-trickle', 'event', 'legacy-event', 'metadata', 'metadata-trickle'] as const;
type Mode = (typeof MODES)[number];

const { values } = parseArgs({ strict: false, options: { answer: { type: 'string', default: 'json' } } });
const mode = String(values.answer) as Mode;
if (!MODES.includes(mode)) throw new Error(`--answer must be one of ${MODES.join(', ')}`);

const log = (line: string) => process.stderr.write(`${line}\n`);
const FAST_CHUNK = Buffer.alloc(64 * 1024, 'a');
const SLOW_CHUNK = Buffer.alloc(1024, 'a');
const SLOW_INTERVAL_MS = 20;

interface JsonRpcRequest {
  id?: string | number;
  method?: string;
  params?: { name?: string };
}

const tools = [
  { name: 'small', description: 'Answers "ok" at once.', inputSchema: { type: 'object' } },
  { name: 'endless', description: 'Answers with something that never ends.', inputSchema: { type: 'object' } },
];

/** The answer to every request but `endless`; undefined for notifications. */
function answer(message: JsonRpcRequest): object | undefined {
  if (message.id === undefined || message.method === undefined) return undefined;
  const ok = (result: object) => ({ jsonrpc: '2.0', id: message.id, result });
  switch (message.method) {
    case 'initialize':
      return ok({ protocolVersion: mode === 'legacy-event' ? '2024-11-05' : '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'endless-answer-server', version: '1.0.0' } });
    case 'ping':
      return ok({});
    case 'tools/list':
      return ok({ tools });
    case 'tools/call':
      return ok({ content: [{ type: 'text', text: 'ok' }] });
    default:
      return { jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } };
  }
}

/** Writes `start`, then filler forever (as fast as the client reads, or slowly), until the client hangs up. */
function writeForever(res: ServerResponse, start: string, slow: boolean, what: string): void {
  let written = 0;
  const write = (bytes: Buffer | string): boolean => {
    written += Buffer.byteLength(bytes);
    return res.write(bytes);
  };
  res.once('close', () => log(`${what} cut after ${written} bytes`));
  log(`${what} started`);
  write(start);
  const next = (): void => {
    if (res.destroyed) return;
    if (slow) {
      write(SLOW_CHUNK);
      setTimeout(next, SLOW_INTERVAL_MS);
    } else if (write(FAST_CHUNK)) {
      setImmediate(next);
    } else {
      res.once('drain', next);
    }
  };
  next();
}

async function readJson(req: IncomingMessage): Promise<JsonRpcRequest | undefined> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonRpcRequest;
  } catch {
    return undefined;
  }
}

// The result text opens and is never closed: the id would only come after it, as the SDK's servers write it.
const endlessResult = '{"result":{"content":[{"type":"text","text":"';

async function streamableHttp(req: IncomingMessage, res: ServerResponse, base: string): Promise<void> {
  if (mode === 'metadata' || mode === 'metadata-trickle') {
    log('mcp 401');
    res.writeHead(401, { 'content-type': 'application/json', 'www-authenticate': `Bearer error="invalid_token", resource_metadata="${base}/.well-known/oauth-protected-resource/mcp"` });
    res.end('{"error":"invalid_token"}');
    return;
  }
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const message = await readJson(req);
  if (!message) {
    res.writeHead(400).end('Invalid JSON');
    return;
  }
  log(`mcp ${message.method ?? 'response'}`);
  if (message.method === 'tools/call' && message.params?.name === 'endless') {
    if (mode === 'event') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      writeForever(res, `event: message\ndata: ${endlessResult}`, false, 'answer');
    } else {
      res.writeHead(200, { 'content-type': 'application/json' });
      writeForever(res, endlessResult, mode === 'json-trickle', 'answer');
    }
    return;
  }
  const reply = answer(message);
  if (!reply) {
    res.writeHead(202).end();
    return;
  }
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(reply));
}

const legacyStreams = new Map<string, ServerResponse>();

function openLegacyStream(res: ServerResponse): void {
  const sessionId = randomUUID();
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  legacyStreams.set(sessionId, res);
  res.once('close', () => legacyStreams.delete(sessionId));
  res.write(`event: endpoint\ndata: /messages?sessionId=${sessionId}\n\n`);
}

async function legacyPost(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const stream = legacyStreams.get(url.searchParams.get('sessionId') ?? '');
  const message = await readJson(req);
  if (!stream || !message) {
    res.writeHead(stream ? 400 : 404).end();
    return;
  }
  log(`mcp ${message.method ?? 'response'}`);
  res.writeHead(202).end('Accepted');
  if (message.method === 'tools/call' && message.params?.name === 'endless') {
    writeForever(stream, `event: message\ndata: ${endlessResult}`, false, 'answer');
    return;
  }
  const reply = answer(message);
  if (reply) stream.write(`event: message\ndata: ${JSON.stringify(reply)}\n\n`);
}

const path = mode === 'legacy-event' ? '/sse' : '/mcp';
let base = '';
const listening = await listenHttp(
  (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const fail = () => {
      if (!res.headersSent) res.writeHead(500);
      res.end();
    };
    if (url.pathname === '/.well-known/oauth-protected-resource/mcp') {
      res.writeHead(200, { 'content-type': 'application/json' });
      writeForever(res, `{"resource":"${base}/mcp","authorization_servers":["${base}"],"scopes_supported":["`, mode === 'metadata-trickle', 'metadata');
      return;
    }
    if (mode === 'legacy-event') {
      if (req.method === 'GET' && url.pathname === '/sse') return openLegacyStream(res);
      if (req.method === 'POST' && url.pathname === '/messages') return void legacyPost(req, res, url).catch(fail);
      res.writeHead(url.pathname === '/sse' ? 405 : 404).end();
      return;
    }
    if (url.pathname === '/mcp') return void streamableHttp(req, res, base).catch(fail);
    res.writeHead(404).end();
  },
  { ...httpArgs(), path },
);
base = new URL(listening.url).origin;
