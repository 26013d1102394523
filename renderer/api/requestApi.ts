import { requestNames } from '../../shared/contract.ts';
import type { AtriumApi, RequestName } from '../../shared/contract.ts';

/** Builds every contract request from one sender, so no method name is written out by hand. */
export function requestApi(send: (method: RequestName, params: unknown) => Promise<unknown>): AtriumApi {
  const api: Partial<Record<RequestName, (params: unknown) => Promise<unknown>>> = {};
  for (const name of requestNames) api[name] = (params) => send(name, params);
  // `requestNames` is exactly the keys of AtriumApi (the contract's record of schemas guarantees it);
  // what each answers is the host's, checked by the contract on its side.
  return api as AtriumApi;
}
