// The baseline of bench/cliCall.ts: a plain script with the official SDK client that starts
// server-everything, initializes, calls `echo` once, prints the result and closes — what `atrium call`
// does, without Atrium.
//   node bench/rawEverythingCall.ts
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const serverDir = dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/package.json'));
const client = new Client({ name: 'raw', version: '1.0.0' });
await client.connect(new StdioClientTransport({ command: process.execPath, args: [join(serverDir, 'dist', 'index.js'), 'stdio'], stderr: 'ignore' }));
const result = await client.callTool({ name: 'echo', arguments: { message: 'hi' } });
console.log((result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join(''));
await client.close();
