// The hub holds one McpConnection per configured server and is the only way the rest of the host
// reaches a server. Servers start in parallel and independently: a slow, hanging or crashing server
// never delays or breaks another. The connection code is loaded with the first server added (a host with
// none, `atrium servers` on a new data folder, a first run, never loads it), the SDK once the first
// server's process is running (sessionOpener.ts), sign-in's code with the first remote server.

import type { CallToolResult } from '@modelcontextprotocol/client';
import type { AtriumEvents, ListKind, TraceWatch } from '../../shared/contract.ts';
import type { ServerSnapshot, ServerStatus } from '../../shared/domain.ts';
import type { ServerDefinition } from './config/serverConfig.ts';
import type { CallOptions, McpConnection } from './connection/McpConnection.ts';
import type * as ConnectionCode from './connection/McpConnection.ts';
import type { ConnectionServices } from './connection/connectionServices.ts';
import type { TaskRun } from './extensions/tasks/taskRun.ts';
import { ServerError } from './connection/serverError.ts';
import { KeyedQueue } from '../keyedQueue.ts';
import { TraceWatches } from './trace/traceWatches.ts';

export type HubEmit = <K extends keyof AtriumEvents>(event: K, payload: AtriumEvents[K]) => void;

export class McpHub {
  private readonly connections = new Map<string, McpConnection>();
  private services: ConnectionServices;
  private readonly emit: HubEmit;
  /** The connection code once loaded; until then, the load under way. */
  private connectionCode: typeof ConnectionCode | undefined;
  private loading: Promise<typeof ConnectionCode> | undefined;
  private loadingAuthorization: Promise<void> | undefined;
  private readonly changes = new KeyedQueue();
  // By server name, not by connection: a watch goes on to the connection that replaces one (an edit).
  private readonly traceWatches = new TraceWatches((serverId, watched) => this.connections.get(serverId)?.trace.setWatched(watched));

  constructor(services: ConnectionServices, emit: HubEmit) {
    this.services = services;
    this.emit = emit;
  }

  /**
   * Adds the servers and starts every enabled one at once; resolves once they are added, without waiting
   * for any to start. With `start: false` they are only added, for a caller that starts the one it needs
   * (or none).
   */
  async add(definitions: readonly ServerDefinition[], options: { start?: boolean } = {}): Promise<void> {
    if (definitions.length === 0) return;
    const code = this.connectionCode ?? (await this.loadConnectionCode());
    // Sign-in's code (and the SDK under it) only for a remote server: local ones start without it.
    if (definitions.some((definition) => definition.transport !== 'stdio')) await this.loadAuthorization();
    // Once loaded, added at once: no other request sees the hub between a replace's removal and this.
    this.addWith(code, definitions, options);
  }

  private loadAuthorization(): Promise<void> {
    const { loadAuthorization } = this.services;
    if (!loadAuthorization || this.services.authorization) return Promise.resolve();
    this.loadingAuthorization ??= (async () => {
      this.services = { ...this.services, authorization: await loadAuthorization() };
    })();
    // A load that failed is tried again by the next add, not remembered as failed for the host's life.
    this.loadingAuthorization.catch(() => (this.loadingAuthorization = undefined));
    return this.loadingAuthorization;
  }

  private loadConnectionCode(): Promise<typeof ConnectionCode> {
    this.loading ??= (async () => {
      const code = await import('./connection/McpConnection.ts');
      this.connectionCode = code;
      return code;
    })();
    // A load that failed is tried again by the next add, not remembered as failed for the host's life.
    this.loading.catch(() => (this.loading = undefined));
    return this.loading;
  }

  private addWith({ McpConnection }: typeof ConnectionCode, definitions: readonly ServerDefinition[], { start = true }: { start?: boolean }): void {
    for (const definition of definitions) {
      if (this.connections.has(definition.id)) throw new Error(`server "${definition.id}" is already configured`);
      const connection = new McpConnection(definition, this.services, {
        onChange: (snapshot) => this.emit('serverChanged', snapshot),
        onLog: (line) => this.emit('log', line),
        onListChanged: (list: ListKind) => this.emit('listChanged', { serverId: definition.id, list }),
        onResourceUpdated: (uri) => this.emit('resourceUpdated', { serverId: definition.id, uri }),
        onTrace: (messages, skipped) => this.emit('traceMessages', { serverId: definition.id, messages, ...(skipped > 0 ? { skipped } : {}) }),
      });
      if (this.traceWatches.isWatched(definition.id)) connection.trace.setWatched(true);
      this.connections.set(definition.id, connection);
    }
    if (!start) return;
    for (const definition of definitions) this.connections.get(definition.id)?.start();
  }

  remove(serverId: string): Promise<void> {
    return this.changes.run(serverId, async () => {
      const connection = this.connections.get(serverId);
      if (!connection) return;
      this.connections.delete(serverId);
      await connection.stop();
      this.emit('serverRemoved', { serverId });
    });
  }

  /**
   * Replaces a server's definition (enable/disable, edits), or adds it: the old connection stops, a new
   * one starts. Changes to one server (from the window, from the servers file changing) run in the order
   * they were asked for, so the last one asked is the one that runs.
   */
  replace(definition: ServerDefinition): Promise<void> {
    return this.changes.run(definition.id, async () => {
      const old = this.connections.get(definition.id);
      if (old) {
        this.connections.delete(definition.id);
        await old.stop();
      }
      await this.add([definition]);
    });
  }

  list(): McpConnection[] {
    return [...this.connections.values()];
  }

  snapshots(): ServerSnapshot[] {
    return this.list().map((connection) => connection.snapshot);
  }

  get(serverId: string): McpConnection {
    const connection = this.connections.get(serverId);
    if (!connection) throw new ServerError(serverId, 'not_found', `there is no server named "${serverId}"`);
    return connection;
  }

  has(serverId: string): boolean {
    return this.connections.has(serverId);
  }

  /** Resolves when every server has become ready, failed or is off. */
  async whenSettled(): Promise<Map<string, ServerStatus>> {
    const entries = await Promise.all(this.list().map(async (c) => [c.id, await c.whenSettled()] as const));
    return new Map(entries);
  }

  callTool(serverId: string, tool: string, args: Record<string, unknown> | undefined, options?: CallOptions): Promise<CallToolResult> {
    return this.get(serverId).callTool(tool, args, options);
  }

  /** What may start changed for every server (the organisation's policy did): each is held, or let through, as the gate says now. */
  reconsiderLaunches(): void {
    for (const connection of this.list()) connection.reconsider();
  }

  /** Starts watching a server's trace: the messages it keeps now, and its new ones announced until the watch ends. */
  watchTrace(serverId: string): TraceWatch {
    const { trace } = this.get(serverId);
    const watchId = this.traceWatches.watch(serverId);
    return { watchId, renewWithinMs: this.traceWatches.renewWithinMs, messages: trace.messages(), limits: trace.limits };
  }

  renewTraceWatch(watchId: string): boolean {
    return this.traceWatches.renew(watchId);
  }

  unwatchTrace(watchId: string): void {
    this.traceWatches.unwatch(watchId);
  }

  /** A call that may become a task (MCP Tasks): its result, or the task its server runs it as. */
  startToolCall(serverId: string, tool: string, args: Record<string, unknown> | undefined, options?: CallOptions): Promise<CallToolResult | TaskRun> {
    return this.get(serverId).startToolCall(tool, args, options);
  }

  async notifyRootsChanged(): Promise<void> {
    await Promise.all(this.list().map((connection) => connection.notifyRootsChanged()));
  }

  /**
   * Stops every server in parallel, for good (the host quits): no child process is left behind, remote
   * sessions are ended, and a restart under way (new roots) starts nothing after it.
   */
  async stopAll(): Promise<void> {
    await Promise.all(this.list().map((connection) => connection.stopForGood()));
  }
}
