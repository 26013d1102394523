// A stdio server that takes --delay-ms before it answers anything (initialize, server/discover),
// to prove that one slow server does not hold up the others. Messages sent meanwhile wait in the
// stdin pipe and are answered once the transport starts. With --until-file it waits instead until that
// file exists, so a test decides when it is ready, whatever the machine's load; run it unsandboxed then
// (`sandbox: false`), since a sandboxed server sees only what existed when it started.
//   node e2e/servers/slowStartServer.ts [--delay-ms 3000 | --until-file PATH]
import { existsSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const { values } = parseArgs({ options: { 'delay-ms': { type: 'string', default: '3000' }, 'until-file': { type: 'string' } } });
const delayMs = Number(values['delay-ms']);
const untilFile = values['until-file'];
const startedAt = Date.now();

function whenReady(start: () => void): void {
  if (untilFile === undefined) {
    setTimeout(start, delayMs);
    return;
  }
  const poll = setInterval(() => {
    if (!existsSync(untilFile)) return;
    clearInterval(poll);
    start();
  }, 20);
}

whenReady(() => {
  process.stderr.write(`slowStartServer: ready after ${Date.now() - startedAt} ms\n`);
  serveStdio(() => {
    const server = new McpServer({ name: 'slow-start-server', version: '1.0.0' });
    server.registerTool('ok', { description: 'Returns "ok".' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
    server.registerTool('uptime', { description: 'Milliseconds since the process started.' }, () => ({
      content: [{ type: 'text', text: String(Date.now() - startedAt) }],
    }));
    return server;
  });
});
