// What the view sandbox answers, whichever front end serves it: the browser mode's second loopback
// listener (main/web/viewSandboxServer.ts) and the desktop app's atrium-view: scheme
// (main/electron/viewSandboxProtocol.ts). It serves the relay page and its script and nothing else: no
// token, no API, no file of the app. Each relay page carries the Content-Security-Policy and the
// Connection-Allowlist of the one view it will hold, built from what the view declared, and may be framed
// only by the Atrium page that asked.
import { readViewSandboxQuery, viewConnectionAllowlist, viewContentPolicy } from '../contract/viewSandbox.ts';
import { relayPage, relayScript, relayScriptPath } from '../contract/viewSandboxRelay.ts';

export const viewSandboxPagePath = '/view';

export interface SandboxAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const common = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  // Atrium's page (another origin) frames the relay; frame-ancestors says which page may.
  'Cross-Origin-Resource-Policy': 'cross-origin',
  // Its own agent cluster, so the browser runs the relay in a process of its own, even where the sandbox
  // and Atrium's page are one site (127.0.0.1 on two ports): reading a view's huge message never stalls the page.
  'Origin-Agent-Cluster': '?1',
};

/** The answer to one GET (or HEAD) of the sandbox at `url`; the body is left out for HEAD by the caller. */
export function answerViewSandbox(url: URL, method: string): SandboxAnswer {
  const plain = (status: number, text: string): SandboxAnswer => ({ status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Security-Policy': "default-src 'none'", ...common }, body: text });
  if (method !== 'GET' && method !== 'HEAD') return plain(405, 'Method Not Allowed');
  if (url.pathname === relayScriptPath) {
    return { status: 200, headers: { 'Content-Type': 'text/javascript; charset=utf-8', ...common }, body: relayScript };
  }
  if (url.pathname !== viewSandboxPagePath) return plain(404, 'Not Found');
  const asked = readViewSandboxQuery(url.searchParams);
  if (!asked) return plain(400, 'Bad Request');
  const headers = {
    'Content-Type': 'text/html; charset=utf-8',
    'Content-Security-Policy': viewContentPolicy(asked.csp, asked.hostOrigin),
    'Connection-Allowlist': viewConnectionAllowlist(asked.csp),
    ...common,
  };
  return { status: 200, headers, body: relayPage };
}
