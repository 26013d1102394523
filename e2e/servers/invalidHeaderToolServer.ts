// A 2026-07-28 Streamable HTTP server (spec 003, x-mcp-header) whose tools/list mixes one valid
// x-mcp-header tool with tools that break each x-mcp-header rule. A conforming client lists only
// the valid one and logs a warning naming each dropped tool; calling the valid one proves the client
// mirrors `region` into `Mcp-Param-Region` (the SDK's HTTP entry rejects a missing or mismatched
// header with 400, and the tool echoes the header it received).
//   node e2e/servers/invalidHeaderToolServer.ts [--port 0]    prints `listening <url>` (path /mcp)
// 2025-era requests are rejected: x-mcp-header only exists on the 2026-07-28 revision.
import { createMcpHandler, fromJsonSchema, McpServer } from '@modelcontextprotocol/server';
import type { JsonSchemaType } from '@modelcontextprotocol/server';
import { httpArgs, listenHttp, toNodeListener } from './listenHttp.ts';

/** Tools a conforming client must drop, each breaking one rule of spec 003. */
const INVALID_TOOLS: Record<string, { description: string; inputSchema: Record<string, unknown> }> = {
  bad_header_chars: {
    description: 'INVALID: x-mcp-header contains a space and a colon.',
    inputSchema: { type: 'object', properties: { zone: { type: 'string', 'x-mcp-header': 'Bad Zone:' } } },
  },
  bad_header_object: {
    description: 'INVALID: x-mcp-header on a non-primitive (object) parameter.',
    inputSchema: {
      type: 'object',
      properties: { filter: { type: 'object', properties: { q: { type: 'string' } }, 'x-mcp-header': 'Filter' } },
    },
  },
  bad_header_duplicate: {
    description: 'INVALID: two x-mcp-header values equal ignoring case.',
    inputSchema: {
      type: 'object',
      properties: {
        a: { type: 'string', 'x-mcp-header': 'Region' },
        b: { type: 'string', 'x-mcp-header': 'region' },
      },
    },
  },
  bad_header_empty: {
    description: 'INVALID: empty x-mcp-header.',
    inputSchema: { type: 'object', properties: { c: { type: 'string', 'x-mcp-header': '' } } },
  },
};

function createHeaderServer(request: Request | undefined): McpServer {
  const server = new McpServer({ name: 'invalid-header-tool-server', version: '1.0.0' });
  server.registerTool(
    'execute_sql',
    {
      description: 'Valid: `region` is mirrored into the Mcp-Param-Region header. Echoes what it received.',
      inputSchema: fromJsonSchema<{ region: string; query: string }>({
        type: 'object',
        properties: {
          region: { type: 'string', description: 'The region to execute the query in', 'x-mcp-header': 'Region' },
          query: { type: 'string', description: 'The SQL query to execute' },
        },
        required: ['region', 'query'],
      } as JsonSchemaType),
    },
    ({ region, query }) => {
      const received = { region, query, mcpParamRegion: request?.headers.get('mcp-param-region') ?? null };
      return { content: [{ type: 'text', text: JSON.stringify(received) }] };
    },
  );
  for (const [name, { description, inputSchema }] of Object.entries(INVALID_TOOLS)) {
    server.registerTool(name, { description, inputSchema: fromJsonSchema(inputSchema as JsonSchemaType) }, () => ({
      content: [{ type: 'text', text: `${name} should never have been called` }],
      isError: true,
    }));
  }
  return server;
}

// The SDK warns on stderr (console.warn) about the invalid tools each time it lists them; that is expected.
const handler = createMcpHandler(({ requestInfo }) => createHeaderServer(requestInfo), { legacy: 'reject' });
await listenHttp(toNodeListener(handler.fetch), { ...httpArgs(), path: '/mcp' });
