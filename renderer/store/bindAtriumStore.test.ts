// The store as the window's one state model, tested with a fresh store per test and a scripted host:
// what the host announces (a list changed, a server went away, the settings changed) reaches the store,
// and views read it from there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AtriumClientApi, AtriumEvents, Draft, EventName, ProviderSettingsView, ProviderView } from '../../shared/contract.ts';
import type { PromptSummary, ServerSnapshot, ToolSummary } from '../../shared/domain.ts';
import type { AtriumConnection, LinkStatus } from '../api/AtriumConnection.ts';
import { bindAtriumStore } from './bindAtriumStore.ts';
import { allOf } from './catalogSlice.ts';
import { createAtriumStore } from './useAtriumStore.ts';
import type { AtriumStore } from './useAtriumStore.ts';

const server = (id: string): ServerSnapshot => ({
  id,
  transport: 'stdio',
  target: id,
  status: { kind: 'ready', since: 0 },
  trusted: false,
  counts: { tools: 1, resources: 0, resourceTemplates: 0, prompts: 1 },
});
const tool = (serverId: string, name: string): ToolSummary => ({ serverId, name, modelName: `${serverId}__${name}`, inputSchema: { type: 'object' }, enabled: true });
const prompt = (serverId: string, name: string): PromptSummary => ({ serverId, name, arguments: [] });
const settings = (providers: string[]): ProviderSettingsView => ({
  providers: providers.map((id) => ({ id, kind: 'anthropic', hasKey: true })),
  approvals: { tools: 'ask', sampling: 'ask' },
  canStoreKeys: true,
});

/** A host with what it holds now, answering the requests the store makes and announcing events. */
function scriptedHost() {
  const holds = {
    servers: [server('files'), server('notes')],
    tools: { files: [tool('files', 'read')], notes: [tool('notes', 'write')] } as Record<string, ToolSummary[]>,
    prompts: { files: [prompt('files', 'summarise')], notes: [] } as Record<string, PromptSummary[]>,
    settings: settings([]),
    providers: [] as ProviderView[],
    drafts: {} as Record<string, Draft>,
  };
  const asked: string[] = [];
  const listeners = new Map<EventName, Set<(payload: never) => void>>();
  const answer = <T>(name: string, value: T) => {
    asked.push(name);
    return Promise.resolve(structuredClone(value));
  };
  const api = {
    listServers: () => answer('listServers', holds.servers),
    listConfigProblems: () => answer('listConfigProblems', []),
    listPending: () => answer('listPending', []),
    listDataFileProblems: () => answer('listDataFileProblems', []),
    listConversations: () => answer('listConversations', []),
    getSettings: () => answer('getSettings', holds.settings),
    listWorkspaces: () => answer('listWorkspaces', []),
    getHostInfo: () => answer('getHostInfo', { frontEnd: 'browser', canPickFolders: false }),
    listViewTrust: () => answer('listViewTrust', []),
    listGrants: () => answer('listGrants', []),
    toolsInUse: () => answer('toolsInUse', { offered: 0, loaded: [] }),
    listProviders: () => answer('listProviders', holds.providers),
    listDrafts: () => answer('listDrafts', holds.drafts),
    saveDraft: ({ conversationKey, ...draft }: Draft & { conversationKey: string }) => {
      if (draft.text === '') delete holds.drafts[conversationKey];
      else holds.drafts[conversationKey] = draft;
      return answer(`saveDraft ${conversationKey}`, null);
    },
    listTools: ({ serverId }: { serverId?: string }) => answer(`listTools ${serverId}`, holds.tools[serverId ?? ''] ?? []),
    listResources: ({ serverId }: { serverId?: string }) => answer(`listResources ${serverId}`, []),
    listResourceTemplates: ({ serverId }: { serverId?: string }) => answer(`listResourceTemplates ${serverId}`, []),
    listPrompts: ({ serverId }: { serverId?: string }) => answer(`listPrompts ${serverId}`, holds.prompts[serverId ?? ''] ?? []),
    on: <K extends EventName>(event: K, listener: (payload: AtriumEvents[K]) => void) => {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener as (payload: never) => void);
      return () => set.delete(listener as (payload: never) => void);
    },
  } as Partial<AtriumClientApi> as AtriumClientApi;
  const emit = <K extends EventName>(event: K, payload: AtriumEvents[K]) => {
    for (const listener of listeners.get(event) ?? []) (listener as (payload: AtriumEvents[K]) => void)(payload);
  };
  let status: LinkStatus = 'open';
  const connection: AtriumConnection = { api, status: () => status, onStatus: () => () => undefined };
  return { holds, asked, emit, connection, setStatus: (next: LinkStatus) => (status = next) };
}

/** Lets every answer the store is waiting for arrive (each is one promise turn, then a set). */
/**
 * Until what the binder asked has been answered and taken in: the scripted host answers without timers,
 * so every chain of promises it starts has run once the event loop comes round (a fixed count of
 * microtask turns ran out as binders were added).
 */
async function settle(): Promise<void> {
  for (let round = 0; round < 3; round++) await new Promise((resolve) => setImmediate(resolve));
}

async function boundStore(): Promise<{ store: AtriumStore; host: ReturnType<typeof scriptedHost>; unbind: () => void }> {
  const store = createAtriumStore();
  const host = scriptedHost();
  const unbind = bindAtriumStore(host.connection, store);
  await settle();
  return { store, host, unbind };
}

test('on connecting, every server’s catalog is listed into the store, and the prompts of all servers read as one list', async () => {
  const { store, unbind } = await boundStore();
  const state = store.getState();
  assert.deepEqual(state.catalogs['files']?.tools?.map((t) => t.name), ['read']);
  assert.deepEqual(state.catalogs['notes']?.tools?.map((t) => t.name), ['write']);
  assert.deepEqual(allOf(state.servers, state.catalogs, 'prompts')?.map((p) => p.name), ['summarise']);
  unbind();
});

test("a server's tools the catalog says changed are listed again (that server's only) and replace the ones shown", async () => {
  const { store, host, unbind } = await boundStore();
  host.holds.tools['files'] = [tool('files', 'read'), tool('files', 'search')];
  host.asked.length = 0;
  // The server's own word that its tools changed is not enough: the catalog announces them once pinned.
  host.emit('listChanged', { serverId: 'files', list: 'tools' });
  await settle();
  assert.deepEqual(host.asked, []);
  host.emit('toolsChanged', { serverId: 'files' });
  await settle();
  // The tools the model gets are read again too: a tool may have come or gone.
  assert.deepEqual(host.asked.sort(), ['listTools files', 'toolsInUse']);
  assert.deepEqual(store.getState().catalogs['files']?.tools?.map((t) => t.name), ['read', 'search']);
  assert.deepEqual(store.getState().catalogs['notes']?.tools?.map((t) => t.name), ['write'], 'the other server keeps its list');
  unbind();
});

test('a server that reconnects is listed again; one whose status and counts did not move is not', async () => {
  const { store, host, unbind } = await boundStore();
  host.asked.length = 0;
  host.emit('serverChanged', server('notes'));
  await settle();
  assert.equal(host.asked.length, 0, 'nothing moved');
  host.holds.prompts['notes'] = [prompt('notes', 'draft')];
  host.emit('serverChanged', { ...server('notes'), status: { kind: 'starting', attempt: 1 } });
  host.emit('serverChanged', { ...server('notes'), counts: { tools: 1, resources: 0, resourceTemplates: 0, prompts: 1 } });
  await settle();
  assert.ok(host.asked.includes('listPrompts notes'));
  assert.deepEqual(store.getState().catalogs['notes']?.prompts?.map((p) => p.name), ['draft']);
  unbind();
});

test('a removed server leaves the store with its catalog, and an answer still on the way does not bring it back', async () => {
  const { store, host, unbind } = await boundStore();
  host.emit('toolsChanged', { serverId: 'notes' });
  host.emit('serverRemoved', { serverId: 'notes' });
  await settle();
  const state = store.getState();
  assert.deepEqual(state.servers.map((s) => s.id), ['files']);
  assert.equal(state.catalogs['notes'], undefined);
  unbind();
});

test('settings changed elsewhere reach the store, and the providers’ models are listed again', async () => {
  const { store, host, unbind } = await boundStore();
  assert.deepEqual(store.getState().settings?.providers, []);
  host.holds.providers = [{ id: 'claude', kind: 'anthropic', models: ['claude-test'], defaultModel: 'claude-test', isDefault: true }];
  host.asked.length = 0;
  host.emit('settingsChanged', settings(['claude']));
  await settle();
  assert.deepEqual(store.getState().settings?.providers.map((p) => p.id), ['claude']);
  // A provider with a smaller context may make the model search for tools: what it gets is read again.
  assert.deepEqual(host.asked.sort(), ['listProviders', 'toolsInUse']);
  assert.equal(store.getState().providers?.[0]?.defaultModel, 'claude-test');
  unbind();
});

test('a listing of the providers that answers late never replaces a later one (an address that did not answer, then edited)', async () => {
  const { store, host, unbind } = await boundStore();
  const api = host.connection.api as { listProviders: AtriumClientApi['listProviders'] };
  let answerLate: (providers: ProviderView[]) => void = () => undefined;
  api.listProviders = () => new Promise((resolve) => (answerLate = resolve));
  host.emit('settingsChanged', settings(['local']));
  api.listProviders = async () => [{ id: 'local', kind: 'openai-compatible', models: ['llama3.2'], defaultModel: 'llama3.2', isDefault: true }];
  host.emit('settingsChanged', settings(['local']));
  await settle();
  answerLate([{ id: 'local', kind: 'openai-compatible', models: [], isDefault: true, error: 'cannot reach http://127.0.0.1:1/v1' }]);
  await settle();
  assert.deepEqual(store.getState().providers?.[0]?.models, ['llama3.2']);
  assert.equal(store.getState().providersError, null);
  unbind();
});

test('lists marked stale while the link is down wait for it, and are listed once it is open again', async () => {
  const { store, host, unbind } = await boundStore();
  host.setStatus('reconnecting');
  store.getState().setLink('reconnecting');
  host.asked.length = 0;
  store.getState().markStale('files', 'tools');
  await settle();
  assert.equal(host.asked.length, 0, 'nothing is asked while the link is down');
  host.setStatus('open');
  store.getState().setLink('open');
  await settle();
  assert.deepEqual(host.asked, ['listTools files']);
  unbind();
});

test('the conversation list mirrors what the history announces, without asking for the list again', async () => {
  const { store, host, unbind } = await boundStore();
  host.asked.length = 0;
  const conversation = (id: string, updatedAt: number) => ({ id, title: id, createdAt: 1, updatedAt });
  host.emit('conversationsChanged', { conversation: conversation('older', 10) });
  host.emit('conversationsChanged', { conversation: conversation('newer', 20) });
  assert.deepEqual(store.getState().conversations.map((c) => c.id), ['newer', 'older'], 'most recently active first');
  host.emit('conversationsChanged', { conversation: { ...conversation('older', 30), title: 'Renamed' } });
  assert.deepEqual(store.getState().conversations.map((c) => [c.id, c.title]), [['older', 'Renamed'], ['newer', 'newer']]);
  store.getState().selectConversation('older');
  host.emit('conversationsChanged', { removed: 'older' });
  assert.deepEqual(store.getState().conversations.map((c) => c.id), ['newer']);
  assert.equal(store.getState().selectedConversationId, null, 'a conversation deleted elsewhere is no longer shown');
  assert.ok(!host.asked.includes('listConversations'));
  unbind();
});

test("the conversation this window's first message starts is shown when it appears, and not another window's that appears first", async () => {
  const { store, host, unbind } = await boundStore();
  store.getState().setAwaitingNewConversation('fresh');
  host.emit('conversationsChanged', { conversation: { id: 'another-windows', title: 'theirs', createdAt: 1, updatedAt: 1, running: true } });
  host.emit('chatEvent', { conversationId: 'another-windows', event: { type: 'text', messageId: 'm1', delta: 'their reply', at: 1 } });
  assert.equal(store.getState().selectedConversationId, null, "another window's conversation is listed, not shown");
  assert.equal(store.getState().awaitingNewConversation, 'fresh');
  host.emit('conversationsChanged', { conversation: { id: 'fresh', title: 'hello', createdAt: 2, updatedAt: 2, running: true } });
  assert.equal(store.getState().selectedConversationId, 'fresh');
  assert.equal(store.getState().awaitingNewConversation, null);
  unbind();
});

test('the permissions shown are the grants the host announces, not read again at every answered request', async () => {
  const { store, host, unbind } = await boundStore();
  host.asked.length = 0;
  const grant = { id: 'g1', scope: 'always' as const, target: { serverId: 'files', tool: 'read' }, effect: 'allow' as const, fingerprints: {}, createdAt: 5 };
  host.emit('grantsChanged', [grant]);
  assert.deepEqual(store.getState().grants.map((g) => g.id), ['g1']);
  host.emit('pendingClosed', { id: 'p1', how: 'settled' });
  await settle();
  assert.deepEqual(host.asked, [], 'nothing is read again');
  unbind();
});

test('drafts: the host’s are in the boxes on connecting; what is typed goes to the host; what it announces comes back, unless typed here since', async () => {
  const store = createAtriumStore();
  const host = scriptedHost();
  host.holds.drafts = { new: { text: 'kept by the host' } };
  const unbind = bindAtriumStore(host.connection, store);
  await settle();
  assert.deepEqual(store.getState().composerText, { new: 'kept by the host' });
  assert.ok(!host.asked.some((name) => name.startsWith('saveDraft')), 'what the host listed is not sent back');

  store.getState().setComposerText('c-1', 'typed here');
  await settle();
  host.emit('draftChanged', { conversationKey: 'c-1', text: 'an older version' });
  assert.equal(store.getState().composerText['c-1'], 'typed here', 'not confirmed yet: the box keeps what was typed');
  delete host.holds.drafts['new'];
  host.emit('draftChanged', { conversationKey: 'new', text: '' });
  assert.equal(store.getState().composerText['new'], undefined, 'gone at the host (sent elsewhere, or its conversation deleted): gone here');
  unbind();
  assert.deepEqual(host.holds.drafts, { 'c-1': { text: 'typed here' } }, 'unbinding (the page going) sends what waits');
  assert.ok(!host.asked.includes('saveDraft new'), 'what the host announced is not sent back');
});

test('an edit of the last message is kept by the host with its mark, so a reload still sends it in the old message’s place', async () => {
  const store = createAtriumStore();
  const host = scriptedHost();
  const unbind = bindAtriumStore(host.connection, store);
  await settle();
  store.getState().startEditing('c-1', 'm-7', 'what I meant');
  store.getState().setComposerText('c-1', 'what I meant');
  unbind();
  assert.deepEqual(host.holds.drafts, { 'c-1': { text: 'what I meant', replaces: 'm-7' } });

  // A new window (a reload) finds the words in the box as an edit, not as a new message.
  const reloaded = createAtriumStore();
  const rebind = bindAtriumStore(host.connection, reloaded);
  await settle();
  assert.equal(reloaded.getState().composerText['c-1'], 'what I meant');
  assert.equal(reloaded.getState().editing['c-1'], 'm-7');
  // The edit given up elsewhere (another window cancelled it, keeping the words): the mark goes here too.
  host.emit('draftChanged', { conversationKey: 'c-1', text: 'what I meant' });
  assert.equal(reloaded.getState().editing['c-1'], undefined);
  assert.equal(reloaded.getState().composerText['c-1'], 'what I meant');
  rebind();
});
