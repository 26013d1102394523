import type { StateCreator } from 'zustand';
import type { ConnectionSlice } from './connectionSlice.ts';
import type { LogsSlice } from './logsSlice.ts';
import type { SelectionSlice } from './selectionSlice.ts';
import type { ServersSlice } from './serversSlice.ts';

export type AtriumState = ServersSlice & LogsSlice & SelectionSlice & ConnectionSlice;

/** A slice sees (and may update) the whole state, so cross-slice cleanups stay in one `set`. */
export type SliceCreator<Slice> = StateCreator<AtriumState, [], [], Slice>;
