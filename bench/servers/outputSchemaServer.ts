// A stdio MCP server whose tools all declare an outputSchema, for the heap bench: `tool_0` … `tool_<n-1>`
// (`--tools N`, default 50) each with a distinct schema and a result that satisfies it, plus
// `announce_change`, which sends notifications/tools/list_changed so the client re-lists. Built on the
// SDK's low-level Server, because the schemas are plain JSON Schema, served in both protocol eras.
//   node bench/servers/outputSchemaServer.ts [--tools 50]
import { parseArgs } from 'node:util';
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const { values } = parseArgs({ options: { tools: { type: 'string', default: '50' } } });
const TOOL_COUNT = Number(values.tools);

// Distinct per tool (property names and bounds differ) and of a realistic size, so compiling one costs
// what a real tool's schema costs.
function outputSchema(index: number): NonNullable<Tool['outputSchema']> {
  return {
    type: 'object',
    properties: {
      [`value_${index}`]: { type: 'number', minimum: -index, maximum: 1_000 + index },
      label: { type: 'string', maxLength: 20 + index },
      tags: { type: 'array', items: { type: 'string', pattern: `^t${index}-[a-z]+$` }, maxItems: 5 },
      detail: {
        type: 'object',
        properties: { ok: { type: 'boolean' }, count: { type: 'integer', minimum: 0 } },
        required: ['ok'],
        additionalProperties: false,
      },
    },
    required: [`value_${index}`, 'label', 'detail'],
    additionalProperties: false,
  };
}

function tools(): Tool[] {
  return [
    ...Array.from({ length: TOOL_COUNT }, (_, index): Tool => ({
      name: `tool_${index}`,
      description: `Returns structured content matching its own output schema (#${index}).`,
      inputSchema: { type: 'object', additionalProperties: false },
      outputSchema: outputSchema(index),
    })),
    {
      name: 'announce_change',
      description: 'Sends notifications/tools/list_changed; the list itself stays the same.',
      inputSchema: { type: 'object', additionalProperties: false },
    },
  ];
}

function createServer(): Server {
  const server = new Server({ name: 'atrium-bench-output-schema', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
  server.setRequestHandler('tools/list', () => ({ tools: tools() }));
  server.setRequestHandler('tools/call', async (request): Promise<CallToolResult> => {
    const { name } = request.params;
    if (name === 'announce_change') {
      await server.sendToolListChanged();
      return { content: [{ type: 'text', text: 'announced' }] };
    }
    const index = Number(/^tool_(\d+)$/.exec(name)?.[1] ?? Number.NaN);
    if (!(index >= 0 && index < TOOL_COUNT)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${name}`);
    const structuredContent = { [`value_${index}`]: index, label: `tool ${index}`, tags: [`t${index}-bench`], detail: { ok: true, count: index } };
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  });
  return server;
}

serveStdio(() => createServer());
