// The renderer is served from `atrium://app/`, never `file://`: a file:// page could read any file its
// links name and shares one origin with every other local file. This scheme serves only the files of
// dist/renderer, read-only, with the same security headers the browser bridge sends. main.ts registers
// the scheme as privileged before `ready` and hands `protocol.handle` the function below.
import { readFile } from 'node:fs/promises';
import type { CustomScheme } from 'electron';
import { securityHeaders } from '../api/securityHeaders.ts';
import { contentTypeOf, resolveStaticFile } from '../api/staticFiles.ts';
import { viewHost, viewScheme } from './viewSandboxProtocol.ts';

export const appScheme = 'atrium';
export const appHost = 'app';
/** Where the window loads the renderer from. */
export const appEntryUrl = `${appScheme}://${appHost}/index.html`;

/**
 * standard: real origins, relative URLs and localStorage; secure: a secure context like https (module
 * scripts, crypto.subtle); supportFetchAPI and codeCache for the page's own module scripts. It never
 * bypasses the CSP, and it gets no service workers.
 */
export const appSchemePrivileges: CustomScheme = {
  scheme: appScheme,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true, bypassCSP: false, allowServiceWorkers: false },
};

/** Whether a URL is a page of Atrium's own renderer (its scheme and host, whatever the path). */
export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${appScheme}:` && parsed.host === appHost && parsed.username === '' && parsed.password === '';
  } catch {
    return false;
  }
}

/** Electron's page talks to main over IPC, so it may connect nowhere; it frames only the view sandbox. */
const headers = securityHeaders({ connect: [], frames: [`${viewScheme}://${viewHost}`] });

/** Answers one atrium:// request from the files of `rendererDir`. */
export async function serveAppRequest(request: Request, rendererDir: string): Promise<Response> {
  const refuse = (status: number, text: string, extra: Record<string, string> = {}) =>
    new Response(request.method === 'HEAD' ? null : text, { status, headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8', ...extra } });
  if (!isAppUrl(request.url)) return refuse(404, 'Not Found');
  if (request.method !== 'GET' && request.method !== 'HEAD') return refuse(405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
  // The URL parser has already removed `.` and `..` segments; resolveStaticFile refuses what remains
  // outside the folder (encoded separators, symlinks out of it).
  const file = await resolveStaticFile(rendererDir, new URL(request.url).pathname);
  if (!file) return refuse(404, 'Not Found');
  const body = request.method === 'HEAD' ? null : await readFile(file.path);
  return new Response(body, {
    status: 200,
    headers: { ...headers, 'Content-Type': contentTypeOf(file.path), 'Content-Length': String(file.size), 'Cache-Control': 'no-store' },
  });
}
