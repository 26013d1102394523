// Serves a web-standard fetch handler (the shape the v2 SDK's HTTP pieces take) on node:http, and
// announces the URL as the first stdout line, which is how tests find a fixture bound to `--port 0`.
// Written here because the SDK's Node adapter (@modelcontextprotocol/node) is not a dependency.
import { createServer } from 'node:http';
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseArgs } from 'node:util';

export type FetchHandler = (request: Request) => Promise<Response>;

/** Reads `--port` (default 0, a free port) and `--host` (default 127.0.0.1) from argv, ignoring other flags. */
export function httpArgs(argv: string[] = process.argv.slice(2)): { port: number; host: string } {
  const { values } = parseArgs({
    args: argv,
    strict: false,
    options: { port: { type: 'string', default: '0' }, host: { type: 'string', default: '127.0.0.1' } },
  });
  return { port: Number(values.port), host: String(values.host) };
}

/** Starts listening and prints `listening <base><path>` on stdout once the port is known. */
export async function listenHttp(
  listener: RequestListener,
  options: { port: number; host: string; path: string },
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://${options.host}:${port}${options.path}`;
  process.stdout.write(`listening ${url}\n`);
  // SSE streams keep sockets open forever; a test's stop() must not wait for them.
  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  process.once('SIGTERM', () => void close().then(() => process.exit(0)));
  return { url, close };
}

/** Adapts a fetch handler to node:http, streaming the response body so SSE works. */
export function toNodeListener(handler: FetchHandler): RequestListener {
  return (req, res) => {
    void serveOne(handler, req, res).catch((error: unknown) => {
      process.stderr.write(`http handler failed: ${String(error)}\n`);
      if (!res.headersSent) res.writeHead(500);
      res.end();
    });
  };
}

async function serveOne(handler: FetchHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  // Aborting on disconnect lets the SDK treat a dropped HTTP exchange as closed.
  const aborter = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) aborter.abort();
  });
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    signal: aborter.signal,
    ...(hasBody ? { body: Buffer.concat(chunks) } : {}),
  });
  const response = await handler(request);
  const outHeaders: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    outHeaders[name] = value;
  });
  res.writeHead(response.status, outHeaders);
  res.flushHeaders();
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  res.once('close', () => void reader.cancel().catch(() => undefined));
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    res.write(value);
  }
  res.end();
}
