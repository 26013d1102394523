import type { ListKind } from '../../shared/contract.ts';
import type { Grant, PromptSummary, ResourceSummary, ResourceTemplateSummary, ServerId, ToolSummary } from '../../shared/domain.ts';
import type { SliceCreator } from './AtriumState.ts';

export const listKinds: readonly ListKind[] = ['tools', 'resources', 'resourceTemplates', 'prompts'];

/** What one server lists, as the host last answered; a list not fetched yet is absent. */
export interface ServerCatalog {
  tools?: ToolSummary[];
  resources?: ResourceSummary[];
  resourceTemplates?: ResourceTemplateSummary[];
  prompts?: PromptSummary[];
}

export type CatalogList<K extends ListKind> = NonNullable<ServerCatalog[K]>;

/** One list of one server to fetch again. */
export interface StaleList {
  serverId: ServerId;
  list: ListKind;
}

/**
 * A mirror of every server's catalog (tools, resources, templates, prompts). Views read it through
 * selectors; they never fetch lists themselves. A list is marked stale when the host says it changed
 * (`listChanged`, a server that (re)connected, a count that moved) or after the window changed it (a
 * tool turned off); the store's binder fetches what is stale and puts the answer back here.
 */
export interface CatalogSlice {
  catalogs: Record<ServerId, ServerCatalog>;
  /** Why a list could not be fetched, by `serverId/list`. */
  catalogErrors: Record<string, string>;
  staleLists: StaleList[];
  /** How many times the server said a resource changed (`resourceUpdated`), by `serverId` and URI: a view showing it reads it again. */
  resourceVersions: Record<string, number>;
  noteResourceUpdated(serverId: ServerId, uri: string): void;
  /** The answers that decide later tool calls, as the host's grant ledger announces them (`grantsChanged`). */
  grants: Grant[];
  setGrants(grants: Grant[]): void;
  setList<K extends ListKind>(serverId: ServerId, list: K, items: CatalogList<K>): void;
  setListError(serverId: ServerId, list: ListKind, message: string): void;
  /** Marks lists to fetch again: one, or (without `list`) all four of the server. */
  markStale(serverId: ServerId, list?: ListKind): void;
  /** The lists waiting to be fetched, handed to the one who fetches them. */
  takeStaleLists(): StaleList[];
}

export const catalogErrorKey = (serverId: ServerId, list: ListKind) => `${serverId}/${list}`;
export const resourceKey = (serverId: ServerId, uri: string) => `${serverId}\n${uri}`;

export const createCatalogSlice: SliceCreator<CatalogSlice> = (set, get) => ({
  catalogs: {},
  catalogErrors: {},
  staleLists: [],
  resourceVersions: {},
  grants: [],
  setGrants: (grants) => set({ grants }),
  noteResourceUpdated: (serverId, uri) =>
    set((state) => {
      const key = resourceKey(serverId, uri);
      return { resourceVersions: { ...state.resourceVersions, [key]: (state.resourceVersions[key] ?? 0) + 1 } };
    }),
  setList: (serverId, list, items) =>
    set((state) => {
      // A server removed while its list was on the way is not brought back.
      if (!state.servers.some((server) => server.id === serverId)) return {};
      const { [catalogErrorKey(serverId, list)]: _cleared, ...catalogErrors } = state.catalogErrors;
      return { catalogs: { ...state.catalogs, [serverId]: { ...state.catalogs[serverId], [list]: items } }, catalogErrors };
    }),
  setListError: (serverId, list, message) => set((state) => ({ catalogErrors: { ...state.catalogErrors, [catalogErrorKey(serverId, list)]: message } })),
  markStale: (serverId, list) =>
    set((state) => {
      const wanted = (list ? [list] : listKinds).filter((kind) => !state.staleLists.some((stale) => stale.serverId === serverId && stale.list === kind));
      return wanted.length === 0 ? {} : { staleLists: [...state.staleLists, ...wanted.map((kind) => ({ serverId, list: kind }))] };
    }),
  takeStaleLists: () => {
    const taken = get().staleLists;
    if (taken.length > 0) set({ staleLists: [] });
    return taken;
  },
});

/** Every server's list of one kind, in the order the servers are listed; undefined until each has answered. */
export function allOf<K extends ListKind>(servers: readonly { id: ServerId }[], catalogs: Record<ServerId, ServerCatalog>, list: K): CatalogList<K>[number][] | undefined {
  const all: CatalogList<K>[number][] = [];
  for (const server of servers) {
    const items: ServerCatalog[K] = catalogs[server.id]?.[list];
    if (items === undefined) return undefined;
    all.push(...(items as CatalogList<K>));
  }
  return all;
}
