// A stdio server that floods the client with notifications, to prove the host stays responsive and
// bounds what it keeps. Tool `flood` sends `count` log notifications (plus as many progress
// notifications when the call carries a progressToken) as fast as it can, then returns the count.
//   node e2e/servers/floodServer.ts
import * as z from 'zod';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

// The SDK's stdio transport adds a drain listener per queued write; thousands are queued on purpose.
process.stdout.setMaxListeners(0);

serveStdio(() => {
  const server = new McpServer({ name: 'flood-server', version: '1.0.0' }, { capabilities: { logging: {} } });
  server.registerTool(
    'flood',
    {
      description: 'Sends `count` notifications/message (and progress, given a progressToken), then returns the count.',
      inputSchema: z.object({ count: z.number().int().min(0).default(1000) }),
    },
    async ({ count }, ctx) => {
      const progressToken = ctx.mcpReq._meta?.progressToken;
      // Queue everything at once rather than awaiting each write: the point is to outrun the client.
      const sends: Promise<void>[] = [];
      for (let i = 1; i <= count; i++) {
        sends.push(ctx.mcpReq.log('info', `flood ${i}/${count}`, 'flood'));
        if (progressToken !== undefined) {
          sends.push(
            ctx.mcpReq.notify({
              method: 'notifications/progress',
              params: { progressToken, progress: i, total: count, message: `flood ${i}/${count}` },
            }),
          );
        }
      }
      await Promise.all(sends);
      return { content: [{ type: 'text', text: String(count) }] };
    },
  );
  return server;
});
