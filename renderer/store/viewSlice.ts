import type { SliceCreator } from './AtriumState.ts';

export type ViewName = 'setup' | 'chat' | 'resources' | 'roots' | 'servers' | 'settings';

export interface ViewSlice {
  view: ViewName;
  /** Whether the person has picked a view yet (a click, a link, a shortcut); a first-run view never overrides it. */
  viewChosen: boolean;
  showView(view: ViewName): void;
  /** Opens the view a first run starts on, unless the person already went somewhere while the window loaded. */
  offerFirstView(view: ViewName): void;
  /** A resource someone asked to see (a tool result's resource link): the resources view opens it. */
  resourceRequest: { serverId: string; uri: string } | null;
  showResource(serverId: string, uri: string): void;
  takeResourceRequest(): { serverId: string; uri: string } | null;
}

export const createViewSlice: SliceCreator<ViewSlice> = (set, get) => ({
  view: 'chat',
  viewChosen: false,
  showView: (view) => set({ view, viewChosen: true }),
  offerFirstView: (view) => {
    if (!get().viewChosen) set({ view });
  },
  resourceRequest: null,
  showResource: (serverId, uri) => set({ view: 'resources', viewChosen: true, resourceRequest: { serverId, uri } }),
  takeResourceRequest: () => {
    const request = get().resourceRequest;
    if (request) set({ resourceRequest: null });
    return request;
  },
});
