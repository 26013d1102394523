// Serves the renderer's build output read-only over HTTP: GET/HEAD, the files staticFiles.ts finds
// (inside the folder only), fixed content types, and the caller's security headers.
import { createReadStream } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { contentTypeOf, resolveStaticFile } from './staticFiles.ts';

export async function serveStatic(
  req: IncomingMessage,
  res: ServerResponse,
  staticDir: string,
  headers: Record<string, string>,
): Promise<void> {
  const send = (status: number, text: string, extra: Record<string, string> = {}) => {
    res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', ...extra });
    res.end(req.method === 'HEAD' ? undefined : text);
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'Method Not Allowed', { Allow: 'GET, HEAD' });

  const file = await resolveStaticFile(staticDir, req.url ?? '/');
  if (!file) return send(404, 'Not Found');
  res.writeHead(200, {
    ...headers,
    'Content-Type': contentTypeOf(file.path),
    'Content-Length': String(file.size),
    // The page is rebuilt between runs; hashed assets could be cached, but this is loopback traffic.
    'Cache-Control': 'no-store',
  });
  if (req.method === 'HEAD') return void res.end();
  const stream = createReadStream(file.path);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}
