import type { SliceCreator } from './AtriumState.ts';

export type ViewName = 'setup' | 'chat' | 'resources' | 'roots' | 'servers' | 'settings';

export interface ViewSlice {
  view: ViewName;
  showView(view: ViewName): void;
  /** A resource someone asked to see (a tool result's resource link): the resources view opens it. */
  resourceRequest: { serverId: string; uri: string } | null;
  showResource(serverId: string, uri: string): void;
  takeResourceRequest(): { serverId: string; uri: string } | null;
}

export const createViewSlice: SliceCreator<ViewSlice> = (set, get) => ({
  view: 'chat',
  showView: (view) => set({ view }),
  resourceRequest: null,
  showResource: (serverId, uri) => set({ view: 'resources', resourceRequest: { serverId, uri } }),
  takeResourceRequest: () => {
    const request = get().resourceRequest;
    if (request) set({ resourceRequest: null });
    return request;
  },
});
