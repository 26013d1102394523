// A 2025-era Streamable HTTP server with sessions (MCP-Session-Id), to prove the host follows
// spec 002: after the server forgets a session, the next request carrying its id gets HTTP 404 and
// a conforming client re-initializes a fresh session, then retries.
//
// Tools: ok {} → "ok"; session_id {} → the id of the session serving the call; expire_session {}
// → forgets the calling session (its NEXT request is answered 404); init_count {} → how many
// sessions were initialized so far; deleted_sessions {} → JSON array of ids closed by HTTP DELETE.
// stderr gets one line per event: `session initialized <id>`, `session expired <id>`,
// `session deleted <id>`, `unknown session <id>` (a request answered 404).
//   node e2e/servers/sessionExpiryServer.ts [--port 0]    prints `listening <url>` (path /mcp)
import { randomUUID } from 'node:crypto';
import { McpServer, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { CallToolResult } from '@modelcontextprotocol/server';
import { httpArgs, listenHttp, toNodeListener } from './listenHttp.ts';

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
}

const sessions = new Map<string, Session>();
let initCount = 0;
const deleted: string[] = [];

function text(value: string): CallToolResult {
  return { content: [{ type: 'text', text: value }] };
}

function jsonRpcError(status: number, message: string): Response {
  return Response.json({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }, { status });
}

function createSessionServer(): McpServer {
  const server = new McpServer({ name: 'session-expiry-server', version: '1.0.0' });
  server.registerTool('ok', { description: 'Returns "ok".' }, () => text('ok'));
  server.registerTool('session_id', { description: 'Returns the MCP-Session-Id serving this call.' }, (ctx) =>
    text(ctx.sessionId ?? ''),
  );
  server.registerTool(
    'expire_session',
    { description: 'Forgets the calling session; its next request gets HTTP 404.' },
    (ctx) => {
      const id = ctx.sessionId ?? '';
      const session = sessions.get(id);
      sessions.delete(id);
      process.stderr.write(`session expired ${id}\n`);
      // Closed only after this answer has gone out on the transport we are still using.
      setImmediate(() => void session?.transport.close());
      return text(`expired ${id}`);
    },
  );
  server.registerTool('init_count', { description: 'How many sessions were initialized so far.' }, () =>
    text(String(initCount)),
  );
  server.registerTool('deleted_sessions', { description: 'Ids of sessions closed by HTTP DELETE, as JSON.' }, () =>
    text(JSON.stringify(deleted)),
  );
  return server;
}

async function handle(request: Request): Promise<Response> {
  if (new URL(request.url).pathname !== '/mcp') return new Response('Not Found', { status: 404 });
  const sessionId = request.headers.get('mcp-session-id');
  if (sessionId !== null) {
    const session = sessions.get(sessionId);
    if (!session) {
      process.stderr.write(`unknown session ${sessionId}\n`);
      return jsonRpcError(404, 'Session not found');
    }
    return session.transport.handleRequest(request);
  }
  if (request.method !== 'POST') return jsonRpcError(400, 'Bad Request: no MCP-Session-Id header');
  let body: unknown;
  try {
    body = await request.clone().json();
  } catch {
    return Response.json({ jsonrpc: '2.0', error: { code: -32700, message: 'Parse error' }, id: null }, { status: 400 });
  }
  if ((body as { method?: unknown } | null)?.method !== 'initialize') {
    return jsonRpcError(400, 'Bad Request: no MCP-Session-Id header');
  }
  const server = createSessionServer();
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    onsessioninitialized: (id) => {
      sessions.set(id, { transport, server });
      initCount++;
      process.stderr.write(`session initialized ${id}\n`);
    },
    onsessionclosed: (id) => {
      sessions.delete(id);
      deleted.push(id);
      process.stderr.write(`session deleted ${id}\n`);
    },
  });
  await server.connect(transport);
  return transport.handleRequest(request, { parsedBody: body });
}

await listenHttp(toNodeListener(handle), { ...httpArgs(), path: '/mcp' });
