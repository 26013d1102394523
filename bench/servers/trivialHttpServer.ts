// The trivial bench server over Streamable HTTP at /mcp, printing `listening <url>` first on stdout
// (e2e/servers/listenHttp.ts does the node:http side). Two builds of the same `echo {text}` tool:
//   node bench/servers/trivialHttpServer.ts [--port 0]          the SDK's McpServer behind createMcpHandler
//                                                              (both eras; 2025 era served statelessly)
//   node bench/servers/trivialHttpServer.ts --minimal [--port 0] hand-written JSON-RPC answering
//                                                              application/json, 2025 era, no sessions: a
//                                                              server that costs almost nothing, so a
//                                                              client's own cost shows in full
import { parseArgs } from 'node:util';
import { createMcpHandler, McpServer } from '@modelcontextprotocol/server';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { httpArgs, listenHttp, toNodeListener } from '../../e2e/servers/listenHttp.ts';

const { values } = parseArgs({ strict: false, options: { minimal: { type: 'boolean', default: false } } });

function createTrivialServer(): McpServer {
  const server = new McpServer({ name: 'atrium-bench-trivial-http', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.registerTool('echo', { description: 'Returns its text.', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  return server;
}

const ECHO_TOOL = { name: 'echo', description: 'Returns its text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } };
type JsonRpcRequest = { id?: number | string; method: string; params?: { name?: string; arguments?: { text?: unknown }; protocolVersion?: string } };

function answer(request: JsonRpcRequest): unknown {
  switch (request.method) {
    case 'initialize':
      return {
        protocolVersion: request.params?.protocolVersion === '2025-06-18' ? '2025-06-18' : '2025-11-25',
        capabilities: { tools: {} },
        serverInfo: { name: 'atrium-bench-minimal-http', version: '1.0.0' },
      };
    case 'ping':
      return {};
    case 'tools/list':
      return { tools: [ECHO_TOOL] };
    case 'tools/call':
      if (request.params?.name !== 'echo') throw new Error(`Unknown tool: ${String(request.params?.name)}`);
      return { content: [{ type: 'text', text: String(request.params.arguments?.text ?? '') }] };
    default:
      throw Object.assign(new Error(`Method not found: ${request.method}`), { code: -32601 });
  }
}

function minimalListener(req: IncomingMessage, res: ServerResponse): void {
  if (req.method !== 'POST') {
    res.writeHead(405, { allow: 'POST' }).end();
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as JsonRpcRequest;
    if (request.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    let body: string;
    try {
      body = JSON.stringify({ jsonrpc: '2.0', id: request.id, result: answer(request) });
    } catch (error) {
      const { code = -32603, message } = error as { code?: number; message: string };
      body = JSON.stringify({ jsonrpc: '2.0', id: request.id, error: { code, message } });
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
}

if (values.minimal) {
  await listenHttp(minimalListener, { ...httpArgs(), path: '/mcp' });
} else {
  const handler = createMcpHandler(() => createTrivialServer());
  await listenHttp(toNodeListener(handler.fetch), { ...httpArgs(), path: '/mcp' });
}
