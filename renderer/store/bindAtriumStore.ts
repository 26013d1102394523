// Keeps the store a faithful mirror of the host: a full reload on every (re)connect, then events.
// Log lines are applied once per animation frame so a chatty server cannot re-render per line.
import type { LogLine } from '../../shared/domain.ts';
import { errorMessage } from '../api/AtriumRequestError.ts';
import type { AtriumConnection } from '../api/AtriumConnection.ts';
import { maxLogLines } from './logsSlice.ts';
import type { AtriumStore } from './useAtriumStore.ts';

export function bindAtriumStore(connection: AtriumConnection, store: AtriumStore): () => void {
  const { api } = connection;
  const state = () => store.getState();

  let queued: LogLine[] = [];
  let frame: number | undefined;
  const flushLogs = () => {
    frame = undefined;
    const lines = queued;
    queued = [];
    state().appendLogs(lines);
  };

  const loadLog = async (serverId: string) => {
    try {
      state().setLogHistory(serverId, await api.getServerLog({ serverId, limit: maxLogLines }));
    } catch {
      // The live lines still show; the history is fetched again on the next selection or reconnect.
    }
  };

  const reload = async () => {
    try {
      const [servers, problems] = await Promise.all([api.listServers({}), api.listConfigProblems({})]);
      state().setServers(servers);
      state().setConfigProblems(problems);
      state().setLoadError(null);
    } catch (error) {
      state().setLoadError(errorMessage(error));
    }
    const selected = state().selectedServerId;
    if (selected) await loadLog(selected);
  };

  const offs = [
    api.on('serverChanged', (snapshot) => state().upsertServer(snapshot)),
    api.on('serverRemoved', ({ serverId }) => state().removeServer(serverId)),
    api.on('configProblems', (problems) => state().setConfigProblems(problems)),
    api.on('log', (line) => {
      queued.push(line);
      frame ??= requestAnimationFrame(flushLogs);
    }),
    connection.onStatus((link) => {
      state().setLink(link);
      if (link === 'open') void reload();
    }),
    store.subscribe((next, previous) => {
      if (next.selectedServerId && next.selectedServerId !== previous.selectedServerId) void loadLog(next.selectedServerId);
    }),
  ];

  state().setLink(connection.status());
  if (connection.status() === 'open') void reload();

  return () => {
    offs.forEach((off) => off());
    if (frame !== undefined) cancelAnimationFrame(frame);
  };
}
