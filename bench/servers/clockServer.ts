// A stdio MCP server whose one tool, `stamp`, reports when the call reached it and when it answered,
// on process.hrtime's clock (CLOCK_MONOTONIC, shared by every process on the machine), so a bench can
// time the host's hops to and from the server. The tool is read-only, as its annotations say.
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const server = new McpServer({ name: 'atrium-bench-clock', version: '1.0.0' }, { capabilities: { tools: {} } });

server.registerTool(
  'stamp',
  { description: 'Returns when the call arrived and when it was answered.', inputSchema: z.object({ note: z.string() }), annotations: { readOnlyHint: true } },
  () => {
    const receivedAt = process.hrtime.bigint();
    return { content: [{ type: 'text', text: JSON.stringify({ receivedAt: String(receivedAt), sentAt: String(process.hrtime.bigint()) }) }] };
  },
);

await server.connect(new StdioServerTransport());
