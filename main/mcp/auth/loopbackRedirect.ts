// The redirect URI of one sign-in (RFC 8252 §7.3): an HTTP listener on 127.0.0.1 that exists only for
// that flow. It accepts exactly one answer, the one carrying the flow's single-use `state`; anything
// else gets a 400 page and the flow keeps waiting. It closes once answered, cancelled or timed out,
// and tells the browser in a small page that the tab can be closed. The `iss` the authorization server
// sent back is handed on with the code: the SDK checks it (RFC 9207) before the code is redeemed.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AuthorizationCallback {
  code: string;
  /** The authorization server's `iss` parameter, when it sent one. */
  iss?: string;
}

export class SignInError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInError';
  }
}

export interface LoopbackRedirect {
  /** The redirect URI to register and send: http://127.0.0.1:<port><path>. */
  readonly redirectUrl: string;
  /** The `state` of the authorization request about to be opened; only an answer carrying it counts. */
  expect(state: string): void;
  /** The code (and iss), once the browser comes back with the right state. */
  readonly result: Promise<AuthorizationCallback>;
  close(): Promise<void>;
}

export interface LoopbackOptions {
  /** A port to listen on (the one a registration names); 0 or absent: any free port. */
  port?: number;
  path?: string;
  timeoutMs: number;
  signal?: AbortSignal;
}

const DEFAULT_PATH = '/callback';

export async function openLoopbackRedirect(options: LoopbackOptions): Promise<LoopbackRedirect> {
  const path = options.path ?? DEFAULT_PATH;
  let expectedState: string | undefined;
  let settle: { resolve(value: AuthorizationCallback): void; reject(error: Error): void } | undefined;
  const result = new Promise<AuthorizationCallback>((resolve, reject) => (settle = { resolve, reject }));
  // Nobody may be left with an unhandled rejection when the flow is abandoned before anyone awaits it.
  result.catch(() => undefined);
  let done = false;

  // node:http is loaded here, at a sign-in, not with the host: importing it loads Node's fetch (undici)
  // too, a good share of a short CLI command's start.
  const { createServer } = await import('node:http');
  const server = createServer((request, response) => {
    const answer = handle(request);
    page(response, answer.status, answer.title, answer.body);
    if (answer.outcome) finish(answer.outcome);
  });

  const handle = (request: IncomingMessage): { status: number; title: string; body: string; outcome?: { code: string; iss?: string } | Error } => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (request.method !== 'GET' || url.pathname !== path) return { status: 404, title: 'Not found', body: 'There is nothing here.' };
    if (!isLoopbackHost(request.headers.host, port)) return { status: 400, title: 'Wrong address', body: 'This page only answers on this computer’s own address.' };
    const state = url.searchParams.get('state');
    if (done || expectedState === undefined || state !== expectedState) {
      return { status: 400, title: 'Not the sign-in Atrium is waiting for', body: 'This answer does not belong to the sign-in Atrium started. Go back to Atrium and try again if you meant to sign in.' };
    }
    const code = url.searchParams.get('code');
    const iss = url.searchParams.get('iss') ?? undefined;
    if (code) return { status: 200, title: 'Signed in', body: 'Atrium received your sign-in. You can close this tab.', outcome: { code, ...(iss !== undefined ? { iss } : {}) } };
    // The error text may come from an attacker in a mix-up (RFC 9207): only a short code is repeated.
    const error = /^[a-z_]{1,40}$/.test(url.searchParams.get('error') ?? '') ? url.searchParams.get('error') : 'no code';
    return {
      status: 200,
      title: 'Sign-in did not complete',
      body: 'The sign-in did not complete. You can close this tab and try again from Atrium.',
      outcome: new SignInError(`the authorization server did not grant access (${error})`),
    };
  };

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  const close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });

  const finish = (outcome: AuthorizationCallback | Error) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    if (outcome instanceof Error) settle?.reject(outcome);
    else settle?.resolve(outcome);
    // After the page has gone out: the listener exists only for this one answer.
    setImmediate(() => void close());
  };

  const minutes = Math.round(options.timeoutMs / 60_000);
  const timer = setTimeout(
    () => finish(new SignInError(`no sign-in came back from the browser within ${minutes >= 1 ? `${minutes} minute${minutes === 1 ? '' : 's'}` : `${options.timeoutMs} ms`}`)),
    options.timeoutMs,
  );
  timer.unref();
  const onAbort = () => finish(new SignInError('the sign-in was cancelled'));
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  return {
    redirectUrl: `http://127.0.0.1:${port}${path}`,
    expect: (state) => void (expectedState = state),
    result,
    close: async () => {
      finish(new SignInError('the sign-in was abandoned'));
      await close();
    },
  };
}

function isLoopbackHost(host: string | undefined, port: number): boolean {
  return host === `127.0.0.1:${port}` || host === `localhost:${port}`;
}

function page(response: ServerResponse, status: number, title: string, body: string): void {
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': "default-src 'none'",
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
  });
  response.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Atrium: ${title}</title></head><body><h1>${title}</h1><p>${body}</p></body></html>`);
}
