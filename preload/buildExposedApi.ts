import { eventNames, requestNames } from '../shared/contract.ts';
import type { ApiErrorShape, AtriumApi, AtriumClientApi, EventName, RequestName } from '../shared/contract.ts';
import { readFieldProblems } from '../shared/fieldProblems.ts';
import { requestChannel } from '../shared/ipcChannels.ts';

/** Sends one request to main and resolves with its raw reply (ipcRenderer.invoke in the preload). */
export type Invoke = (channel: string, params: unknown) => Promise<unknown>;
/** Delivers every host event as (name, payload); returns an unsubscribe function. */
export type Subscribe = (listener: (event: string, payload: unknown) => void) => () => void;

const unreadableReply: ApiErrorShape = { code: 'failed', message: 'Atrium received an unreadable reply from its host.' };

/**
 * Builds the object the preload exposes as `window.atrium`: one function per request name in the
 * contract plus `on`, and nothing else. Failures reject with a plain `ApiErrorShape` rather than an
 * Error, because the context bridge keeps only an Error's message and would drop its `code`.
 */
export function buildExposedApi(invoke: Invoke, subscribe: Subscribe): AtriumClientApi {
  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  // One bridge subscription, made on first use, fans out to every listener the page registers.
  let subscribed = false;

  function dispatch(event: string, payload: unknown): void {
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(payload);
      } catch (error) {
        console.error(`Atrium: a listener for "${event}" failed`, error);
      }
    }
  }

  function on(event: EventName, listener: (payload: never) => void): () => void {
    if (!(eventNames as string[]).includes(event)) throw new TypeError(`Atrium has no event named "${String(event)}".`);
    if (typeof listener !== 'function') throw new TypeError('Atrium event listeners must be functions.');
    if (!subscribed) {
      subscribe(dispatch);
      subscribed = true;
    }
    let set = listeners.get(event);
    if (!set) listeners.set(event, (set = new Set()));
    const stored = listener as (payload: unknown) => void;
    set.add(stored);
    return () => {
      set.delete(stored);
    };
  }

  const requests = Object.fromEntries(
    requestNames.map((name: RequestName) => [name, (params?: unknown) => request(invoke, name, params)]),
  ) as AtriumApi;
  return { ...requests, on: on as AtriumClientApi['on'] };
}

async function request(invoke: Invoke, name: RequestName, params: unknown): Promise<unknown> {
  // Requests without parameters may be called as `listServers()`; the contract's schemas want `{}`.
  const reply = await invoke(requestChannel(name), params ?? {});
  if (typeof reply === 'object' && reply !== null && 'ok' in reply) {
    if (reply.ok === true && 'result' in reply) return reply.result;
    if (reply.ok === false && 'error' in reply && isApiError(reply.error)) {
      const fields = readFieldProblems(reply.error.fields);
      const { dataFile } = reply.error;
      throw {
        code: reply.error.code,
        message: reply.error.message,
        ...(fields ? { fields } : {}),
        ...(typeof dataFile === 'string' ? { dataFile } : {}),
      } satisfies ApiErrorShape;
    }
  }
  throw unreadableReply;
}

function isApiError(value: unknown): value is ApiErrorShape {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as ApiErrorShape).code === 'string' &&
    typeof (value as ApiErrorShape).message === 'string'
  );
}
