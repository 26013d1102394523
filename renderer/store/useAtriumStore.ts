import { create } from 'zustand';
import type { AtriumState } from './AtriumState.ts';
import { createConnectionSlice } from './connectionSlice.ts';
import { createLogsSlice } from './logsSlice.ts';
import { createSelectionSlice } from './selectionSlice.ts';
import { createServersSlice } from './serversSlice.ts';

/** The renderer's one store: a mirror of the host's state plus what this window selected. */
export const createAtriumStore = () =>
  create<AtriumState>()((...args) => ({
    ...createServersSlice(...args),
    ...createLogsSlice(...args),
    ...createSelectionSlice(...args),
    ...createConnectionSlice(...args),
  }));

export type AtriumStore = ReturnType<typeof createAtriumStore>;

export const useAtriumStore = createAtriumStore();
