import type { ConfigProblem, ServerId, ServerSnapshot } from '../../shared/domain.ts';
import type { SliceCreator } from './AtriumState.ts';

/** A mirror of the host's server snapshots: replaced by `listServers`, patched by events. */
export interface ServersSlice {
  servers: ServerSnapshot[];
  serversLoaded: boolean;
  configProblems: ConfigProblem[];
  setServers(servers: ServerSnapshot[]): void;
  upsertServer(snapshot: ServerSnapshot): void;
  removeServer(serverId: ServerId): void;
  setConfigProblems(problems: ConfigProblem[]): void;
}

export const createServersSlice: SliceCreator<ServersSlice> = (set) => ({
  servers: [],
  serversLoaded: false,
  configProblems: [],
  setServers: (servers) => set({ servers, serversLoaded: true }),
  upsertServer: (snapshot) =>
    set((state) => {
      const index = state.servers.findIndex((server) => server.id === snapshot.id);
      if (index === -1) return { servers: [...state.servers, snapshot] };
      const servers = state.servers.slice();
      servers[index] = snapshot;
      return { servers };
    }),
  removeServer: (serverId) =>
    set((state) => {
      const { [serverId]: _removed, ...logs } = state.logs;
      const { [serverId]: _catalog, ...catalogs } = state.catalogs;
      return {
        servers: state.servers.filter((server) => server.id !== serverId),
        logs,
        catalogs,
        staleLists: state.staleLists.filter((stale) => stale.serverId !== serverId),
        selectedServerId: state.selectedServerId === serverId ? null : state.selectedServerId,
      };
    }),
  setConfigProblems: (configProblems) => set({ configProblems }),
});
