// A stdio server whose tool returns one huge text block, to prove the host caps what it reads and
// keeps into context instead of freezing or running out of memory.
//   node e2e/servers/bigResultServer.ts
import * as z from 'zod';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const MB = 1024 * 1024;

serveStdio(() => {
  const server = new McpServer({ name: 'big-result-server', version: '1.0.0' });
  server.registerTool(
    'big',
    {
      description: 'Returns one text content of `mb` MiB (default 20).',
      inputSchema: z.object({ mb: z.number().min(0).max(512).default(20) }),
    },
    ({ mb }) => {
      // One repeat() of a plain ASCII letter: no escaping, so the JSON line costs one copy.
      const text = 'x'.repeat(Math.round(mb * MB));
      return { content: [{ type: 'text', text }] };
    },
  );
  return server;
});
