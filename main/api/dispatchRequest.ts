// The one way a request from a window reaches the API, shared by the Electron IPC adapter and the
// browser bridge: the method name and params are checked against the contract (the renderer is
// untrusted), the API method runs, and whatever it throws becomes an error a person can read. Each
// front end only adds what is its own: who may ask (the IPC adapter's frame check) and how the answer
// travels (an IPC reply, a WebSocket frame).

import type { AtriumApi } from '../../shared/contract.ts';
import type { IpcReply } from '../../shared/ipcChannels.ts';
import { toApiError, validateRequest } from './validateRequest.ts';

/** What a request comes to (errors travel as values, so no stack crosses to the window). */
export async function dispatchRequest(api: AtriumApi, method: unknown, params: unknown): Promise<IpcReply> {
  const checked = validateRequest(method, params);
  if (!checked.ok) return { ok: false, error: checked.error };
  try {
    // The params were checked against this method's own schema: the union of methods is only lost to TypeScript here.
    const call = api[checked.method] as (params: unknown) => Promise<unknown>;
    return { ok: true, result: (await call.call(api, checked.params)) ?? null };
  } catch (error) {
    return { ok: false, error: toApiError(error) };
  }
}
