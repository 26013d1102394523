// A stdio server that sets a daemon loose the classic way, to prove it does not outlive the host: a
// short-lived child calls setsid (leaving the server's group and session) and starts the daemon, then
// exits at once, so within milliseconds the daemon is an orphan adopted by init, out of the server's
// process tree. The daemon has no open file but /dev/null, works from /, ignores SIGTERM, SIGINT and
// SIGHUP and sleeps. The daemon's command line carries the --marker argument (as the server's does),
// so a test can find it in the process table. It is set loose before the server answers anything.
//   node e2e/servers/daemonServer.ts --marker TEXT
import { spawn } from 'node:child_process';
import { parseArgs } from 'node:util';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const { values } = parseArgs({ options: { marker: { type: 'string', default: 'atrium-daemon' } } });

const daemon = `process.chdir('/'); for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(signal, () => {}); setInterval(() => {}, 1 << 30);`;
// The first fork: detached is setsid; stdio 'ignore' leaves the child only /dev/null (Node closes every other descriptor).
const firstFork = `
  const { spawn } = require('node:child_process');
  spawn(process.execPath, ['-e', ${JSON.stringify(daemon)}, 'daemon', ${JSON.stringify(values.marker)}], { stdio: 'ignore', detached: true }).unref();
  process.exit(0);`;
spawn(process.execPath, ['-e', firstFork], { stdio: 'ignore', detached: true }).unref();

serveStdio(() => {
  const server = new McpServer({ name: 'daemon-server', version: '1.0.0' });
  server.registerTool('ok', { description: 'Returns "ok".' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  return server;
});
