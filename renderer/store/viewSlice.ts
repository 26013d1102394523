import type { SliceCreator } from './AtriumState.ts';

export type ViewName = 'chat' | 'resources' | 'roots' | 'servers';

export interface ViewSlice {
  view: ViewName;
  showView(view: ViewName): void;
}

export const createViewSlice: SliceCreator<ViewSlice> = (set) => ({
  view: 'chat',
  showView: (view) => set({ view }),
});
