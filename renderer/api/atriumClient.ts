// Chooses how the renderer reaches the host: the Electron preload's `window.atrium` when present,
// else the browser bridge's WebSocket on the page's own origin.
import type { AtriumClientApi } from '../../shared/contract.ts';
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

function alwaysOpen(api: AtriumClientApi): AtriumConnection {
  return { api, status: () => 'open', onStatus: () => () => undefined };
}

function neverOpen(): AtriumConnection {
  const refuse = () =>
    Promise.reject(new AtriumRequestError({ code: 'server_unavailable', message: 'This page was opened without its access token.' }));
  const api: AtriumClientApi = { ...requestApi(refuse), on: () => () => undefined };
  return { api, status: () => 'no-token', onStatus: () => () => undefined };
}
