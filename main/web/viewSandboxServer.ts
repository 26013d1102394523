// The browser mode's view sandbox: a second listener on 127.0.0.1, so MCP Apps views run on an origin
// that is not Atrium's page (another port is another origin). What it answers is main/api/viewSandboxPages.ts.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerViewSandbox, viewSandboxPagePath } from '../mcp/extensions/apps/api/viewSandboxPages.ts';

export interface ViewSandboxServer {
  /** The relay page's address, without its query: `http://127.0.0.1:PORT/view`. */
  pageUrl: string;
  close(): Promise<void>;
}

export async function startViewSandboxServer(): Promise<ViewSandboxServer> {
  let port = 0;
  const server = createServer((req, res) => {
    // A name that rebinds to loopback is not this origin.
    const answer =
      req.headers.host === `127.0.0.1:${port}`
        ? answerViewSandbox(new URL(req.url ?? '/', `http://127.0.0.1:${port}`), req.method ?? 'GET')
        : { status: 403, headers: { 'Content-Type': 'text/plain; charset=utf-8' }, body: 'Forbidden host' };
    res.writeHead(answer.status, { ...answer.headers, 'Content-Length': String(Buffer.byteLength(answer.body)) });
    res.end(req.method === 'HEAD' ? undefined : answer.body);
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
