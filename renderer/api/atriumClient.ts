// Chooses how the renderer reaches the host: the Electron preload's `window.atrium` when present,
// else the browser bridge's WebSocket on the page's own origin.
import type { ApiErrorShape, AtriumClientApi, RequestName } from '../../shared/contract.ts';
import { AtriumRequestError } from './AtriumRequestError.ts';
import type { AtriumConnection } from './AtriumConnection.ts';
import { connectBridge } from './bridgeClient.ts';
import { requestApi } from './requestApi.ts';

declare global {
  interface Window {
    atrium?: AtriumClientApi;
  }
}

const tokenKey = 'atrium.token';

export function connectAtrium(): AtriumConnection {
  if (window.atrium) return alwaysOpen(window.atrium);
  const token = takeToken();
  if (!token) return neverOpen();
  return connectBridge({ url: `ws://${location.host}/ws`, token });
}

/**
 * Reads `#token=…` once, keeps it for reloads of this tab only, and removes it from the address bar so
 * it does not end up in screenshots, bookmarks or screen shares.
 */
function takeToken(): string | null {
  const fromHash = new URLSearchParams(location.hash.slice(1)).get('token');
  if (fromHash) {
    sessionStorage.setItem(tokenKey, fromHash);
    history.replaceState(null, '', `${location.pathname}${location.search}`);
    return fromHash;
  }
  return sessionStorage.getItem(tokenKey);
}

/**
 * The Electron preload rejects with a plain `{code, message}` (the context bridge would strip an Error's
 * code), so its rejections are turned into the same AtriumRequestError the bridge client throws.
 */
function alwaysOpen(exposed: AtriumClientApi): AtriumConnection {
  const send = (method: RequestName, params: unknown) =>
    (exposed[method] as (p: unknown) => Promise<unknown>)(params).catch((error: unknown) => {
      throw isErrorShape(error) ? new AtriumRequestError(error) : error;
    });
  const api: AtriumClientApi = { ...requestApi(send), on: (event, listener) => exposed.on(event, listener) };
  return { api, status: () => 'open', onStatus: () => () => undefined };
}

function isErrorShape(value: unknown): value is ApiErrorShape {
  return typeof value === 'object' && value !== null && typeof (value as ApiErrorShape).message === 'string' && typeof (value as ApiErrorShape).code === 'string';
}

function neverOpen(): AtriumConnection {
  const refuse = () =>
    Promise.reject(new AtriumRequestError({ code: 'server_unavailable', message: 'This page was opened without its access token.' }));
  const api: AtriumClientApi = { ...requestApi(refuse), on: () => () => undefined };
  return { api, status: () => 'no-token', onStatus: () => () => undefined };
}
