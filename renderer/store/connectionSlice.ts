import type { LinkStatus } from '../api/AtriumConnection.ts';
import type { SliceCreator } from './AtriumState.ts';

export interface ConnectionSlice {
  link: LinkStatus;
  /** Why the last full reload from the host failed, if it did. */
  loadError: string | null;
  setLink(link: LinkStatus): void;
  setLoadError(message: string | null): void;
}

export const createConnectionSlice: SliceCreator<ConnectionSlice> = (set) => ({
  link: 'connecting',
  loadError: null,
  setLink: (link) => set({ link }),
  setLoadError: (loadError) => set({ loadError }),
});
