// The one owner of the tools as the model and the person see them: every server's listed tools with
// their model-facing names, the person's choices (on or off, always loaded), their pins (a tool that
// changed since it was approved is marked and withheld), which are offered to the model, which a
// conversation has loaded and why, and the search over them. Everything that shows, offers, searches or
// calls a tool reads it here, at the moment it needs it, and the catalog announces its own changes.

import type { Tool } from '@modelcontextprotocol/client';
import type { LoadedHow, ServerId, ToolSearchHit, ToolSummary } from '../../../shared/domain.ts';
import type { ModelContext, TurnToolPlan, TurnTools } from '../../chat/turnTools.ts';
import type { ServerDefinition } from '../../mcp/config/serverConfig.ts';
import { isToolAlwaysLoaded, isToolEnabled, withToolAlwaysLoaded, withToolEnabled } from '../../mcp/config/serverConfig.ts';
import { appMetaOf, isForTheModel } from '../../mcp/extensions/apps/appsMeta.ts';
import { ServerError } from '../../mcp/connection/serverError.ts';
import type { LoadedToolStore } from '../../store/loadedToolStore.ts';
import type { ToolPins } from '../approval/toolPins.ts';
import { createToolIndex } from './toolRanking.ts';
import type { ToolIndex } from './toolRanking.ts';
import { buildToolNameTable } from './toolNames.ts';
import { planTurn } from './turnPlan.ts';

/** What the catalog reads of one connection: its id, its tools as last listed, whether it is ready. */
export interface CatalogConnection {
  readonly id: string;
  readonly tools: readonly Tool[];
  readonly definition: ServerDefinition;
  readonly snapshot: { readonly status: { readonly kind: string } };
  /** Resolves once a change the server announced has been listed (see McpConnection.toolsSettled). */
  toolsSettled?(): Promise<void>;
  /** Why the server takes no request now, or undefined when it is ready. */
  notReadyError?(): Error | undefined;
}

export interface ToolCatalogDeps {
  /** Every server's connection as the hub holds it now. */
  connections(): readonly CatalogConnection[];
  /** The person's latest choices for a server (the registry): a connection's definition is from its start. */
  registry: { get(serverId: string): ServerDefinition | undefined; update(definition: ServerDefinition): Promise<unknown> };
  pins: ToolPins;
  loaded: LoadedToolStore;
  /** Read at every plan: a threshold chosen in Settings applies to the next turn. */
  settings(): { toolThreshold?: number; toolContextPercent?: number };
}

/** Who a tool is for in a call: the model, a tool's view (MCP Apps), or the person calling it directly. */
export type ToolAudience = 'model' | 'view' | 'person';

/** What changed: a server's tools as shown (listed, chosen, approved), or what a conversation has loaded. */
export type ToolCatalogChange = { kind: 'tools'; serverId: ServerId } | { kind: 'loaded'; conversationId: string };

/** A choice about a server's tools that cannot be made (the server is gone). */
export class ToolChoiceError extends Error {
  readonly code = 'not_found';
}

interface Listing {
  /** The connections' inputs this listing was made from; reused while they are the same objects. */
  inputs: readonly (readonly [string, readonly Tool[], ServerDefinition])[];
  tools: ToolSummary[];
  byServerAndName: Map<string, ToolSummary>;
  byModelName: Map<string, ToolSummary>;
}

export class ToolCatalog implements TurnTools {
  private readonly deps: ToolCatalogDeps;
  private readonly listeners = new Set<(change: ToolCatalogChange) => void>();
  private listing: Listing | undefined;
  private searchIndex: { over: readonly ToolSummary[]; index: ToolIndex } | undefined;

  constructor(deps: ToolCatalogDeps) {
    this.deps = deps;
  }

  /** Every listed tool of every server (or of one), with `changed` where its pin says so; stable order. */
  list(serverId?: string): ToolSummary[] {
    const tools = this.current().tools;
    return this.deps.pins.review(serverId === undefined ? tools : tools.filter((tool) => tool.serverId === serverId));
  }

  /** The tools the model may be offered now: of ready servers, on, and withheld from nobody. */
  offered(): ToolSummary[] {
    const ready = new Set(this.deps.connections().flatMap((c) => (c.snapshot.status.kind === 'ready' ? [c.id] : [])));
    return this.deps.pins.review(this.current().tools.filter((tool) => ready.has(tool.serverId))).filter((tool) => this.withheld(tool, 'model') === undefined);
  }

  /**
   * The tool as it is at this moment, for a call: a change the server announced is listed first, so a
   * definition changed in the middle of a turn is the one checked against its pin.
   */
  async resolve(serverId: string, name: string): Promise<ToolSummary | undefined> {
    await this.deps.connections().find((c) => c.id === serverId)?.toolsSettled?.();
    const tool = this.current().byServerAndName.get(refKey(serverId, name));
    return tool && this.deps.pins.review([tool])[0];
  }

  /** Why a server cannot take a call now: it is not there, or not ready; undefined when it can. */
  unavailable(serverId: string): Error | undefined {
    const connection = this.deps.connections().find((c) => c.id === serverId);
    if (!connection) return new ServerError(serverId, 'not_found', `there is no server named "${serverId}"`);
    return connection.notReadyError?.();
  }

  /** The tool a model-facing name stands for now, if any. */
  byModelName(modelName: string): ToolSummary | undefined {
    const tool = this.current().byModelName.get(modelName);
    return tool && this.deps.pins.review([tool])[0];
  }

  /** Why `tool` is kept from `audience` (not offered, refused if called anyway); undefined when it is not. */
  withheld(tool: ToolSummary, audience: ToolAudience): string | undefined {
    return withheldFrom(tool, audience);
  }

  /** Whether repeating a call is safe: only a trusted server's word that the tool is idempotent or read-only counts. */
  isRepeatable(serverId: string, name: string): boolean {
    if (this.deps.registry.get(serverId)?.trusted !== true) return false;
    const annotations = this.current().byServerAndName.get(refKey(serverId, name))?.annotations;
    return annotations?.idempotentHint === true || annotations?.readOnlyHint === true;
  }

  /**
   * The tools of one turn: what is offered, what is withheld (and said), whether the model searches
   * instead of getting them all, and what it has loaded without searching, each with how.
   */
  plan(conversationId: string | undefined, context?: ModelContext): TurnToolPlan {
    const ready = new Set(this.deps.connections().flatMap((c) => (c.snapshot.status.kind === 'ready' ? [c.id] : [])));
    const candidates = this.deps.pins.review(this.current().tools.filter((t) => ready.has(t.serverId) && t.enabled));
    const settings = this.deps.settings();
    return planTurn(candidates, (tool) => this.withheld(tool, 'model'), {
      ...(settings.toolThreshold ? { threshold: settings.toolThreshold } : {}),
      ...(settings.toolContextPercent ? { contextShare: settings.toolContextPercent / 100 } : {}),
      ...(context !== undefined ? { context } : {}),
      kept: conversationId === undefined ? [] : this.deps.loaded.entries(conversationId),
    });
  }

  /** The best matches among the offered tools for a query, best first, with their scores. */
  rank(query: string, limit: number): ToolSearchHit[] {
    const offered = this.offered();
    // The index is made once per set of offered tools, not per search.
    if (!this.searchIndex || !sameTools(this.searchIndex.over, offered)) this.searchIndex = { over: offered, index: createToolIndex(offered) };
    return this.searchIndex.index.search(query, limit);
  }

  search(query: string, limit: number): ToolSummary[] {
    return this.rank(query, limit).map((hit) => hit.tool);
  }

  /** The model found (`how` says with what words) or called these tools in a conversation: they stay loaded. */
  noteLoaded(conversationId: string, modelNames: readonly string[], how?: LoadedHow): void {
    if (modelNames.length === 0) return;
    this.deps.loaded.note(conversationId, modelNames, how);
    this.announce({ kind: 'loaded', conversationId });
  }

  /** The person loads a tool into a conversation by hand, or unloads it. */
  setLoadedByHand(conversationId: string, modelName: string, loaded: boolean): void {
    if (loaded) this.deps.loaded.note(conversationId, [modelName], { kind: 'by-hand' });
    else this.deps.loaded.forget(conversationId, modelName);
    this.announce({ kind: 'loaded', conversationId });
  }

  /** The person turns a tool (or, without one, every tool of the server) on or off for the model. */
  setEnabled(serverId: string, tool: string | undefined, enabled: boolean): Promise<void> {
    return this.choose(serverId, (definition) => withToolEnabled(definition, tool, enabled));
  }

  /** The person has a tool (or every tool of the server) sent to the model always, or not. */
  setAlwaysLoaded(serverId: string, tool: string | undefined, alwaysLoaded: boolean): Promise<void> {
    return this.choose(serverId, (definition) => withToolAlwaysLoaded(definition, tool, alwaysLoaded));
  }

  /** The person approved the new definition of a changed tool, the one whose fingerprint they saw. */
  approveChange(serverId: string, name: string, fingerprint: string): void {
    const current = this.current().byServerAndName.get(refKey(serverId, name));
    this.deps.pins.approve(current, fingerprint, { serverId, tool: name });
    this.announce({ kind: 'tools', serverId });
  }

  /** A server's tools were listed again (it started, or said they changed): first sight pins them. */
  serverToolsChanged(serverId: string): void {
    this.deps.pins.review(this.current().tools.filter((tool) => tool.serverId === serverId));
    this.announce({ kind: 'tools', serverId });
  }

  /** A removed server's pins go with it: one added later under its name starts afresh. */
  serverRemoved(serverId: string): void {
    this.deps.pins.forgetServer(serverId);
  }

  onChange(listener: (change: ToolCatalogChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private async choose(serverId: string, change: (definition: ServerDefinition) => ServerDefinition): Promise<void> {
    const definition = this.deps.registry.get(serverId);
    if (!definition) throw new ToolChoiceError(`there is no server named "${serverId}"`);
    await this.deps.registry.update(change(definition));
    this.announce({ kind: 'tools', serverId });
  }

  private announce(change: ToolCatalogChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /**
   * Every tool with its model-facing name and the person's choices, without pins. Made again only when a
   * connection's tool list or the person's definition of a server is another object than last time: lists
   * are replaced when they change, never edited.
   */
  private current(): Listing {
    const ordered = [...this.deps.connections()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const inputs = ordered.map((c) => [c.id, c.tools, this.deps.registry.get(c.id) ?? c.definition] as const);
    if (this.listing && sameInputs(this.listing.inputs, inputs)) return this.listing;
    const table = buildToolNameTable(inputs.flatMap(([id, tools]) => tools.map((t) => ({ serverId: id, tool: t.name }))));
    const tools = inputs.flatMap(([id, serverTools, definition]) => serverTools.map((tool) => summaryOf(id, tool, definition, table.modelNameOf(id, tool.name) ?? tool.name)));
    const byServerAndName = new Map<string, ToolSummary>();
    const byModelName = new Map<string, ToolSummary>();
    for (const tool of tools) {
      // The first of a name wins, as the connection's own lookup does.
      const key = refKey(tool.serverId, tool.name);
      if (!byServerAndName.has(key)) byServerAndName.set(key, tool);
      if (!byModelName.has(tool.modelName)) byModelName.set(tool.modelName, tool);
    }
    this.listing = { inputs, tools, byServerAndName, byModelName };
    return this.listing;
  }
}

/** Why `tool` is kept from `audience`: changed since approved, not declared for it, or turned off. */
export function withheldFrom(tool: ToolSummary, audience: ToolAudience): string | undefined {
  if (tool.changed) return `${tool.serverId} changed the tool "${tool.name}" since it was approved, so it is withheld until the person reviews and approves the new version`;
  if (audience === 'model' && !isForTheModel(tool)) return `${tool.serverId} declares the tool "${tool.name}" for its own view only, not for the model`;
  if (audience === 'view' && tool.visibility !== undefined && !tool.visibility.includes('app')) return `${tool.serverId} declares the tool "${tool.name}" for the model only, not for its views`;
  // Off is the person's choice for the model (and what it shows); calling a tool by hand stays theirs.
  if (audience !== 'person' && !tool.enabled) return `the tool "${tool.name}" of ${tool.serverId} is turned off`;
  return undefined;
}

function summaryOf(serverId: string, tool: Tool, definition: ServerDefinition, modelName: string): ToolSummary {
  return {
    serverId,
    name: tool.name,
    modelName,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    inputSchema: tool.inputSchema as Record<string, unknown>,
    ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Record<string, unknown> } : {}),
    ...(tool.annotations ? { annotations: { ...tool.annotations } } : {}),
    ...appMetaOf(tool._meta),
    enabled: isToolEnabled(definition, tool.name),
    ...(isToolAlwaysLoaded(definition, tool.name) ? { alwaysLoaded: true as const } : {}),
  };
}

function sameInputs(a: Listing['inputs'], b: Listing['inputs']): boolean {
  return a.length === b.length && a.every(([id, tools, definition], index) => b[index]?.[0] === id && b[index]?.[1] === tools && b[index]?.[2] === definition);
}

function sameTools(a: readonly ToolSummary[], b: readonly ToolSummary[]): boolean {
  return a.length === b.length && a.every((tool, index) => tool === b[index]);
}

function refKey(serverId: string, name: string): string {
  return `${serverId}\u0000${name}`;
}
