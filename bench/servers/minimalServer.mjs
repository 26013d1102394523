// A stdio MCP server written by hand, doing as little as a server can: newline JSON in, newline JSON out,
// no SDK, no validation. Its own cost is far below a client's, so the stdio benches measure the client side
// (an SDK-built server caps throughput at a fraction of what a client can reach). Plain JavaScript, so
// that starting it costs what starting a server people install from npm costs (Node's type stripping
// would add about half again to its start). 2025-era only: anything it does not know (the 2026-07-28
// discovery probe included) gets "method not found".
// Tools: `echo` returns its `text`; `blob` returns a text content of `size` bytes.
//   node bench/servers/minimalServer.mjs
import { createInterface } from 'node:readline';

/** @type {Map<number, string>} */
const blobs = new Map();
/** @param {unknown} message */
const send = (message) => process.stdout.write(`${JSON.stringify(message)}\n`);
const tools = [
  { name: 'echo', description: 'Returns its text.', inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } },
  { name: 'blob', description: 'Returns `size` bytes of text.', inputSchema: { type: 'object', properties: { size: { type: 'integer', minimum: 0 } }, required: ['size'] } },
];

/**
 * @param {string} method
 * @param {Record<string, unknown>} params
 * @returns {unknown}
 */
function answer(method, params) {
  switch (method) {
    case 'initialize':
      return { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'atrium-bench-minimal', version: '1.0.0' } };
    case 'tools/list':
      return { tools };
    case 'ping':
      return {};
    case 'tools/call': {
      const args = /** @type {Record<string, unknown>} */ (params['arguments'] ?? {});
      if (params['name'] === 'echo') return { content: [{ type: 'text', text: String(args['text'] ?? '') }] };
      const size = Number(args['size'] ?? 0);
      let text = blobs.get(size);
      if (text === undefined) {
        text = 'x'.repeat(size);
        blobs.set(size, text);
      }
      return { content: [{ type: 'text', text }] };
    }
    default:
      return undefined;
  }
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line === '') continue;
  const message = /** @type {{ id?: number | string; method?: string; params?: Record<string, unknown> }} */ (JSON.parse(line));
  if (message.id === undefined || message.method === undefined) continue;
  const result = answer(message.method, message.params ?? {});
  if (result === undefined) send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Method not found: ${message.method}` } });
  else send({ jsonrpc: '2.0', id: message.id, result });
}
