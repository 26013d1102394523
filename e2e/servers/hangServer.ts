// A stdio server that never answers, so tests can prove timeouts and cancellation. Every
// `notifications/cancelled` that arrives is logged to stderr as `cancelled <requestId>`, which is
// how a test asserts that the cancellation actually reached the server.
//   node e2e/servers/hangServer.ts [--hang-initialize]
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const { values } = parseArgs({ options: { 'hang-initialize': { type: 'boolean', default: false } } });

// A second reader on stdin sees the same lines the SDK transport parses, in both eras and even
// when no transport runs at all (--hang-initialize).
createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) => {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return;
  }
  if (typeof message !== 'object' || message === null) return;
  const { method, params } = message as { method?: unknown; params?: { requestId?: unknown } };
  if (method === 'notifications/cancelled') process.stderr.write(`cancelled ${String(params?.requestId)}\n`);
});

if (values['hang-initialize']) {
  // No transport: initialize and server/discover are read and never answered. The process
  // still exits when the client closes stdin, like any well-behaved stdio server.
  process.stdin.on('end', () => process.exit(0));
} else {
  serveStdio(() => {
    const server = new McpServer({ name: 'hang-server', version: '1.0.0' });
    server.registerTool('hang', { description: 'Never answers; cancel it.' }, (ctx) => {
      process.stderr.write(`hang called ${String(ctx.mcpReq.id)}\n`);
      return new Promise(() => undefined);
    });
    server.registerTool('ok', { description: 'Returns "ok", to show the server still works.' }, () => ({
      content: [{ type: 'text', text: 'ok' }],
    }));
    return server;
  });
}
