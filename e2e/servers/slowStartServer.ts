// A stdio server that takes --delay-ms before it answers anything (initialize, server/discover),
// to prove that one slow server does not hold up the others. Messages sent meanwhile wait in the
// stdin pipe and are answered once the transport starts.
//   node e2e/servers/slowStartServer.ts [--delay-ms 3000]
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const { values } = parseArgs({ options: { 'delay-ms': { type: 'string', default: '3000' } } });
const delayMs = Number(values['delay-ms']);
const startedAt = Date.now();

setTimeout(() => {
  process.stderr.write(`slowStartServer: ready after ${delayMs} ms\n`);
  serveStdio(() => {
    const server = new McpServer({ name: 'slow-start-server', version: '1.0.0' });
    server.registerTool('ok', { description: 'Returns "ok".' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
    server.registerTool('uptime', { description: 'Milliseconds since the process started.' }, () => ({
      content: [{ type: 'text', text: String(Date.now() - startedAt) }],
    }));
    return server;
  });
}, delayMs);
