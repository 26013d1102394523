// A server that speaks ONLY the deprecated 2024-11-05 HTTP+SSE transport, to prove the host's
// fallback from spec 002 ("Backwards Compatibility"): its POST of initialize to the URL is refused
// with 405, so it must GET the same URL, read the `endpoint` event and continue over that transport.
//   GET  /sse                   event stream; first event `endpoint` names the POST URL
//   POST /messages?sessionId=…  202 Accepted; the JSON-RPC answer goes out on that session's stream
//   POST /sse (or /)            405 Allow: GET (a Streamable HTTP attempt)
// Tool: echo {text} → text. Written on raw node:http because the v2 SDK no longer ships this transport.
//   node e2e/servers/legacySseServer.ts [--port 0]    prints `listening <url>` (the /sse URL)
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { httpArgs, listenHttp } from './listenHttp.ts';

const PROTOCOL_VERSION = '2024-11-05';

interface JsonRpcRequest {
  jsonrpc: '2.0';
  id?: string | number;
  method?: string;
  params?: Record<string, unknown>;
}

const streams = new Map<string, ServerResponse>();

function sendEvent(stream: ServerResponse, event: string, data: string): void {
  stream.write(`event: ${event}\ndata: ${data}\n\n`);
}

/** Answers one JSON-RPC request; undefined for notifications and responses, which need no answer. */
function answer(message: JsonRpcRequest): object | undefined {
  if (message.id === undefined || message.method === undefined) return undefined;
  const ok = (result: object) => ({ jsonrpc: '2.0', id: message.id, result });
  const fail = (code: number, text: string) => ({ jsonrpc: '2.0', id: message.id, error: { code, message: text } });
  switch (message.method) {
    case 'initialize':
      return ok({
        protocolVersion: PROTOCOL_VERSION,
        capabilities: { tools: {} },
        serverInfo: { name: 'legacy-sse-server', version: '1.0.0' },
      });
    case 'ping':
      return ok({});
    case 'tools/list':
      return ok({
        tools: [
          {
            name: 'echo',
            description: 'Returns its text argument.',
            inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
          },
        ],
      });
    case 'tools/call': {
      const { name, arguments: args } = (message.params ?? {}) as { name?: string; arguments?: { text?: unknown } };
      if (name !== 'echo') return fail(-32602, `Unknown tool: ${String(name)}`);
      return ok({ content: [{ type: 'text', text: String(args?.text ?? '') }] });
    }
    default:
      return fail(-32601, `Method not found: ${message.method}`);
  }
}

function openStream(req: IncomingMessage, res: ServerResponse): void {
  const sessionId = randomUUID();
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  streams.set(sessionId, res);
  process.stderr.write(`sse stream opened ${sessionId}\n`);
  req.once('close', () => {
    streams.delete(sessionId);
    process.stderr.write(`sse stream closed ${sessionId}\n`);
  });
  sendEvent(res, 'endpoint', `/messages?sessionId=${sessionId}`);
}

async function postMessage(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  const stream = streams.get(url.searchParams.get('sessionId') ?? '');
  if (!stream) {
    res.writeHead(404).end('Unknown session');
    return;
  }
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  let message: JsonRpcRequest;
  try {
    message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonRpcRequest;
  } catch {
    res.writeHead(400).end('Invalid JSON');
    return;
  }
  res.writeHead(202).end('Accepted');
  const reply = answer(message);
  if (reply) sendEvent(stream, 'message', JSON.stringify(reply));
}

const { url } = await listenHttp(
  (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (req.method === 'GET' && (url.pathname === '/sse' || url.pathname === '/')) return openStream(req, res);
    if (req.method === 'POST' && url.pathname === '/messages') {
      void postMessage(req, res, url).catch(() => res.writeHead(500).end());
      return;
    }
    if (url.pathname === '/sse' || url.pathname === '/') {
      process.stderr.write(`refused ${String(req.method)} ${url.pathname} (not Streamable HTTP)\n`);
      res.writeHead(405, { allow: 'GET' }).end('Method Not Allowed');
      return;
    }
    res.writeHead(404).end('Not Found');
  },
  { ...httpArgs(), path: '/sse' },
);
process.stderr.write(`legacySseServer: serving the 2024-11-05 HTTP+SSE transport at ${url}\n`);
