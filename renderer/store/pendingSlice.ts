import type { PendingKind, PendingRequestView } from '../../shared/pendingPayloads.ts';
import type { SliceCreator } from './AtriumState.ts';

/** Why a dialog closed without the person's answer, shown once. */
export interface WithdrawnNotice {
  id: string;
  kind: PendingKind;
  serverId: string;
  reason: string;
}

/** The requests waiting for the person, oldest first, mirrored from the host. */
export interface PendingSlice {
  pending: PendingRequestView[];
  withdrawn: WithdrawnNotice[];
  setPending(pending: PendingRequestView[]): void;
  addPending(record: PendingRequestView): void;
  closePending(id: string, how: 'settled' | 'withdrawn', reason?: string): void;
  dismissWithdrawn(id: string): void;
}

export const createPendingSlice: SliceCreator<PendingSlice> = (set) => ({
  pending: [],
  withdrawn: [],
  setPending: (pending) => set({ pending }),
  addPending: (record) => set((state) => (state.pending.some((p) => p.id === record.id) ? {} : { pending: [...state.pending, record] })),
  closePending: (id, how, reason) =>
    set((state) => {
      const record = state.pending.find((p) => p.id === id);
      if (!record) return {};
      const pending = state.pending.filter((p) => p.id !== id);
      if (how === 'settled') return { pending };
      return { pending, withdrawn: [...state.withdrawn, { id, kind: record.kind, serverId: record.serverId, reason: reason ?? 'it was withdrawn' }] };
    }),
  dismissWithdrawn: (id) => set((state) => ({ withdrawn: state.withdrawn.filter((w) => w.id !== id) })),
});
