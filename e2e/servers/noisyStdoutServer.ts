// A stdio server that breaks the "stdout carries only MCP messages" rule: it prints a banner, a
// partial JSON object and a JSON array before and between its real messages. A robust client
// skips those lines and keeps working; tool `echo` proves it does.
//   node e2e/servers/noisyStdoutServer.ts
import { Writable } from 'node:stream';
import * as z from 'zod';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio, StdioServerTransport } from '@modelcontextprotocol/server/stdio';

const NOISE = ['Starting up...', '{"jsonrpc": "2.0", "id": ', '[1, 2, 3]', 'DEBUG: still here'];
let next = 0;

process.stdout.write('Starting up...\n');
process.stdout.write('{"partial": \n');

// Sits between the SDK transport and the real stdout; the transport writes one whole line per
// message, so noise always lands between messages, never inside one.
const noisyStdout = new Writable({
  write(chunk: Buffer, _encoding, callback) {
    process.stdout.write(`${NOISE[next++ % NOISE.length]}\n`);
    process.stdout.write(chunk, (error) => callback(error ?? null));
  },
});

serveStdio(
  () => {
    const server = new McpServer({ name: 'noisy-stdout-server', version: '1.0.0' });
    server.registerTool(
      'echo',
      { description: 'Returns its text argument.', inputSchema: z.object({ text: z.string() }) },
      ({ text }) => ({ content: [{ type: 'text', text }] }),
    );
    return server;
  },
  { transport: new StdioServerTransport(process.stdin, noisyStdout) },
);
