// A stdio MCP server that does as little as possible, so the benches measure the client side of the pipe.
// Built on the SDK's McpServer, like the servers people actually run. Tools: `echo` returns its `text`;
// `blob` returns a text content of `size` bytes.
import { McpServer } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { z } from 'zod';

const server = new McpServer({ name: 'atrium-bench-trivial', version: '1.0.0' }, { capabilities: { tools: {} } });

server.registerTool('echo', { description: 'Returns its text.', inputSchema: z.object({ text: z.string() }) }, ({ text }) => ({
  content: [{ type: 'text', text }],
}));

// Results of the same size are built once: the bench times the transfer, not the server's string building.
const blobs = new Map<number, string>();
server.registerTool('blob', { description: 'Returns `size` bytes of text.', inputSchema: z.object({ size: z.number().int().nonnegative() }) }, ({ size }) => {
  let text = blobs.get(size);
  if (text === undefined) {
    text = 'x'.repeat(size);
    blobs.set(size, text);
  }
  return { content: [{ type: 'text', text }] };
});

await server.connect(new StdioServerTransport());
