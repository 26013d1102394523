// A weather server whose structured results do or do not keep to the output schemas it declares, to prove
// the host checks them: `forecast` keeps to its schema, `wrong_forecast` declares the same schema and
// breaks it (temperature as text), `plain_forecast` returns structured content and declares no schema.
// Built on the low-level Server because McpServer checks a tool's output itself and would never send a
// result that breaks its schema.
//   node e2e/servers/structuredWeatherServer.ts [--legacy]    stdio, both protocol eras (--legacy: 2025 era only)
import { ProtocolError, ProtocolErrorCode, Server } from '@modelcontextprotocol/server';
import type { CallToolResult, Tool } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const CITY_INPUT = { type: 'object' as const, properties: { city: { type: 'string' } }, required: ['city'] };

const FORECAST_SCHEMA = {
  type: 'object' as const,
  properties: {
    temperature: { type: 'number', description: 'Degrees Celsius' },
    conditions: { type: 'string' },
  },
  required: ['temperature', 'conditions'],
};

const TOOLS: Tool[] = [
  { name: 'forecast', description: "Today's forecast for a city, as its output schema says.", inputSchema: CITY_INPUT, outputSchema: FORECAST_SCHEMA },
  { name: 'wrong_forecast', description: 'Declares the same output schema as forecast, then answers with temperature as text.', inputSchema: CITY_INPUT, outputSchema: FORECAST_SCHEMA },
  { name: 'plain_forecast', description: 'Returns structured content and declares no output schema.', inputSchema: CITY_INPUT },
];

function forecast(structuredContent: Record<string, unknown>): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
}

function createWeatherServer(): Server {
  const server = new Server({ name: 'structured-weather-server', version: '1.0.0' }, { capabilities: { tools: {} } });
  server.setRequestHandler('tools/list', () => ({ tools: TOOLS }));
  server.setRequestHandler('tools/call', (request) => {
    const city = String(request.params.arguments?.['city'] ?? '');
    switch (request.params.name) {
      case 'forecast':
        return forecast({ temperature: 21, conditions: `Sunny in ${city}` });
      case 'wrong_forecast':
        return forecast({ temperature: 'warm', conditions: `Sunny in ${city}` });
      case 'plain_forecast':
        return forecast({ temperature: 19, conditions: `Cloudy in ${city}`, wind: 'light' });
      default:
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
  });
  return server;
}

if (process.argv.includes('--legacy')) await createWeatherServer().connect(new StdioServerTransport());
else serveStdio(() => createWeatherServer());
