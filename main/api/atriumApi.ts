// The typed contract implemented once. The Electron IPC adapter and the browser bridge both validate a
// request against shared/contract.ts and then call this object; the CLI calls it directly.

import { randomUUID } from 'node:crypto';
import type { jsonSchemaValidator } from '@modelcontextprotocol/client';
import type { AtriumApi } from '../../shared/contract.ts';
import type { PromptSummary, ResourceSummary, ResourceTemplateSummary, ToolSummary } from '../../shared/domain.ts';
import type { RootsStore } from '../host/rootsStore.ts';
import { buildToolNameTable } from '../host/toolNames.ts';
import type { McpHub } from '../mcp/McpHub.ts';
import type { ServerRegistry } from '../mcp/ServerRegistry.ts';
import type { LaunchApprovals } from '../mcp/launch/launchApprovals.ts';
import type { McpConnection } from '../mcp/connection/McpConnection.ts';
import { ServerError } from '../mcp/connection/serverError.ts';
import { InvalidToolArgumentsError, toolArgumentsProblem } from '../mcp/toolArguments.ts';
import { isToolAlwaysLoaded, isToolEnabled, withToolAlwaysLoaded, withToolEnabled } from '../mcp/config/serverConfig.ts';
import type { ServerDefinition } from '../mcp/config/serverConfig.ts';
import { appMetaOf } from '../mcp/appsMeta.ts';
import type { ConversationServices } from './conversationServices.ts';
import { ToolWithheldError } from '../host/approval/toolPins.ts';
import { PromptShapeError, promptToContent } from '../chat/promptMessages.ts';
import { DEFAULT_RESULTS } from '../chat/toolSearch.ts';
import type { Workspaces } from '../host/workspaces.ts';
import { createConversationApi, sendTurn } from './conversationApi.ts';
import { createServerConfigApi } from './serverConfigApi.ts';
import { createSetupApi } from './setupApi.ts';
import { createSettingsApi, settingsView } from './settingsApi.ts';
import type { SecretSource } from '../store/secrets.ts';
import type { WritableSecrets } from '../store/encryptedSecrets.ts';
import { createWorkspaceApi } from './workspaceApi.ts';
import { createHostInfoApi } from './hostInfoApi.ts';
import type { FrontEnd } from './hostInfoApi.ts';
import type { SampleServerLaunch } from './setupApi.ts';
import type { EventBus } from './eventBus.ts';
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
  roots: RootsStore;
  workspaces: Workspaces;
  events: EventBus;
  conversations: ConversationServices;
  /** Checks a direct tool call's arguments, as the agent loop checks a model's. */
  validator: jsonSchemaValidator;
}

export function createAtriumApi(deps: ApiDeps): AtriumApi {
  const { home, hub, registry, roots, workspaces, events, conversations, secrets, secretStore, keyStorageWarning, validator } = deps;
  const callsInFlight = new Map<string, AbortController>();
  // Sign-ins waiting for the person, per server, so that the person can call them off from any window.
  const signInsInFlight = new Map<string, Set<{ controller: AbortController; ended: Promise<unknown> }>>();
  const pick = (serverId?: string): McpConnection[] => (serverId === undefined ? hub.list() : [hub.get(serverId)]);
  /** A choice the person makes for a server's tools (on or off, always loaded), saved, and the tools listed again. */
  const chooseForTools = async (serverId: string, choose: (definition: ServerDefinition) => ServerDefinition): Promise<null> => {
    const definition = registry.get(serverId);
    if (!definition) throw new ServerError(serverId, 'not_found', `there is no server named "${serverId}"`);
    await registry.update(choose(definition));
    events.emit('listChanged', { serverId, list: 'tools' });
    return null;
  };

  const settingsDeps = {
    settings: conversations.settings,
    approvals: conversations.approvals,
    secrets,
    ...(secretStore ? { store: secretStore } : {}),
    ...(keyStorageWarning ? { keyStorageWarning } : {}),
  };
  // Every window mirrors the settings: a change saved anywhere (another window, a provider added from
  // the first-run view) reaches each one as it is now.
  conversations.settings.onChange(() => {
    void settingsView(settingsDeps, conversations.settings).then((view) => events.emit('settingsChanged', view));
  });

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
    listTools: async ({ serverId }) => conversations.pins.review(toolSummaries(hub.list(), registry)).filter((t) => serverId === undefined || t.serverId === serverId),
    searchTools: async ({ query, limit }) => conversations.chat.searchTools(query, limit ?? DEFAULT_RESULTS),
    toolsInUse: async ({ conversationId }) => conversations.chat.toolsInUse(conversationId),
    setToolLoaded: async ({ conversationId, modelName, loaded }) => {
      conversations.chat.setToolLoaded(conversationId, modelName, loaded);
      events.emit('toolsLoadedChanged', { conversationId });
      return null;
    },
    approveToolChange: async ({ serverId, tool, fingerprint }) => {
      const current = toolSummaries(hub.list(), registry).find((t) => t.serverId === serverId && t.name === tool);
      conversations.pins.approve(current, fingerprint, { serverId, tool });
      events.emit('listChanged', { serverId, list: 'tools' });
      return null;
    },
    setToolEnabled: ({ serverId, tool, enabled }) => chooseForTools(serverId, (definition) => withToolEnabled(definition, tool, enabled)),
    setToolAlwaysLoaded: ({ serverId, tool, alwaysLoaded }) => chooseForTools(serverId, (definition) => withToolAlwaysLoaded(definition, tool, alwaysLoaded)),
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
    callTool: async ({ serverId, tool, arguments: args, callId = randomUUID() }) => {
      const declared = hub.get(serverId).tools.find((t) => t.name === tool);
      const [summary] = conversations.pins.review(toolSummaries([hub.get(serverId)], registry).filter((t) => t.name === tool));
      if (summary?.changed) throw new ToolWithheldError(serverId, tool);
      const problem = declared ? toolArgumentsProblem(validator, declared.inputSchema, args ?? {}) : undefined;
      if (problem !== undefined) throw new InvalidToolArgumentsError(`${serverId}: tool "${tool}": the arguments do not fit its input schema: ${problem}`);
      const controller = new AbortController();
      callsInFlight.set(callId, controller);
      try {
        const result = await hub.callTool(serverId, tool, args, {
          signal: controller.signal,
          onProgress: (progress) => events.emit('progress', { serverId, callId, ...progress }),
        });
        return result;
      } finally {
        callsInFlight.delete(callId);
      }
    },
    openToolView: async ({ serverId, tool }) => conversations.views.open(serverId, tool),
    callToolFromView: async ({ conversationId, viewOf, tool, arguments: args, callId = randomUUID() }) => {
      const controller = new AbortController();
      callsInFlight.set(callId, controller);
      try {
        return await conversations.views.call({ conversationId, viewOf, tool, arguments: args ?? {}, signal: controller.signal });
      } finally {
        callsInFlight.delete(callId);
      }
    },
    setViewContext: async (update) => ({ kept: conversations.views.setContext(update) }),
    listViewContext: async ({ conversationId }) => conversations.views.context(conversationId),
    listViewTrust: async ({ serverId }) => conversations.viewTrust.list(serverId),
    setViewTrust: async ({ serverId, trusted }) => {
      if (trusted) conversations.viewTrust.allow(serverId);
      else conversations.viewTrust.revoke(serverId);
      events.emit('viewTrustChanged', conversations.viewTrust.list());
      return null;
    },
    setViewPermission: async ({ serverId, permission, allowed }) => {
      conversations.viewTrust.setPermission(serverId, permission, allowed);
      events.emit('viewTrustChanged', conversations.viewTrust.list());
      return null;
    },
    // A direct call from the person or a view, or one tool call inside a conversation's turn.
    cancelCall: async ({ callId }) => {
      callsInFlight.get(callId)?.abort(new Error('cancelled by the person'));
      conversations.chat.cancelToolCall(callId);
      return null;
    },
    readResource: async ({ serverId, uri }) => hub.get(serverId).readResource(uri),
    subscribeResource: async ({ serverId, uri }) => {
      await hub.get(serverId).subscribeResource(uri);
      return null;
    },
    unsubscribeResource: async ({ serverId, uri }) => {
      await hub.get(serverId).unsubscribeResource(uri);
      return null;
    },
    getPrompt: async ({ serverId, name, arguments: args }) => hub.get(serverId).getPrompt(name, args),
    complete: async ({ serverId, ref, argument, context }) => {
      const completion = await hub.get(serverId).complete(ref, argument, context);
      return { values: completion.values, ...optional(completion, ['total', 'hasMore']) };
    },
    runPrompt: async ({ conversationId, serverId, name, arguments: args, provider, model }) => {
      const prompt = await hub.get(serverId).getPrompt(name, args);
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
        ...(provider ? { provider } : {}),
        ...(model ? { model } : {}),
      });
    },
    ...createServerConfigApi(hub, registry, events, deps.launchApprovals),
    ...createSetupApi({ home, hub, registry, events, settings: conversations.settings, ...(deps.sampleServer ? { sampleServer: deps.sampleServer } : {}) }),
    ...createSettingsApi(settingsDeps),
    ...createHostInfoApi(deps.frontEnd),
    ...createWorkspaceApi(workspaces, roots, events),
    ...createConversationApi(conversations, (serverId, uri) => hub.get(serverId).readResource(uri)),
  } satisfies AtriumApi;
  return api;
}

/** Every tool of every server with its model-facing name; the order is stable (server, then tool). */
export function toolSummaries(connections: readonly McpConnection[], registry?: Pick<ServerRegistry, 'get'>): ToolSummary[] {
  const ordered = [...connections].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const table = buildToolNameTable(ordered.flatMap((c) => c.tools.map((t) => ({ serverId: c.id, tool: t.name }))));
  return ordered.flatMap((c) =>
    c.tools.map(
      (t): ToolSummary => ({
        serverId: c.id,
        name: t.name,
        modelName: table.modelNameOf(c.id, t.name) ?? t.name,
        ...optional(t, ['title', 'description']),
        inputSchema: t.inputSchema as Record<string, unknown>,
        ...(t.outputSchema ? { outputSchema: t.outputSchema as Record<string, unknown> } : {}),
        ...(t.annotations ? { annotations: { ...t.annotations } } : {}),
        ...appMetaOf(t._meta),
        // The registry holds the person's latest choice; the connection's definition is from its start.
        enabled: isToolEnabled(registry?.get(c.id) ?? c.definition, t.name),
        ...(isToolAlwaysLoaded(registry?.get(c.id) ?? c.definition, t.name) ? { alwaysLoaded: true as const } : {}),
      }),
    ),
  );
}

function optional<T extends object, K extends keyof T>(source: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (source[key] !== undefined) out[key] = source[key];
  return out;
}
