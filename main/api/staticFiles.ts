// Finds a file of the renderer's build output for a URL path, for both front ends that serve it (the
// browser bridge over HTTP, Electron's atrium:// protocol): files inside the folder only, no traversal
// and no symlink out of it, `index.html` for a folder, and a fixed content type by extension.
import { realpath, stat } from 'node:fs/promises';
import { extname, isAbsolute, join, relative, resolve, sep } from 'node:path';

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

export function contentTypeOf(file: string): string {
  return contentTypes[extname(file).toLowerCase()] ?? 'application/octet-stream';
}

export interface StaticFile {
  path: string;
  size: number;
}

/**
 * The real path of the file `urlPath` (percent-encoded, as in a URL; a query or fragment is ignored)
 * names inside `staticDir`, or undefined when it does not exist or would lie outside it.
 */
export async function resolveStaticFile(staticDir: string, urlPath: string): Promise<StaticFile | undefined> {
  let pathname: string;
  try {
    pathname = decodeURIComponent(urlPath.split(/[?#]/)[0] ?? '/');
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
