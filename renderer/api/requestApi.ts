import { requestNames } from '../../shared/contract.ts';
import type { AtriumApi, RequestName } from '../../shared/contract.ts';

/** Builds every contract request from one sender, so no method name is written out by hand. */
export function requestApi(send: (method: RequestName, params: unknown) => Promise<unknown>): AtriumApi {
  const entries = requestNames.map((name) => [name, (params: unknown) => send(name, params)] as const);
  // fromEntries cannot carry per-key types; `requestNames` is exactly the keys of AtriumApi.
  return Object.fromEntries(entries) as unknown as AtriumApi;
}
