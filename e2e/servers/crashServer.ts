// A stdio server that dies on demand, so tests can prove a crash surfaces as an error value and a
// pending call is rejected instead of hanging.
//   node e2e/servers/crashServer.ts [--crash-on-start]
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

if (process.argv.includes('--crash-on-start')) {
  // The stderr line gives the host something to show the user next to the exit code.
  process.stderr.write('crashServer: fatal: refusing to start (--crash-on-start)\n');
  process.exit(1);
}

serveStdio(() => {
  const server = new McpServer({ name: 'crash-server', version: '1.0.0' });
  server.registerTool('ok', { description: 'Returns "ok".' }, () => ({ content: [{ type: 'text', text: 'ok' }] }));
  server.registerTool('crash', { description: 'Exits the process with code 3 before answering.' }, () => {
    process.stderr.write('crashServer: crashing mid-call\n');
    process.exit(3);
  });
  return server;
});
