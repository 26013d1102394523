// Serves the renderer's build output read-only: GET/HEAD, files inside the folder only (no traversal,
// no symlinks out of it), `index.html` for `/`, fixed content types, and the caller's security headers.
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';

const contentTypes: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

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

  const file = await resolveFile(staticDir, req.url ?? '/');
  if (!file) return send(404, 'Not Found');
  const type = contentTypes[extname(file.path).toLowerCase()] ?? 'application/octet-stream';
  res.writeHead(200, {
    ...headers,
    'Content-Type': type,
    'Content-Length': String(file.size),
    // The page is rebuilt between runs; hashed assets could be cached, but this is loopback traffic.
    'Cache-Control': 'no-store',
  });
  if (req.method === 'HEAD') return void res.end();
  const stream = createReadStream(file.path);
  stream.on('error', () => res.destroy());
  stream.pipe(res);
}

async function resolveFile(staticDir: string, url: string): Promise<{ path: string; size: number } | undefined> {
  let pathname: string;
  try {
    pathname = decodeURIComponent(url.split(/[?#]/)[0] ?? '/');
  } catch {
    return undefined;
  }
  if (pathname.includes('\0') || pathname.includes('\\')) return undefined;
  if (pathname.endsWith('/')) pathname += 'index.html';
  try {
    const root = await realpath(resolve(staticDir));
    const candidate = await realpath(join(root, pathname));
    const inside = relative(root, candidate);
    if (inside === '' || inside.split(sep)[0] === '..' || isAbsolute(inside)) return undefined;
    const info = await stat(candidate);
    return info.isFile() ? { path: candidate, size: info.size } : undefined;
  } catch {
    return undefined;
  }
}
