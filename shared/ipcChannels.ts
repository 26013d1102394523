// The only place IPC channel strings are spelled: the preload and main/electron/ipcAdapter.ts both
// derive their channels from the contract's names through these helpers.
import type { ApiErrorShape, RequestName } from './contract.ts';

export function requestChannel(name: RequestName): `atrium:${RequestName}` {
  return `atrium:${name}`;
}

export const eventChannel = 'atrium:event';

/** What main answers to every invoke: errors travel as values, so no stack crosses the bridge. */
export type IpcReply<T = unknown> = { ok: true; result: T } | { ok: false; error: ApiErrorShape };
