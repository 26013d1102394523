// The browser mode's view sandbox: a second listener on 127.0.0.1, so MCP Apps views run on an origin
// that is not Atrium's page (another port is another origin). It serves the relay page and its script
// and nothing else: no token, no API, no file of the app. Each relay page carries the
// Content-Security-Policy of the one view it will hold, built from what the view declared, and may be
// framed only by the Atrium page that asked for it.
import { createServer } from 'node:http';
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readViewSandboxQuery, viewContentPolicy } from '../../shared/viewSandbox.ts';
import { relayPage, relayScript, relayScriptPath } from '../../shared/viewSandboxRelay.ts';

export const viewSandboxPagePath = '/view';

export interface ViewSandboxServer {
  /** The relay page's address, without its query: `http://127.0.0.1:PORT/view`. */
  pageUrl: string;
  close(): Promise<void>;
}

export async function startViewSandboxServer(): Promise<ViewSandboxServer> {
  let port = 0;
  const server = createServer((req, res) => {
    if (req.headers.host !== `127.0.0.1:${port}`) return plain(res, 403, 'Forbidden host');
    if (req.method !== 'GET' && req.method !== 'HEAD') return plain(res, 405, 'Method Not Allowed');
    const url = new URL(req.url ?? '/', `http://127.0.0.1:${port}`);
    if (url.pathname === relayScriptPath) {
      return send(res, req.method, 'text/javascript; charset=utf-8', relayScript, { 'Content-Security-Policy': "default-src 'none'" });
    }
    if (url.pathname !== viewSandboxPagePath) return plain(res, 404, 'Not Found');
    const asked = readViewSandboxQuery(url.searchParams);
    if (!asked) return plain(res, 400, 'Bad Request');
    return send(res, req.method, 'text/html; charset=utf-8', relayPage, { 'Content-Security-Policy': viewContentPolicy(asked.csp, asked.hostOrigin) });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1', exclusive: true }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  return {
    pageUrl: `http://127.0.0.1:${port}${viewSandboxPagePath}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function send(res: ServerResponse, method: string | undefined, contentType: string, body: string, headers: Record<string, string>): void {
  res.writeHead(200, {
    ...headers,
    'Content-Type': contentType,
    'Content-Length': String(Buffer.byteLength(body)),
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    // Only Atrium's page frames the relay (frame-ancestors says which); it embeds no one else's.
    'Cross-Origin-Resource-Policy': 'cross-origin',
  });
  res.end(method === 'HEAD' ? undefined : body);
}

function plain(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), 'Content-Security-Policy': "default-src 'none'" });
  res.end(text);
}
