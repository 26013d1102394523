// The typed contract implemented once. The Electron IPC adapter and the browser bridge both validate a
// request against shared/contract.ts and then call this object; the CLI calls it directly.

import type { AtriumApi } from '../../shared/contract.ts';
import type { PromptSummary, ResourceSummary, ResourceTemplateSummary } from '../../shared/domain.ts';
import type { RootsStore } from '../host/rootsStore.ts';
import type { McpHub } from '../mcp/McpHub.ts';
import type { ServerRegistry } from '../mcp/ServerRegistry.ts';
import type { LaunchApprovals } from '../mcp/launch/launchApprovals.ts';
import type { McpConnection } from '../mcp/connection/McpConnection.ts';
import { ServerError } from '../mcp/connection/serverError.ts';
import type { ConversationServices } from './conversationServices.ts';
import { PromptShapeError, promptToContent } from '../chat/promptMessages.ts';
import { InvalidArgumentsError } from '../host/invalidArguments.ts';
import { promptArgumentProblems } from '../host/promptArguments.ts';
import { nearestWord } from '../../shared/nearestWord.ts';
import type { Workspaces } from '../host/workspaces.ts';
import { createConversationApi, sendTurn } from './conversationApi.ts';
import { createToolsApi } from './toolsApi.ts';
import { createAppsApi } from '../mcp/extensions/apps/api/appsApi.ts';
import { createTasksApi } from '../mcp/extensions/tasks/api/tasksApi.ts';
import { createSkillsApi } from '../mcp/extensions/skills/api/skillsApi.ts';
import { createSandboxApi } from '../mcp/extensions/sandbox/api/sandboxApi.ts';
import type { ServerSandboxes } from '../mcp/extensions/sandbox/serverSandboxes.ts';
import { createServerConfigApi } from './serverConfigApi.ts';
import type { LaunchFacts } from './serverConfigApi.ts';
import { createInstallApi } from './installApi.ts';
import type { ServerInstaller } from '../mcp/install/serverInstaller.ts';
import { createSetupApi } from './setupApi.ts';
import { createSettingsApi } from './settingsApi.ts';
import type { SecretSource } from '../store/secrets.ts';
import type { WritableSecrets } from '../store/encryptedSecrets.ts';
import { createWorkspaceApi } from './workspaceApi.ts';
import { createHostInfoApi } from './hostInfoApi.ts';
import { createTraceApi } from './traceApi.ts';
import type { FrontEnd } from './hostInfoApi.ts';
import type { SampleServerLaunch } from './setupApi.ts';
import { dataFileProblems } from '../store/dataFile.ts';

export interface ApiDeps {
  /** Atrium's data folder, where providers.json lives. */
  home: string;
  secrets: SecretSource;
  secretStore?: WritableSecrets;
  /** Why the secret store is weak or missing, shown in Settings (see ProviderSettingsView). */
  keyStorageWarning?: string;
  frontEnd: FrontEnd;
  sampleServer?: SampleServerLaunch;
  hub: McpHub;
  registry: ServerRegistry;
  /** The launch definitions the person approved; a server runs only with its exact one approved. */
  launchApprovals: LaunchApprovals;
  /** Where an installed server came from, what a server can touch, and the organisation's policy's word on it. */
  launchFacts: LaunchFacts;
  installer: ServerInstaller;
  roots: RootsStore;
  workspaces: Workspaces;
  conversations: ConversationServices;
  /** Every local server's sandbox. */
  sandboxes: ServerSandboxes;
}

export function createAtriumApi(deps: ApiDeps): AtriumApi {
  const { home, hub, registry, roots, workspaces, conversations, secrets, secretStore, keyStorageWarning } = deps;
  // Sign-ins waiting for the person, per server, so that the person can call them off from any window.
  const signInsInFlight = new Map<string, Set<{ controller: AbortController; ended: Promise<unknown> }>>();
  const pick = (serverId?: string): McpConnection[] => (serverId === undefined ? hub.list() : [hub.get(serverId)]);
  // A prompt's arguments are checked against those its server declared before it is asked for (a prompt
  // it did not list is left to the server to judge; refused, it was most likely a slip for a listed one).
  const checkedPrompt = (serverId: string, name: string, args: Record<string, string> | undefined) => {
    const connection = hub.get(serverId);
    const declared = connection.prompts.find((prompt) => prompt.name === name);
    const problems = declared ? promptArgumentProblems(declared.arguments, args ?? {}) : undefined;
    if (problems) throw new InvalidArgumentsError(`${serverId}: prompt "${name}"`, problems);
    if (declared) return connection.getPrompt(name, args);
    return connection.getPrompt(name, args).catch((error: unknown) => {
      const meant = nearestWord(name, connection.prompts.map((prompt) => prompt.name));
      if (meant === undefined || !(error instanceof ServerError)) throw error;
      throw new ServerError(serverId, 'not_found', `${serverId}: there is no prompt named "${name}": did you mean "${meant}"?`, { cause: error });
    });
  };

  const settingsDeps = {
    settings: conversations.settings,
    approvals: conversations.approvals,
    secrets,
    ...(secretStore ? { store: secretStore } : {}),
    ...(keyStorageWarning ? { keyStorageWarning } : {}),
  };
  const api = {
    listServers: async () => hub.snapshots(),
    listConfigProblems: async () => registry.problems,
    listDataFileProblems: async () => dataFileProblems(home),
    restartServer: async ({ serverId }) => {
      await hub.get(serverId).restart();
      return null;
    },
    signIn: async ({ serverId }) => {
      const connection = hub.get(serverId);
      const controller = new AbortController();
      const running = connection.signIn(controller.signal);
      const entry = { controller, ended: running.catch(() => undefined) };
      const entries = signInsInFlight.get(serverId) ?? new Set();
      signInsInFlight.set(serverId, entries.add(entry));
      try {
        await running;
      } finally {
        entries.delete(entry);
        if (entries.size === 0 && signInsInFlight.get(serverId) === entries) signInsInFlight.delete(serverId);
      }
      return connection.snapshot;
    },
    cancelSignIn: async ({ serverId }) => {
      const connection = hub.get(serverId);
      // Nothing under way (it may have just finished) is not an error: the snapshot says where it stands.
      const entries = [...(signInsInFlight.get(serverId) ?? [])];
      for (const { controller } of entries) controller.abort();
      await Promise.all(entries.map(({ ended }) => ended));
      return connection.snapshot;
    },
    signOut: async ({ serverId }) => {
      const connection = hub.get(serverId);
      const report = await connection.signOut();
      return { server: connection.snapshot, report };
    },
    setServerEnabled: async ({ serverId, enabled }) => {
      const definition = registry.get(serverId);
      if (!definition) throw new ServerError(serverId, 'not_found', `there is no server named "${serverId}"`);
      // What the file holds now, with this choice made: that is what runs.
      await hub.replace(await registry.update({ ...definition, disabled: !enabled }));
      return null;
    },
    getServerLog: async ({ serverId, limit }) => hub.get(serverId).log.recent(limit),
    setServerLogLevel: async ({ serverId, level }) => {
      await hub.get(serverId).setLogLevel(level);
      return null;
    },
    listResources: async ({ serverId }) =>
      pick(serverId).flatMap((c) =>
        c.resources.map((r): ResourceSummary => ({ serverId: c.id, uri: r.uri, name: r.name, ...optional(r, ['title', 'description', 'mimeType', 'size']) })),
      ),
    listResourceTemplates: async ({ serverId }) =>
      pick(serverId).flatMap((c) =>
        c.resourceTemplates.map(
          (t): ResourceTemplateSummary => ({ serverId: c.id, uriTemplate: t.uriTemplate, name: t.name, ...optional(t, ['title', 'description', 'mimeType']) }),
        ),
      ),
    listPrompts: async ({ serverId }) =>
      pick(serverId).flatMap((c) =>
        c.prompts.map(
          (p): PromptSummary => ({
            serverId: c.id,
            name: p.name,
            ...optional(p, ['title', 'description']),
            arguments: (p.arguments ?? []).map((a) => ({ name: a.name, ...optional(a, ['description', 'required']) })),
          }),
        ),
      ),
    readResource: async ({ serverId, uri }) => hub.get(serverId).readResource(uri),
    subscribeResource: async ({ serverId, uri }) => {
      await hub.get(serverId).subscribeResource(uri);
      return null;
    },
    unsubscribeResource: async ({ serverId, uri }) => {
      await hub.get(serverId).unsubscribeResource(uri);
      return null;
    },
    getPrompt: async ({ serverId, name, arguments: args }) => checkedPrompt(serverId, name, args),
    complete: async ({ serverId, ref, argument, context }) => {
      const completion = await hub.get(serverId).complete(ref, argument, context);
      return { values: completion.values, ...optional(completion, ['total', 'hasMore']) };
    },
    runPrompt: async ({ conversationId, newConversationId, serverId, name, arguments: args, provider, model }) => {
      const prompt = await checkedPrompt(serverId, name, args);
      let content;
      try {
        content = promptToContent(prompt.messages);
      } catch (error) {
        if (error instanceof PromptShapeError) throw new ServerError(serverId, 'protocol', `${serverId}'s prompt "${name}" cannot be used: ${error.message}`);
        throw error;
      }
      return sendTurn(conversations.chat, {
        content,
        origin: { kind: 'prompt', serverId, name },
        ...(conversationId ? { conversationId } : {}),
        ...(newConversationId ? { newConversationId } : {}),
        ...(provider ? { provider } : {}),
        ...(model ? { model } : {}),
      });
    },
    ...createServerConfigApi({
      hub,
      registry,
      approvals: deps.launchApprovals,
      facts: deps.launchFacts,
      sandboxOf: (definition) => deps.sandboxes.summary(definition),
      forgetSecretsOf: (removed) => deps.installer.forgetSecretsOf(removed),
      forgetBundleOf: (removed) => deps.installer.forgetBundleOf(removed),
    }),
    ...createInstallApi(deps.installer, conversations.settings),
    ...createSetupApi({ home, hub, registry, settings: conversations.settings, ...(deps.sampleServer ? { sampleServer: deps.sampleServer } : {}) }),
    ...createSettingsApi(settingsDeps, conversations.models.makeProvider),
    ...createHostInfoApi(deps.frontEnd),
    ...createWorkspaceApi(workspaces, roots),
    ...createConversationApi(conversations, (serverId, uri) => hub.get(serverId).readResource(uri)),
    ...createTraceApi(hub),
    ...createToolsApi({ catalog: conversations.catalog, calls: conversations.calls, chat: conversations.chat, history: conversations.history }),
    // The extensions' requests, one line each.
    ...createAppsApi(conversations.apps),
    ...createTasksApi({ tracker: conversations.tasks, hub }),
    ...createSkillsApi(conversations.skills, conversations.chat),
    ...createSandboxApi({ sandboxes: deps.sandboxes, hub, registry, launchApprovals: deps.launchApprovals }),
  } satisfies AtriumApi;
  return api;
}

function optional<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
