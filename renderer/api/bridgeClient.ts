// The AtriumClientApi over the browser bridge's WebSocket: requests are correlated by id, events are
// fanned out to typed listeners, and a lost connection rejects what was pending and reconnects with
// backoff. The token travels as a subprotocol (`atrium.<token>`), never in the URL.
import { eventNames } from '../../shared/contract.ts';
import type { ApiErrorShape, AtriumClientApi, EventName, RequestName } from '../../shared/contract.ts';
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

/** Whether the host still serves pages at the bridge's origin (it answers a plain HTTP request). */
async function hostAnswers(bridgeUrl: string): Promise<boolean> {
  try {
    const response = await fetch(new URL('/', bridgeUrl.replace(/^ws/, 'http')), { method: 'HEAD', cache: 'no-store' });
    return response.ok;
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
      // Refused before it opened: when the host still serves this page, it turned the token away (a link
      // from an earlier start, or mistyped), and retrying with the same token can never work.
      void hostAnswers(options.url).then((answers) => (answers ? setStatus('bad-token') : retry()));
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
