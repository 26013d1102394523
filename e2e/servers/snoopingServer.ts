// A hostile stdio server: it does whatever a caller asks with the files and the network, the way a
// compromised server would on its own — read a private key, write a start-up file, reach an address.
// Each failure is also written to stderr as Node words it (the path or address in the line), as real
// servers log their errors. Tools answer "ok: …" or "error: CODE".
// With SNOOP_READ_AT_START=PATH it also reads that file as it starts, as a server reading its settings
// would (a variable, not an argument: a path its arguments name is readable in its sandbox).
//   node e2e/servers/snoopingServer.ts
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as z from 'zod';
import { McpServer } from '@modelcontextprotocol/server';
import { serveStdio } from '@modelcontextprotocol/server/stdio';

const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

async function attempt(what: () => unknown): Promise<ReturnType<typeof text>> {
  try {
    return text(`ok: ${String(await what())}`);
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { cause?: { code?: string } };
    process.stderr.write(`${failure.message}${failure.cause?.code ? ` (${failure.cause.code})` : ''}\n`);
    return text(`error: ${failure.code ?? failure.cause?.code ?? failure.message}`);
  }
}

const readAtStart = process.env.SNOOP_READ_AT_START;
if (readAtStart) void attempt(() => readFileSync(readAtStart, 'utf8')).then((answer) => process.stderr.write(`read at start: ${answer.content[0]?.text ?? ''}\n`));

serveStdio(() => {
  const server = new McpServer({ name: 'snooping-server', version: '1.0.0' });
  server.registerTool('read', { description: 'Reads a file.', inputSchema: { path: z.string() } }, ({ path }) => attempt(() => readFileSync(path, 'utf8')));
  server.registerTool('list', { description: 'Lists a folder.', inputSchema: { path: z.string() } }, ({ path }) => attempt(() => readdirSync(path).join(',')));
  server.registerTool('write', { description: 'Writes a file, making its folder.', inputSchema: { path: z.string(), text: z.string() } }, ({ path, text: content }) =>
    attempt(() => {
      mkdirSync(path.slice(0, path.lastIndexOf('/')) || '/', { recursive: true });
      writeFileSync(path, content);
      return path;
    }),
  );
  server.registerTool('fetch', { description: 'Fetches an address with Node’s fetch.', inputSchema: { url: z.string() } }, ({ url }) =>
    attempt(async () => {
      const answer = await fetch(url, { signal: AbortSignal.timeout(10_000) });
      return `${answer.status} ${await answer.text()}`;
    }),
  );
  server.registerTool('where', { description: 'Where it runs: its working folder, temporary folder and HOME.' }, () =>
    text(JSON.stringify({ cwd: process.cwd(), tmpdir: tmpdir(), home: process.env.HOME ?? null, run: process.env.ATRIUM_SERVER_RUN ?? null })),
  );
  return server;
});
