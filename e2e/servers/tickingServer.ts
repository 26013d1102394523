// A stdio server that keeps doing something on its own: once the client has initialized, it logs "tick N"
// every --every-ms milliseconds (default 250), so a test can follow a live server's messages without
// making a call. 2025 era (log notifications need no request to ride on). With --pid-file PATH it writes
// its process id there, so a test can tell it ended.
//   node e2e/servers/tickingServer.ts [--every-ms N] [--pid-file PATH]
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const { values } = parseArgs({ options: { 'every-ms': { type: 'string', default: '250' }, 'pid-file': { type: 'string' } } });
const everyMs = Number(values['every-ms']);
if (values['pid-file']) writeFileSync(values['pid-file'], String(process.pid));

const server = new McpServer({ name: 'ticking-server', version: '1.0.0' }, { capabilities: { logging: {} } });
server.registerTool('ok', { description: 'Answers "ok".' }, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
let ticks = 0;
server.server.oninitialized = () => {
  const timer = setInterval(() => void server.sendLoggingMessage({ level: 'info', logger: 'ticks', data: `tick ${++ticks}` }).catch(() => clearInterval(timer)), everyMs);
  // The server ends with its stdin: the timer does not keep it alive.
  timer.unref();
};
await server.connect(new StdioServerTransport());
