// A stdio server that starts processes of its own, as servers that run helpers or daemons do, to prove
// that none of them outlives the host: a helper in the server's process group, and a daemon that calls
// setsid (leaving the group and the session) and ignores SIGTERM. Every process carries the --marker
// argument in its command line, so a test can find them all in the process table. It starts them before
// it answers anything, and stays up after its stdin closes while its helper runs (as a Node server does).
//   node e2e/servers/familyServer.ts --marker TEXT
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const { values } = parseArgs({ options: { marker: { type: 'string', default: 'atrium-family' } } });
const marker = values.marker;

const idle = 'setInterval(() => {}, 1 << 30);';
// The helper stays in the server's group; the daemon gets its own session (detached: Node calls setsid).
spawn(process.execPath, ['-e', idle, 'helper', marker], { stdio: 'ignore' });
spawn(process.execPath, ['-e', `process.on('SIGTERM', () => {}); ${idle}`, 'daemon', marker], { stdio: 'ignore', detached: true }).unref();

serveStdio(() => {
  const server = new McpServer({ name: 'family-server', version: '1.0.0' });
  server.registerTool('ok', { description: 'Returns "ok".' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  return server;
});
