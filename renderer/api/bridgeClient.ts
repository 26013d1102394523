// The AtriumClientApi over the browser bridge's WebSocket: requests are correlated by id, events are
// fanned out to typed listeners, and a lost connection rejects what was pending and reconnects with
// backoff. The token travels as a subprotocol (`atrium.<token>`), never in the URL.
import { eventNames } from '../../shared/contract.ts';
import type { ApiErrorShape, AtriumClientApi, EventName, RequestName } from '../../shared/contract.ts';
import { linkCheckHeader, linkCheckPath } from '../../shared/linkCheck.ts';
import { AtriumRequestError } from './AtriumRequestError.ts';
import type { AtriumConnection, LinkStatus } from './AtriumConnection.ts';
import { requestApi } from './requestApi.ts';

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

type Incoming = { id?: unknown; result?: unknown; error?: ApiErrorShape; event?: unknown; payload?: unknown };

const firstRetryMs = 250;
const maxRetryMs = 5_000;
const knownEvents: ReadonlySet<string> = new Set(eventNames);

/**
 * After a connection was refused before it opened: whether the host says this page's token is not this
 * run's (a link from an earlier start, or mistyped). Anything else — the host down or restarting, a blip —
 * is worth another try. Only the token's SHA-256 is sent, never the token.
 */
async function tokenRefused(bridgeUrl: string, token: string): Promise<boolean> {
  try {
    const hash = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(token)));
    const digest = btoa(String.fromCharCode(...hash)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const response = await fetch(new URL(linkCheckPath, bridgeUrl.replace(/^ws/, 'http')), { method: 'POST', cache: 'no-store', headers: { [linkCheckHeader]: digest } });
    return response.status === 403;
  } catch {
    return false;
  }
}

export function connectBridge(options: { url: string; token: string }): AtriumConnection {
  const pending = new Map<number, Pending>();
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  const statusListeners = new Set<(status: LinkStatus) => void>();
  let status: LinkStatus = 'connecting';
  let socket: WebSocket | undefined;
  let nextId = 1;
  let failedAttempts = 0;

  const setStatus = (next: LinkStatus) => {
    status = next;
    for (const listener of [...statusListeners]) listener(next);
  };

  const open = () => {
    const ws = new WebSocket(options.url, ['atrium', `atrium.${options.token}`]);
    socket = ws;
    ws.onopen = () => {
      failedAttempts = 0;
      setStatus('open');
    };
    ws.onmessage = (message) => {
      if (typeof message.data === 'string') receive(message.data);
    };
    let opened = false;
    ws.addEventListener('open', () => (opened = true));
    ws.onclose = () => {
      socket = undefined;
      const lost = new AtriumRequestError({ code: 'server_unavailable', message: 'The connection to Atrium was lost.' });
      for (const request of pending.values()) request.reject(lost);
      pending.clear();
      failedAttempts += 1;
      setStatus('reconnecting');
      const retry = () => {
        const delay = Math.min(maxRetryMs, firstRetryMs * 2 ** (failedAttempts - 1));
        setTimeout(open, delay * (0.75 + Math.random() / 2));
      };
      if (opened) return retry();
      // Refused before it opened: when the host says the token is not its own, retrying can never work.
      void tokenRefused(options.url, options.token).then((refused) => (refused ? setStatus('bad-token') : retry()));
    };
  };

  const receive = (text: string) => {
    let frame: Incoming;
    try {
      frame = JSON.parse(text) as Incoming;
    } catch {
      return;
    }
    if (typeof frame.event === 'string') {
      if (!knownEvents.has(frame.event)) return;
      for (const listener of [...(listeners.get(frame.event as EventName) ?? [])]) {
        try {
          listener(frame.payload as never);
        } catch (error) {
          console.error(`Atrium: a "${frame.event}" listener failed`, error);
        }
      }
      return;
    }
    if (typeof frame.id !== 'number') return;
    const request = pending.get(frame.id);
    if (!request) return;
    pending.delete(frame.id);
    if (frame.error) request.reject(new AtriumRequestError(frame.error));
    else request.resolve(frame.result);
  };

  const request = (method: RequestName, params: unknown): Promise<unknown> => {
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      return Promise.reject(new AtriumRequestError({ code: 'server_unavailable', message: 'Not connected to Atrium.' }));
    }
    const id = nextId++;
    const sent = socket;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      sent.send(JSON.stringify({ id, method, params }));
    });
  };

  const api: AtriumClientApi = {
    ...requestApi(request),
    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      const stored = listener as (payload: never) => void;
      set.add(stored);
      return () => void set.delete(stored);
    },
  };

  open();
  return {
    api,
    status: () => status,
    onStatus(listener) {
      statusListeners.add(listener);
      return () => void statusListeners.delete(listener);
    },
  };
}
