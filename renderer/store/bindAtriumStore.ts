// Keeps the store a faithful mirror of the host: a full reload on every (re)connect, then events.
// Log lines are applied once per animation frame so a chatty server cannot re-render per line. A turn's
// events patch the live turn; the saved conversation is reloaded when a step is saved (a new model step,
// a tool result, the end), so what is shown after a turn is exactly what the history holds.
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

  const loadConversations = async () => {
    try {
      state().setConversations(await api.listConversations({}));
    } catch {
      // Shown again on the next turn or reconnect.
    }
  };

  const loadDetail = async () => {
    const id = state().selectedConversationId;
    if (!id) return;
    try {
      const detail = await api.getConversation({ conversationId: id });
      // A slow answer for a conversation no longer selected must not replace the one that is.
      if (state().selectedConversationId === id) state().setDetail(detail);
    } catch {
      if (state().selectedConversationId === id) state().setDetail(null);
    }
  };

  let firstLoad = true;
  const reload = async () => {
    try {
      const [servers, problems, pending, damaged] = await Promise.all([api.listServers({}), api.listConfigProblems({}), api.listPending({}), api.listDataFileProblems({})]);
      state().setServers(servers);
      state().setConfigProblems(problems);
      state().setDataFileProblems(damaged);
      state().setPending(pending);
      state().setLoadError(null);
      await loadConversations();
      // Events sent while the link was down are lost: the host's list says which turns still run.
      state().endTurnsNotRunning();
      await loadDetail();
      // A first run (no servers, no conversations) opens on Get started, unless the person already went elsewhere.
      if (firstLoad && servers.length === 0 && state().conversations.length === 0) state().offerFirstView('setup');
      firstLoad = false;
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
    api.on('dataFileProblems', (problems) => state().setDataFileProblems(problems)),
    api.on('log', (line) => {
      queued.push(line);
      frame ??= requestAnimationFrame(flushLogs);
    }),
    api.on('chatEvent', ({ conversationId, event }) => {
      if (state().awaitingNewConversation && !state().conversations.some((c) => c.id === conversationId)) {
        state().adoptNewConversation(conversationId);
        void loadConversations();
      }
      const shown = state().selectedConversationId === conversationId;
      if (event.type === 'done') {
        void loadConversations();
        // The live reply stays until the saved one is loaded, so a stopped reply never blinks away.
        const finishing = state().live[conversationId];
        const finish = () => {
          if (state().live[conversationId] === finishing) state().applyTurnEvent(conversationId, event);
        };
        if (shown) void loadDetail().finally(finish);
        else finish();
        return;
      }
      state().applyTurnEvent(conversationId, event);
      const saved = event.type === 'assistant_started' || event.type === 'tool_result';
      if (saved && shown) void loadDetail();
    }),
    api.on('pendingOpened', (record) => state().addPending(record)),
    api.on('pendingClosed', ({ id, how, reason }) => state().closePending(id, how, reason)),
    connection.onStatus((link) => {
      state().setLink(link);
      if (link === 'open') void reload();
    }),
    store.subscribe((next, previous) => {
      if (next.selectedServerId && next.selectedServerId !== previous.selectedServerId) void loadLog(next.selectedServerId);
      if (next.selectedConversationId !== previous.selectedConversationId) void loadDetail();
    }),
  ];

  state().setLink(connection.status());
  if (connection.status() === 'open') void reload();

  return () => {
    offs.forEach((off) => off());
    if (frame !== undefined) cancelAnimationFrame(frame);
  };
}
