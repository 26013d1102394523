// A weather server whose structured results do or do not keep to the output schemas it declares, to prove
// the host checks them: `forecast` keeps to its schema, `wrong_forecast` declares the same schema and
// breaks it (temperature as text), `plain_forecast` returns structured content and declares no schema,
// `spoken_forecast` answers with audio (a short WAV tone) to prove the window plays it.
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
  { name: 'spoken_forecast', description: "Today's forecast for a city, read aloud (audio).", inputSchema: CITY_INPUT },
];

/** A quarter second of a 440 Hz tone as 8 kHz, 8-bit mono PCM in a WAV file, base64. */
function toneWav(): string {
  const rate = 8000;
  const samples = Buffer.alloc(rate / 4, 0);
  for (let i = 0; i < samples.length; i++) samples[i] = 128 + Math.round(100 * Math.sin((2 * Math.PI * 440 * i) / rate));
  const header = Buffer.alloc(44);
  header.write('RIFF', 0);
  header.writeUInt32LE(36 + samples.length, 4);
  header.write('WAVEfmt ', 8);
  header.writeUInt32LE(16, 16); // fmt chunk size
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(1, 22); // mono
  header.writeUInt32LE(rate, 24);
  header.writeUInt32LE(rate, 28); // bytes per second
  header.writeUInt16LE(1, 32); // block align
  header.writeUInt16LE(8, 34); // bits per sample
  header.write('data', 36);
  header.writeUInt32LE(samples.length, 40);
  return Buffer.concat([header, samples]).toString('base64');
}

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
      case 'spoken_forecast':
        return { content: [{ type: 'text', text: `The forecast for ${city}, read aloud:` }, { type: 'audio', mimeType: 'audio/wav', data: toneWav() }] };
      default:
        throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    }
  });
  return server;
}

if (process.argv.includes('--legacy')) await createWeatherServer().connect(new StdioServerTransport());
else serveStdio(() => createWeatherServer());
