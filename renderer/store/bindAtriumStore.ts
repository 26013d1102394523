// Keeps the store a faithful mirror of the host: a full reload on every (re)connect, then events.
// Log lines are applied once per animation frame so a chatty server cannot re-render per line. A turn's
// events patch the live turn; the saved conversation is reloaded when a step is saved (a new model step,
// a tool result, the end), so what is shown after a turn is exactly what the history holds.
import type { LogLine } from '../../shared/domain.ts';
import { errorMessage } from '../api/AtriumRequestError.ts';
import type { AtriumConnection } from '../api/AtriumConnection.ts';
import { maxLogLines } from './logsSlice.ts';
import type { StaleList } from './catalogSlice.ts';
import type { AtriumStore } from './useAtriumStore.ts';
import type { ExtensionBinding } from './extensionBinding.ts';
import { bindAppsStore } from '../../main/mcp/extensions/apps/window/bindAppsStore.ts';
import { bindTasksStore } from '../../main/mcp/extensions/tasks/window/bindTasksStore.ts';
import { bindSkillsStore } from '../../main/mcp/extensions/skills/window/bindSkillsStore.ts';
import { bindSandboxStore } from '../../main/mcp/extensions/sandbox/window/bindSandboxStore.ts';
import { DraftKeeper, clearLegacyDrafts, legacyDrafts } from './keptDrafts.ts';
import { bindTraceStore } from './bindTraceStore.ts';

export function bindAtriumStore(connection: AtriumConnection, store: AtriumStore): () => void {
  const { api } = connection;
  const state = () => store.getState();
  // The parts of the mirror with a binder of their own (the extensions', the trace's), one line each.
  const extensions: ExtensionBinding[] = [bindAppsStore(api, store), bindTasksStore(api, store), bindSkillsStore(api, store), bindSandboxStore(api, store), bindTraceStore(api, store)];

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

  // What the person types goes to the host (keptDrafts.ts); what the host lists or announces comes back
  // into the boxes, without being sent again.
  const drafts = new DraftKeeper((conversationKey, draft) => api.saveDraft({ conversationKey, ...draft }));
  let mirroring = false;
  const mirror = (apply: () => void) => {
    mirroring = true;
    try {
      apply();
    } finally {
      mirroring = false;
    }
  };
  // Read once: an older Atrium's drafts, handed to the host at the first load, then cleared from the origin.
  let leftByOlderAtrium: Record<string, string> | undefined = legacyDrafts();
  const loadDrafts = async () => {
    try {
      const fromHost = await api.listDrafts({});
      mirror(() => state().mirrorDrafts(fromHost, (key) => drafts.isWriting(key)));
      const older = leftByOlderAtrium;
      leftByOlderAtrium = undefined;
      for (const [key, text] of Object.entries(older ?? {})) {
        // Only this host's conversations (and the one not started): a draft is kept by the host it was typed for.
        if (fromHost[key] === undefined && (key === 'new' || state().conversations.some((c) => c.id === key))) state().setComposerText(key, text);
      }
      // Words typed while the link was down, or handed over from the origin's storage, go now.
      if (await drafts.flush()) clearLegacyDrafts();
    } catch {
      // Listed again at the next reconnect.
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

  // What the model gets of the tools in the selected conversation; a slow answer for another is dropped.
  const loadToolsInUse = async () => {
    const id = state().selectedConversationId;
    try {
      const tools = await api.toolsInUse(id ? { conversationId: id } : {});
      if (state().selectedConversationId === id) state().setToolsInUse({ conversationId: id, tools });
    } catch {
      // Read again at the next change.
    }
  };

  // Each stale list is fetched once; a list marked stale again while its answer is on the way is fetched again after.
  const fetchList = async ({ serverId, list }: StaleList) => {
    try {
      switch (list) {
        case 'tools':
          state().setList(serverId, list, await api.listTools({ serverId }));
          break;
        case 'resources':
          state().setList(serverId, list, await api.listResources({ serverId }));
          break;
        case 'resourceTemplates':
          state().setList(serverId, list, await api.listResourceTemplates({ serverId }));
          break;
        case 'prompts':
          state().setList(serverId, list, await api.listPrompts({ serverId }));
          break;
      }
    } catch (error) {
      state().setListError(serverId, list, errorMessage(error));
    }
  };
  const fetchStaleLists = () => {
    if (state().link !== 'open') return;
    for (const stale of state().takeStaleLists()) void fetchList(stale);
  };

  // Only the latest listing is shown: an earlier one that answers late (a provider at an address that
  // did not answer, retried before the edit that fixed it) would bring back models that are gone.
  let providerListings = 0;
  const loadProviders = async () => {
    const listing = ++providerListings;
    try {
      const providers = await api.listProviders({});
      if (listing === providerListings) state().setProviders(providers);
    } catch (error) {
      if (listing === providerListings) state().setProviders(null, errorMessage(error));
    }
  };

  const loadHostSettings = async () => {
    try {
      // Each extension's part loads on its own: one that fails (or a host without it) leaves the rest as it is.
      const extensionsLoaded = Promise.all(extensions.map((extension) => extension.reload().catch(() => undefined)));
      const [settings, workspaces, hostInfo, grants] = await Promise.all([api.getSettings({}), api.listWorkspaces({}), api.getHostInfo({}), api.listGrants({})]);
      state().setSettings(settings);
      state().setWorkspaces(workspaces);
      state().setHostInfo(hostInfo);
      state().setGrants(grants);
      await extensionsLoaded;
    } catch {
      // Shown again on the next reconnect or change.
    }
    await loadProviders();
  };

  let firstLoad = true;
  const reload = async () => {
    try {
      const [servers, problems, pending, damaged] = await Promise.all([api.listServers({}), api.listConfigProblems({}), api.listPending({}), api.listDataFileProblems({})]);
      state().setServers(servers);
      for (const server of servers) state().markStale(server.id);
      state().setConfigProblems(problems);
      state().setDataFileProblems(damaged);
      state().setPending(pending);
      state().setLoadError(null);
      await loadConversations();
      // A conversation kept open across a reload that was deleted meanwhile (elsewhere) is not shown.
      const kept = state().selectedConversationId;
      if (firstLoad && kept !== null && !state().conversations.some((conversation) => conversation.id === kept)) state().selectConversation(null);
      // Events sent while the link was down are lost: the host's list says which turns still run, and a
      // turn this window did not see begin (it was reloaded) is followed from its saved reply on.
      state().endTurnsNotRunning();
      state().joinRunningTurns();
      if (firstLoad) state().landOnRunningConversation();
      await loadDrafts();
      await Promise.all([loadDetail(), loadToolsInUse()]);
      await loadHostSettings();
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
    api.on('serverChanged', (snapshot) => {
      const before = state().servers.find((server) => server.id === snapshot.id);
      state().upsertServer(snapshot);
      // A server that (re)connected, or whose lists grew or shrank, is listed again.
      const moved = !before || before.status.kind !== snapshot.status.kind || JSON.stringify(before.counts) !== JSON.stringify(snapshot.counts);
      if (moved) {
        state().markStale(snapshot.id);
        void loadToolsInUse();
      }
    }),
    // A server's tools as Atrium shows them are the tool catalog's to announce (after their pins are checked).
    api.on('listChanged', ({ serverId, list }) => {
      if (list !== 'tools') state().markStale(serverId, list);
    }),
    api.on('toolsChanged', ({ serverId }) => {
      state().markStale(serverId, 'tools');
      void loadToolsInUse();
    }),
    api.on('resourceUpdated', ({ serverId, uri }) => state().noteResourceUpdated(serverId, uri)),
    api.on('settingsChanged', (settings) => {
      state().setSettings(settings);
      void loadToolsInUse();
      // A provider added, removed or given a key may list other models now.
      void loadProviders();
    }),
    api.on('workspacesChanged', (workspaces) => state().setWorkspaces(workspaces)),
    api.on('toolsLoadedChanged', ({ conversationId }) => {
      if (state().selectedConversationId === conversationId) void loadToolsInUse();
    }),
    api.on('serverRemoved', ({ serverId }) => state().removeServer(serverId)),
    api.on('configProblems', (problems) => state().setConfigProblems(problems)),
    api.on('dataFileProblems', (problems) => state().setDataFileProblems(problems)),
    api.on('log', (line) => {
      queued.push(line);
      frame ??= requestAnimationFrame(flushLogs);
    }),
    // The conversation list mirrors the history: the conversation this window's first message starts is
    // shown when it appears, known by the id the window gave it (another window may start one meanwhile).
    api.on('conversationsChanged', (change) => {
      const appeared = 'conversation' in change && !state().conversations.some((c) => c.id === change.conversation.id);
      state().applyConversationChange(change);
      if (appeared && state().awaitingNewConversation === change.conversation.id) state().adoptNewConversation(change.conversation.id);
    }),
    api.on('grantsChanged', (grants) => state().setGrants(grants)),
    api.on('draftChanged', ({ conversationKey, ...draft }) => {
      if (!drafts.isWriting(conversationKey)) mirror(() => state().mirrorDraft(conversationKey, draft));
    }),
    api.on('chatEvent', ({ conversationId, event }) => {
      if (state().awaitingNewConversation === conversationId) state().adoptNewConversation(conversationId);
      const shown = state().selectedConversationId === conversationId;
      // A turn that ends or loads tools changes what the model has of them.
      if (shown && (event.type === 'done' || event.type === 'notice')) void loadToolsInUse();
      if (event.type === 'done') {
        // A model answered: a provider the picker could not reach when it listed them is listed again, so
        // "cannot reach" does not outlive the answer that proves it wrong.
        if (event.stopReason !== 'error' && (state().providersError !== null || state().providers?.some((provider) => provider.error !== undefined))) void loadProviders();
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
      if ((next.composerText !== previous.composerText || next.editing !== previous.editing) && !mirroring) {
        const keys = [...Object.keys(next.composerText), ...Object.keys(previous.composerText), ...Object.keys(next.editing), ...Object.keys(previous.editing)];
        for (const key of new Set(keys)) {
          if (next.composerText[key] === previous.composerText[key] && next.editing[key] === previous.editing[key]) continue;
          // An edit's mark goes with its words, so a reload still sends them in the old message's place.
          const replaces = next.editing[key];
          drafts.typed(key, { text: next.composerText[key] ?? '', ...(replaces ? { replaces } : {}) });
        }
      }
      if (next.staleLists.length > 0 && (next.staleLists !== previous.staleLists || next.link !== previous.link)) fetchStaleLists();
      if (next.selectedServerId && next.selectedServerId !== previous.selectedServerId) void loadLog(next.selectedServerId);
      if (next.selectedConversationId !== previous.selectedConversationId) {
        void loadDetail();
        void loadToolsInUse();
      }
    }),
  ];

  state().setLink(connection.status());
  if (connection.status() === 'open') void reload();

  return () => {
    drafts.dispose();
    offs.forEach((off) => off());
    extensions.forEach((extension) => extension.unbind());
    if (frame !== undefined) cancelAnimationFrame(frame);
  };
}
