// A server with MCP Apps views (the extension io.modelcontextprotocol/ui): `show_chart` links its results
// to the view `ui://charts/view.html` (a `text/html;profile=mcp-app` resource), and `refresh_chart` is
// declared for that view only (`visibility: ["app"]`), so a host never offers it to the model.
// Built on the low-level Server so the tools' `_meta` goes out exactly as written.
//   node e2e/servers/appViewServer.ts [--legacy]    stdio, both protocol eras (--legacy: 2025 era only)
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { Tool } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';

export const VIEW_URI = 'ui://charts/view.html';
const VIEW_HTML = '<!doctype html><html><body><h1>Chart</h1><script>/* the view talks to its host over postMessage */</script></body></html>';

const TOOLS: Tool[] = [
  { name: 'show_chart', description: 'Shows a chart of the numbers given, in a view.', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: VIEW_URI } } },
  { name: 'refresh_chart', description: 'Refreshes the chart (called by its view).', inputSchema: { type: 'object' }, _meta: { ui: { resourceUri: VIEW_URI, visibility: ['app'] } } },
  { name: 'plain_sum', description: 'Adds numbers; no view.', inputSchema: { type: 'object' } },
];

function createAppViewServer(): Server {
  const server = new Server({ name: 'app-view-server', version: '1.0.0' }, { capabilities: { tools: {}, resources: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: TOOLS }));
  server.setRequestHandler('tools/call', (request) => {
    switch (request.params.name) {
      case 'show_chart':
        return { content: [{ type: 'text', text: 'A chart of 3 numbers.' }], structuredContent: { points: [1, 2, 3] } };
      case 'refresh_chart':
        return { content: [{ type: 'text', text: 'refreshed' }] };
      case 'plain_sum':
        return { content: [{ type: 'text', text: '6' }] };
      default:
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
  });
  server.setRequestHandler('resources/list', () => ({ resources: [{ uri: VIEW_URI, name: 'Chart view', mimeType: 'text/html;profile=mcp-app' }] }));
  server.setRequestHandler('resources/read', (request) => {
    if (request.params.uri !== VIEW_URI) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown resource: ${request.params.uri}`);
    return { contents: [{ uri: VIEW_URI, mimeType: 'text/html;profile=mcp-app', text: VIEW_HTML }] };
  });
  return server;
}

if (process.argv.includes('--legacy')) await createAppViewServer().connect(new StdioServerTransport());
else serveStdio(() => createAppViewServer());
