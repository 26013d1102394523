import type { ServerId } from '../../shared/domain.ts';
import type { SliceCreator } from './AtriumState.ts';

export interface SelectionSlice {
  selectedServerId: ServerId | null;
  selectServer(serverId: ServerId | null): void;
}

export const createSelectionSlice: SliceCreator<SelectionSlice> = (set) => ({
  selectedServerId: null,
  selectServer: (selectedServerId) => set({ selectedServerId }),
});
