// The composition root: builds the host in dependency order — data folder and stores, servers file and
// registry, the brokers that settle servers' requests, the hub of connections, the consent gate and the
// chat service — and puts the typed API over it. Every front end (Electron, the browser mode, the CLI,
// the conformance client) starts exactly this, and nothing below main/app/ builds any of it.

import { join } from 'node:path';
import { repoRoot } from '../bundle/builtOrSource.mjs';
import type { ServerSnapshot } from '../../shared/domain.ts';
import { createAtriumApi } from '../api/atriumApi.ts';
import { settingsView } from '../api/settingsApi.ts';
import { announceOwnersChanges } from './announceChanges.ts';
import type { HostCore, HostCoreOptions } from './hostCoreOptions.ts';
import type { ConversationServices } from '../api/conversationServices.ts';
import { EventBus } from '../api/eventBus.ts';
import { headlessFrontEnd } from '../api/hostInfoApi.ts';
import { ChatService } from '../chat/chatService.ts';
import { ModelContexts } from '../chat/modelContexts.ts';
import { ModelResolver } from '../chat/modelResolver.ts';
import { createProvider } from '../chat/providers/createProvider.ts';
import { ProviderKeys } from '../chat/providerKeys.ts';
import { liveApprovals } from '../host/approval/approvalChoices.ts';
import type { ApprovalMode } from '../host/approval/grantLedger.ts';
import { ATRIUM_VERSION } from './atriumVersion.ts';
import { createConsentGate } from '../host/consentGate.ts';
import { createToolViews } from '../mcp/extensions/apps/host/toolViews.ts';
import { RootsRestarts } from '../mcp/extensions/sandbox/host/restartForNewRoots.ts';
import { ServerSandboxes } from '../mcp/extensions/sandbox/serverSandboxes.ts';
import { viewContextForTurn } from '../mcp/extensions/apps/host/viewContextNote.ts';
import { createTaskTracker } from '../mcp/extensions/tasks/host/tasksHost.ts';
import { fixedElicitation } from '../host/brokers.ts';
import { checkedElicitation } from '../host/elicitation/checkedElicitation.ts';
import { createPersonElicitation } from '../host/elicitation/personElicitation.ts';
import { PendingRequests } from '../host/pendingRequests.ts';
import { createResilientRunner } from '../host/tools/resilientRunner.ts';
import { ToolCatalog } from '../host/tools/toolCatalog.ts';
import { createToolCallPipeline } from '../host/tools/toolCallPipeline.ts';
import { waitForServerBack, waitForStartingServers } from '../host/tools/startingServers.ts';
import { RootsStore } from '../host/rootsStore.ts';
import type { SamplingPolicy } from '../host/sampling/samplingBroker.ts';
import { createSamplingBroker } from '../host/sampling/samplingBroker.ts';
import { conversationContext } from '../host/sampling/samplingContext.ts';
import { ServerActivity } from '../host/serverActivity.ts';
import { Workspaces } from '../host/workspaces.ts';
import { McpHub } from '../mcp/McpHub.ts';
import { ServerRegistry } from '../mcp/ServerRegistry.ts';
import { followServersFile } from '../mcp/serversFileFollower.ts';
import { memoryCredentialStore } from '../mcp/auth/credentialVault.ts';
import { serversFilePath } from '../mcp/config/serversFile.ts';
import { LearnedEras } from '../mcp/launch/learnedEras.ts';
import { LaunchApprovals } from '../mcp/launch/launchApprovals.ts';
import { launchGate } from '../mcp/launch/launchGate.ts';
import { serverReach } from '../mcp/launch/serverReach.ts';
import { InstallRecords } from '../mcp/install/installRecords.ts';
import { RegistryLists } from '../mcp/install/registry/registryLists.ts';
import { ServerInstaller } from '../mcp/install/serverInstaller.ts';
import { OrganisationPolicy } from '../host/policy/organisationPolicy.ts';
import { policyFilesOf } from '../host/policy/policyFiles.ts';
import { launchUpgradeIn } from '../mcp/launch/launchUpgrade.ts';
import type { LaunchPinKeys } from '../mcp/launch/pinKey.ts';
import { CachedSchemaValidator } from '../mcp/schemaValidatorCache.ts';
import { startProcessReaper } from '../mcp/stdio/processReaper.ts';
import { serversWorkingFolder } from '../mcp/stdio/serverFolder.ts';
import { keepAtriumsToolsOutOfServersPath, keepLoginShellPathIn, launchedFromDesktop } from '../mcp/stdio/serverEnvironment.ts';
import { dataFileProblems, onDataFileProblem, prepareDataFolder } from '../store/dataFile.ts';
import { encryptedFileSecrets, fileKeyProtector } from '../store/encryptedSecrets.ts';
import { chainSecrets, environmentSecrets } from '../store/secrets.ts';
import { SettingsStore } from '../store/settingsStore.ts';
import { WorkspaceStore } from '../store/workspaceStore.ts';
import { journaled, openConversationStores, samplingModels } from './conversationStores.ts';
import { wireSkills } from './skillsWiring.ts';

// The run's own choices a front end may pass (the CLI's flags), in the words of the parts that use them.
export type { ApprovalMode, LaunchPinKeys, SamplingPolicy };
export type { HostCore, HostCoreOptions, RunningHost } from './hostCoreOptions.ts';
export { ONE_SHOT_CLOSE_GRACE_MS } from './hostCoreOptions.ts';
/** For a command that runs once: a server that fails is reported, not restarted. */
export { NO_RESTARTS } from '../mcp/connection/restartPolicy.ts';
export async function startHostCore(options: HostCoreOptions): Promise<HostCore> {
  // Private before anything is read or written in it: the folder 0700, every file 0600.
  await prepareDataFolder(options.home);
  // Asking the login shell for its PATH is slow; its answer is kept here for the next run.
  keepLoginShellPathIn(join(options.home, 'cache', 'login-shell-path.json'));
  if (options.launchedFromDesktop) launchedFromDesktop();
  keepAtriumsToolsOutOfServersPath(repoRoot);
  // Before any server starts: servers die with this host however it ends, and what a crashed run left is ended now.
  startProcessReaper();
  const events = new EventBus();
  // A file found damaged now or later (a store read on demand) reaches every window.
  const stopDataFileNotices = onDataFileProblem((home) => {
    if (home === options.home) events.emit('dataFileProblems', dataFileProblems(home));
  });
  const roots = new RootsStore();
  const validator = new CachedSchemaValidator();
  const secrets = options.secrets ?? environmentSecrets();
  // A stored key goes only to the address it was set for, whoever changed the provider's address.
  const keys = new ProviderKeys(secrets, options.secretStore);
  const settingsStore = await SettingsStore.open(options.home, options.providerSettings);
  const settings = () => settingsStore.current();

  // 1. What is stored: conversations, grants, pins, marks, audit; workspaces and their roots.
  const stores = openConversationStores(options.home, options.databasePath);
  const { history, ledger, pins, taint, audit, viewTrust } = stores;
  const workspaces = new Workspaces(new WorkspaceStore(stores.db), roots, (options.roots ?? []).map((path) => ({ uri: path })));
  await workspaces.start(options.workspace);
  // Read once now, so that a damaged key or secrets file is found (and set aside) at start, not when Settings opens.
  await options.secretStore?.names().catch(() => undefined);
  // Keys stored before their addresses were kept get the one their provider has now; one that cannot be written stays as it was.
  await keys.bindUnbound(settingsStore.current().providers).catch(() => undefined);

  // 2. Which servers there are, and which launches the person approved.
  const configPath = options.configPath ?? serversFilePath(options.home);
  const registry = await ServerRegistry.load(configPath, options.configPath === undefined);
  const pinKeys = options.launchPinKeys ?? { own: fileKeyProtector(options.home).dataKey };
  const launchApprovals = await LaunchApprovals.open(options.home, pinKeys, launchUpgradeIn(stores.db));
  const eras = await LearnedEras.open(options.home);
  // What Atrium installed and from where, and the organisation's policy that every start passes first.
  const installs = await InstallRecords.open(options.home, pinKeys);
  const environment = options.environment ?? process.env;
  const policy = await OrganisationPolicy.open(policyFilesOf(environment, options.machinePolicyFile), { installedFrom: (server) => installs.installedFrom(server), reach: serverReach });
  // The secrets installed servers ask for: the window's store, or the browser mode's and the command line's.
  const serverSecrets = options.secretStore ?? encryptedFileSecrets(options.home);
  const trusted = (serverId: string) => registry.get(serverId)?.trusted === true;

  // 3. What settles servers' requests: the person (through pending requests), the model, the saved choices.
  const pending = new PendingRequests(
    journaled(history, {
      opened: (record) => events.emit('pendingOpened', record),
      closed: (record, how, reason) => events.emit('pendingClosed', { id: record.id, how, ...(reason ? { reason } : {}) }),
    }),
  );
  const activity = new ServerActivity();
  const approvals = liveApprovals(settings, {
    ...(options.approvalMode ? { approvalMode: options.approvalMode } : {}),
    ...(options.samplingPolicy ? { samplingPolicy: options.samplingPolicy } : {}),
    ...(options.samplingDefault ? { samplingDefault: options.samplingDefault } : {}),
  });
  const models = new ModelResolver(settings, options.makeProvider ?? ((config, chosen) => createProvider(config, keys.sourceFor(config), chosen)), options.runChoice);
  const sampling =
    options.sampling ??
    createSamplingBroker({
      policy: approvals.samplingPolicy,
      pending,
      models: samplingModels(history, models, settings, options.runChoice),
      isTrusted: trusted,
      conversationFor: (serverId) => activity.conversationFor(serverId),
      taskOf: (serverId, taskId) => tasks.taskOf(serverId, taskId),
      context: (conversationId, serverId, scope) => conversationContext(history, conversationId, serverId, scope),
    });
  const fixedBroker = options.elicitation ?? (options.elicitationAnswer ? fixedElicitation(options.elicitationAnswer) : undefined);
  const elicitation = fixedBroker
    ? checkedElicitation(fixedBroker)
    : createPersonElicitation({
        pending,
        conversationFor: (serverId) => activity.conversationFor(serverId),
        taskOf: (serverId, taskId) => tasks.taskOf(serverId, taskId),
        openUrl: options.openUrl ?? ((url, _serverId, note) => note?.(`the person agreed to open ${url}`, 'notice')),
      });

  // 4. The connections, one per server, each local one in a sandbox made for the roots of its start.
  const sandboxes = new ServerSandboxes({ dataFolder: options.home, roots, defaultFolder: serversWorkingFolder(options.home), ...(options.personHome ? { home: options.personHome } : {}), ...(options.sandboxTools ? { tools: options.sandboxTools } : {}) });
  sandboxes.onChange((summary) => events.emit('sandboxChanged', summary));
  const hub = new McpHub(
    {
      clientInfo: { name: 'Atrium', version: ATRIUM_VERSION },
      showsViews: options.frontEnd?.viewSandbox !== undefined,
      roots,
      sampling,
      elicitation,
      validator,
      ...(options.restartPolicy ? { restartPolicy: options.restartPolicy } : {}),
      ...(options.requestTimeoutMs ? { requestTimeoutMs: options.requestTimeoutMs } : {}),
      ...(options.connectTimeoutMs ? { connectTimeoutMs: options.connectTimeoutMs } : {}),
      ...(options.keepAliveMs !== undefined ? { keepAliveMs: options.keepAliveMs } : {}),
      ...(options.maxMessageBytes !== undefined ? { maxMessageBytes: options.maxMessageBytes } : {}),
      ...(options.serverCloseGraceMs !== undefined ? { closeGraceMs: options.serverCloseGraceMs } : {}),
      eras,
      launchGate: launchGate(launchApprovals, policy),
      secrets: chainSecrets(environmentSecrets(environment), serverSecrets),
      sandbox: sandboxes,
      workingFolder: serversWorkingFolder(options.home),
      loadAuthorization: async () =>
        (await import('../mcp/auth/serverAuthorization.ts')).authorizationFactory({
          mode: 'when-asked',
          openAuthorizationUrl: () => undefined,
          ...options.signIn,
          store: options.credentialStore ?? (options.secretStore && !options.keyStorageWarning ? options.secretStore : memoryCredentialStore()),
          secrets,
          softwareVersion: ATRIUM_VERSION,
        }),
    },
    (event, payload) => events.emit(event, payload),
  );
  // A sandbox is made for the roots of its server's start: new roots, new sandboxes (see roots.onChange below).
  const rootsRestarts = new RootsRestarts(sandboxes, hub);

  // 5. The tools and the one pipeline every call goes through (the model's, a view's, the person's); chat over them.
  const catalog = new ToolCatalog({ connections: () => hub.list(), registry, pins, loaded: stores.loadedTools, settings });
  const gate = createConsentGate({
    ledger,
    audit,
    pending,
    taint,
    mode: approvals.toolMode,
    isTrusted: trusted,
    toolsOf: (serverId) => catalog.list(serverId).filter((t) => t.enabled),
  });
  // MCP Tasks: a call its server runs on as a task is followed to its end, and its end told in its conversation.
  // A call that failed (a task's too) tells the sandbox what its server said: a file it kept from it is listed.
  const callFailed = (serverId: string, said: string) => sandboxes.callFailed(serverId, said);
  const tasks = createTaskTracker({ db: stores.db, store: stores.tasks, hub, history, consent: gate, audit, onCallFailed: callFailed, chat: () => chat });
  const calls = createToolCallPipeline({
    catalog,
    consent: gate,
    tasks,
    // Only a trusted server's word that a tool is idempotent (or read-only) makes a repeat safe; each
    // running call's conversation is noted, so what its server asks meanwhile is shown there.
    runner: activity.track(createResilientRunner({ call: (serverId, tool, args, options) => hub.startToolCall(serverId, tool, args, options) }, { isIdempotent: (serverId, tool) => catalog.isRepeatable(serverId, tool) })),
    serversSettled: () => rootsRestarts.settled(),
    serverBack: (serverId, signal) => waitForServerBack(hub.has(serverId) ? hub.get(serverId) : undefined, signal),
    validator,
    audit,
    onProgress: (update) => events.emit('progress', update),
    onCallFailed: callFailed,
  });
  const skills = wireSkills({ home: options.home, events, hub, catalog, pending, ledger, tookIn: (conversationId, content) => gate.tookIn(content, conversationId), stores });
  const chat = new ChatService({
    history,
    settings,
    models,
    // A local server is asked its model's context only where the provider's key may go.
    contexts: new ModelContexts(undefined, async (config) => (config.apiKeySecret === undefined ? undefined : keys.sourceFor(config).get(config.apiKeySecret))),
    tools: catalog,
    calls,
    hostTools: skills.hostTools,
    viewContext: (conversationId) => viewContextForTurn(stores.viewContext.list(conversationId)),
    tookIn: (conversationId, content) => gate.tookIn(content, conversationId),
    beforeTurn: async (turn) => {
      await rootsRestarts.settled();
      await waitForStartingServers(hub.list(), turn);
    },
    onEvent: (conversationId, event) => events.emit('chatEvent', { conversationId, event }),
  });
  // MCP Apps views: what a view asks goes through the same pipeline as the model's calls.
  const views = createToolViews({
    toolOf: (serverId, tool) => catalog.resolve(serverId, tool),
    readViewPage: (serverId, uri) => hub.get(serverId).readViewPage(uri),
    conversationExists: (conversationId) => history.getConversation(conversationId) !== undefined,
    callOf: (conversationId, callId) => history.toolCalls.list(conversationId).find((call) => call.id === callId),
    context: stores.viewContext,
    calls,
  });
  const conversations: ConversationServices = { settings: settingsStore, approvals, history, drafts: stores.drafts, ledger, catalog, calls, audit, pending, chat, models, apps: { views, trust: viewTrust }, tasks, skills };

  // 6. What the owners of state announce reaches every window, as it is now; the tasks a last run left are taken up.
  announceOwnersChanges({ events, registry, history, drafts: stores.drafts, ledger, viewTrust, workspaces, chat, tasks });
  tasks.start();
  settingsStore.onChange(() => {
    const deps = { approvals, secrets, ...(options.secretStore ? { store: options.secretStore } : {}), ...(options.keyStorageWarning ? { keyStorageWarning: options.keyStorageWarning } : {}) };
    void settingsView(deps, settingsStore).then((view) => events.emit('settingsChanged', view));
  });

  // 7. What follows from the servers' events.
  // A request from a server that went away can no longer be answered: it leaves the person's queue.
  // Tools are pinned at first sight, as soon as a server lists them, not only when a turn reads them; the
  // catalog announces what changed in the tools it shows. A server connected again has its tasks followed again.
  events.on('serverChanged', (snapshot) => {
    if (snapshot.status.kind !== 'ready') return pending.withdrawForServer(snapshot.id, goneReason(snapshot));
    catalog.serverToolsChanged(snapshot.id);
    void tasks.serverConnected(snapshot.id);
  });
  events.on('serverRemoved', ({ serverId }) => {
    pending.withdrawForServer(serverId, `${serverId} was removed`);
    catalog.serverRemoved(serverId);
    sandboxes.forget(serverId);
    viewTrust.forget(serverId);
  });
  events.on('listChanged', ({ serverId, list }) => {
    if (list === 'tools') catalog.serverToolsChanged(serverId);
  });
  catalog.onChange((change) => {
    if (change.kind === 'tools') events.emit('toolsChanged', { serverId: change.serverId });
    else events.emit('toolsLoadedChanged', { conversationId: change.conversationId });
  });
  roots.onChange((list) => {
    events.emit('rootsChanged', list);
    void hub.notifyRootsChanged();
    void rootsRestarts.restart();
  });
  const wanted = options.onlyServers;
  await hub.add(wanted ? registry.all().filter((definition) => wanted.includes(definition.id)) : registry.all(), { start: options.startServers !== false });
  // The files the person edits, changed elsewhere (their editor, `atrium import`), are taken up: servers.json reaches the running servers (a host limited to some servers takes in no others).
  // A change to the organisation's policy holds, or lets through, every server within seconds.
  policy.onChange(() => hub.reconsiderLaunches());
  const installer = new ServerInstaller({
    home: options.home,
    registry,
    hub,
    records: installs,
    lists: new RegistryLists(options.home),
    secrets: serverSecrets,
    policy,
    savedRegistry: () => settingsStore.current().registryUrl,
    ...(environment.ATRIUM_REGISTRY_URL ? { environmentRegistry: environment.ATRIUM_REGISTRY_URL } : {}),
  });
  const stopFollowing = [settingsStore.follow(), policy.follow(), wanted === undefined && options.startServers !== false ? followServersFile(registry, hub, (event, payload) => events.emit(event, payload)) : () => undefined];

  let stopping: Promise<void> | undefined;
  return {
    api: createAtriumApi({
      home: options.home,
      hub,
      registry,
      launchApprovals,
      launchFacts: { originOf: (server) => installs.originOf(server), reach: serverReach, blocked: (server) => policy.blocked(server) },
      installer,
      roots,
      workspaces,
      conversations,
      sandboxes,
      secrets,
      frontEnd: options.frontEnd ?? headlessFrontEnd,
      ...(options.secretStore ? { secretStore: options.secretStore } : {}),
      ...(options.keyStorageWarning ? { keyStorageWarning: options.keyStorageWarning } : {}),
      ...(options.sampleServer ? { sampleServer: options.sampleServer } : {}),
    }),
    events,
    hub,
    launchApprovals,
    registry,
    configProblems: registry.problems,
    configPath,
    conversations,
    whenSettled: () => hub.whenSettled(),
    shutdown: () =>
      (stopping ??= (async () => {
        // Reads of the followed files under way finish first: they write last good copies in the data folder.
        const followsStopped = Promise.all(stopFollowing.map((stop) => stop()));
        for (const record of pending.list()) pending.withdraw(record.id, 'Atrium is quitting');
        tasks.stop();
        await hub.stopAll();
        await followsStopped;
        await sandboxes.close();
        await eras.close();
        stores.close();
        stopDataFileNotices();
      })()),
  };
}

/** Why a server's open requests leave the person's queue, with the cause when the server failed. */
function goneReason({ id, status }: ServerSnapshot): string {
  const cause = status.kind === 'restarting' ? status.lastError : status.kind === 'error' ? status.message : undefined;
  return cause ? `${id} is no longer connected — ${cause}` : `${id} is no longer connected`;
}
