// A stdio server that takes --delay-ms before it answers anything (initialize, server/discover),
// to prove that one slow server does not hold up the others. Messages sent meanwhile wait in the
// stdin pipe and are answered once the transport starts. With --until-file it waits instead until that
// file exists, so a test decides when it is ready, whatever the machine's load; run it unsandboxed then
// (`sandbox: false`), since a sandboxed server sees only what existed when it started. With --slow-once
// it takes --delay-ms at its first start only, as a server `npx` downloads first does: the file it names
// is made then, and a later start that finds it answers at once.
//   node e2e/servers/slowStartServer.ts [--delay-ms 3000 [--slow-once PATH] | --until-file PATH]
import { existsSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const { values } = parseArgs({ options: { 'delay-ms': { type: 'string', default: '3000' }, 'until-file': { type: 'string' }, 'slow-once': { type: 'string' } } });
const slowOnce = values['slow-once'];
const startedBefore = slowOnce !== undefined && existsSync(slowOnce);
if (slowOnce !== undefined && !startedBefore) writeFileSync(slowOnce, 'started\n');
const delayMs = startedBefore ? 0 : Number(values['delay-ms']);
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
