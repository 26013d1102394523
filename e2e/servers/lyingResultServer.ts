// A stdio server written by hand, without the SDK, so it can send tool answers no SDK server would: an
// SDK server checks its own results before sending them. 2025 era only (anything else, the 2026-07-28
// discovery probe included, gets "method not found").
// Tools: `echo {text}` answers properly; `garbled` answers with content as a string, not a list;
// `untyped` with a content block that has no type; `refused {city}` with a JSON-RPC error.
//   node e2e/servers/lyingResultServer.ts
import { createInterface } from 'node:readline';

const send = (message: unknown) => process.stdout.write(`${JSON.stringify(message)}\n`);
const inputSchema = { type: 'object', properties: { text: { type: 'string' }, city: { type: 'string' } } };
const tools = ['echo', 'garbled', 'untyped', 'refused'].map((name) => ({ name, description: `The ${name} tool.`, inputSchema }));

type Answer = { result: unknown } | { error: { code: number; message: string } };

function answer(method: string, params: Record<string, unknown>): Answer {
  const args = (params['arguments'] ?? {}) as Record<string, unknown>;
  if (method === 'initialize') return { result: { protocolVersion: '2025-06-18', capabilities: { tools: {} }, serverInfo: { name: 'lying-result-server', version: '1.0.0' } } };
  if (method === 'tools/list') return { result: { tools } };
  if (method === 'ping') return { result: {} };
  if (method !== 'tools/call') return { error: { code: -32601, message: `Method not found: ${method}` } };
  switch (params['name']) {
    case 'echo':
      return { result: { content: [{ type: 'text', text: String(args['text'] ?? '') }] } };
    case 'garbled':
      return { result: { content: 'sunny' } };
    case 'untyped':
      return { result: { content: [{ text: 'a block with no type' }] } };
    case 'refused':
      return { error: { code: -32602, message: `no forecast for ${String(args['city'] ?? '')}` } };
    default:
      return { error: { code: -32602, message: `unknown tool ${String(params['name'])}` } };
  }
}

for await (const line of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
  if (line === '') continue;
  const message = JSON.parse(line) as { id?: number | string; method?: string; params?: Record<string, unknown> };
  if (message.id === undefined || message.method === undefined) continue;
  send({ jsonrpc: '2.0', id: message.id, ...answer(message.method, message.params ?? {}) });
}
