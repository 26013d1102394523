// The sandbox's slice of the window's one store: every local server's sandbox, a mirror of the host's
// (read on every (re)connect, then kept by `sandboxChanged`).

import type { SandboxSummary } from '../contract/sandboxContract.ts';
import type { SliceCreator } from '../../../../../renderer/store/AtriumState.ts';

export interface SandboxSlice {
  /** By server id. */
  sandboxes: Record<string, SandboxSummary>;
  setSandboxes(list: SandboxSummary[]): void;
  setSandbox(summary: SandboxSummary): void;
}

export const createSandboxSlice: SliceCreator<SandboxSlice> = (set) => ({
  sandboxes: {},
  setSandboxes: (list) => set({ sandboxes: Object.fromEntries(list.map((summary) => [summary.serverId, summary])) }),
  setSandbox: (summary) => set((state) => ({ sandboxes: { ...state.sandboxes, [summary.serverId]: summary } })),
});
