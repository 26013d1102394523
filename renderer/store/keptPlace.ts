// Where the person is in the window — the view, the open conversation, the server and its tab — kept for
// this browser tab (sessionStorage), so that a reload lands where they were instead of on a blank new
// conversation. Only names of views and ids are kept: nothing a server wrote, nothing secret.

import type { AtriumStore } from './useAtriumStore.ts';
import type { ViewName } from './viewSlice.ts';
import type { ServerTab } from './selectionSlice.ts';

const KEY = 'atrium.place';
const VIEWS: readonly ViewName[] = ['setup', 'chat', 'resources', 'roots', 'servers', 'settings'];
const SERVER_TABS: readonly ServerTab[] = ['log', 'trace', 'tools', 'skills', 'permissions', 'about', 'sign-in'];

export interface Place {
  view: ViewName;
  conversationId: string | null;
  serverId: string | null;
  serverTab: ServerTab;
}

type PlaceStorage = Pick<Storage, 'getItem' | 'setItem'>;

/** The place kept for this tab, or undefined where none is (or what is kept is not one). */
export function keptPlace(storage: PlaceStorage | undefined = sessionStorageOrNone()): Place | undefined {
  let value: unknown;
  try {
    value = JSON.parse(storage?.getItem(KEY) ?? 'null');
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const { view, conversationId, serverId, serverTab } = value as Record<string, unknown>;
  if (!VIEWS.includes(view as ViewName) || !SERVER_TABS.includes(serverTab as ServerTab)) return undefined;
  const idOrNull = (id: unknown) => (typeof id === 'string' && id.length > 0 && id.length <= 256 ? id : null);
  return { view: view as ViewName, conversationId: idOrNull(conversationId), serverId: idOrNull(serverId), serverTab: serverTab as ServerTab };
}

/**
 * Puts the store where the kept place says (as if the person had gone there: a first run's view does not
 * override it), then keeps the place as the person moves. Returns the way to stop keeping it.
 */
export function keepPlace(store: AtriumStore, storage: PlaceStorage | undefined = sessionStorageOrNone()): () => void {
  const kept = keptPlace(storage);
  if (kept) {
    store.setState({
      view: kept.view,
      viewChosen: true,
      selectedConversationId: kept.conversationId,
      detail: null,
      selectedServerId: kept.serverId,
      selectedServerTab: kept.serverTab,
    });
  }
  let last: Place | undefined;
  // Called on every change of the store (a streaming reply's every piece): compared field by field first.
  return store.subscribe((state) => {
    const place: Place = { view: state.view, conversationId: state.selectedConversationId, serverId: state.selectedServerId, serverTab: state.selectedServerTab };
    if (last && last.view === place.view && last.conversationId === place.conversationId && last.serverId === place.serverId && last.serverTab === place.serverTab) return;
    last = place;
    try {
      storage?.setItem(KEY, JSON.stringify(place));
    } catch {
      // A full or refused storage only costs the place after a reload.
    }
  });
}

function sessionStorageOrNone(): PlaceStorage | undefined {
  try {
    return globalThis.sessionStorage ?? undefined;
  } catch {
    return undefined;
  }
}
