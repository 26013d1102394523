// One configured server, one isolated, stateful MCP client: the SDK's Client over one transport, the
// server's lifecycle as a small state machine, its catalog and its log. A connection never decides
// policy: roots, sampling and elicitation come in through injected services, and everything it learns
// goes out through hooks. One connection's failure never touches another's.

import type {
  CallToolRequest,
  CallToolResult,
  CompleteResult,
  GetPromptResult,
  LoggingLevel,
  ReadResourceResult,
} from '@modelcontextprotocol/client';
import type { CompletionReference, ListKind } from '../../../shared/contract.ts';
import type { LogLevel, LogLine, ProgressUpdate, ServerSnapshot, ServerStatus, SignOutReport } from '../../../shared/domain.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import { LaunchChangedError } from './connectionServices.ts';
import type { ConnectionServices } from './connectionServices.ts';
import { describeTarget } from '../config/serverConfig.ts';
import { ServerLog } from '../serverLog.ts';
import { toServerError } from './connectionErrors.ts';
import { ServerError } from './serverError.ts';
import { VIEW_PAGE_READ } from './neutralisingTransport.ts';
import { AnnouncedToolChanges } from './announcedToolChanges.ts';
import { startKeepAlive } from './keepAlive.ts';
import type { RestartPolicy } from './restartPolicy.ts';
import { defaultRestartPolicy, nextRestartDelay } from './restartPolicy.ts';
import type { Catalog } from './serverCatalog.ts';
import { emptyCatalog, fetchCatalog, fetchList, setList, toolNamed } from './serverCatalog.ts';
import type { Session } from './session.ts';
import type { ToolCallOptions } from './toolCallChannel.ts';
import { SessionOpener } from './sessionOpener.ts';
import { findAuthorizationFailure } from './remoteAuthorization.ts';
import type { RemoteAuthorization } from './remoteAuthorization.ts';


export interface ConnectionHooks {
  onChange(snapshot: ServerSnapshot): void;
  onLog(line: LogLine): void;
  onListChanged(kind: ListKind): void;
  onResourceUpdated(uri: string): void;
}

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (update: Omit<ProgressUpdate, 'serverId' | 'callId'>) => void;
  timeoutMs?: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_CALL_MS = 30 * 60_000;
const DEFAULT_KEEP_ALIVE_MS = 30_000;
const PROBE_TIMEOUT_MS = 10_000;
const KEEP_ALIVE_MISSES_BEFORE_RESTART = 2;

export class McpConnection {
  readonly id: string;
  readonly definition: ServerDefinition;
  readonly log: ServerLog;
  private readonly services: ConnectionServices;
  private readonly hooks: ConnectionHooks;
  private readonly policy: RestartPolicy;
  private status: ServerStatus;
  private session: Session | undefined;
  private catalog: Catalog = emptyCatalog();
  private readonly toolChanges = new AnnouncedToolChanges();
  /** Bumped by every start and stop, so callbacks of a superseded attempt are ignored. */
  private generation = 0;
  private consecutiveFailures = 0;
  private restartTimer: NodeJS.Timeout | undefined;
  private healthyTimer: NodeJS.Timeout | undefined;
  private stopKeepAlive: () => void = () => undefined;
  private readonly opener: SessionOpener;
  private readonly authorization: RemoteAuthorization | undefined;
  private readonly settledWaiters = new Set<() => void>();
  /** Sessions ended because the server refused their sign-in: requests still in flight say so. */
  private readonly signInsLost = new WeakMap<Session, string>();
  /** The log level asked of the server; sent with each request to a 2026-07-28 server. */
  private logLevel: LogLevel = 'info';

  constructor(definition: ServerDefinition, services: ConnectionServices, hooks: ConnectionHooks) {
    this.id = definition.id;
    this.definition = definition;
    this.services = services;
    this.hooks = hooks;
    this.policy = services.restartPolicy ?? defaultRestartPolicy;
    this.log = new ServerLog(definition.id, (line) => hooks.onLog(line));
    this.authorization =
      definition.transport === 'stdio'
        ? undefined
        : services.authorization?.(definition, {
            onChange: () => this.emitChange(),
            log: (level, text) => this.log.add(level, 'host', text),
            signInLost: (message) => this.onSignInLost(message),
          });
    const authorization = this.authorization;
    this.opener = new SessionOpener(
      definition,
      {
        ...(services.maxMessageBytes !== undefined ? { maxMessageBytes: services.maxMessageBytes } : {}),
        ...(services.closeGraceMs !== undefined ? { closeGraceMs: services.closeGraceMs } : {}),
        ...(services.eras ? { eras: services.eras } : {}),
        ...(services.launchGate ? { launchGate: services.launchGate } : {}),
      },
      (name) => toolNamed(this.catalog, name),
      authorization ? (next) => authorization.wrapFetch(next) : undefined,
    );
    this.status = definition.disabled ? { kind: 'disabled' } : { kind: 'stopped' };
  }

  get snapshot(): ServerSnapshot {
    const session = this.session;
    const auth = this.authorization?.view;
    return {
      id: this.id,
      transport: this.opener.transport,
      target: describeTarget(this.definition),
      status: this.status,
      trusted: this.definition.trusted === true,
      counts: {
        tools: this.catalog.tools.length,
        resources: this.catalog.resources.length,
        resourceTemplates: this.catalog.resourceTemplates.length,
        prompts: this.catalog.prompts.length,
      },
      ...(session?.describe() ?? {}),
      ...(auth ? { auth } : {}),
    };
  }

  /** The process id of a running stdio server. */
  get pid(): number | undefined {
    return this.session?.pid;
  }

  get tools(): Catalog['tools'] {
    return this.catalog.tools;
  }
  get resources(): Catalog['resources'] {
    return this.catalog.resources;
  }
  get resourceTemplates(): Catalog['resourceTemplates'] {
    return this.catalog.resourceTemplates;
  }
  get prompts(): Catalog['prompts'] {
    return this.catalog.prompts;
  }

  /** Starts the server unless it is disabled. Never rejects: failures become the error state. */
  start(): void {
    if (this.definition.disabled) {
      this.setStatus({ kind: 'disabled' });
      return;
    }
    // Nothing runs, and nothing is contacted, that the person did not approve.
    const unapproved = this.services.launchGate?.check(this.definition);
    if (unapproved) {
      this.setStatus({ kind: 'needs-approval', reason: unapproved });
      return;
    }
    this.consecutiveFailures = 0;
    void this.launch();
  }

  /** What the person's Restart button does: forget past failures and start afresh. */
  async restart(): Promise<void> {
    await this.stop();
    this.start();
  }

  /** A remote server's address, so a failure to reach it can say where Atrium looked. */
  private addressContext(): { address?: string } {
    return this.definition.transport === 'stdio' ? {} : { address: this.definition.url };
  }

  async stop(): Promise<void> {
    await this.endSession(this.definition.disabled ? { kind: 'disabled' } : { kind: 'stopped' });
  }

  /**
   * The person signs in (the browser opens at the server's authorization page). A server that is
   * connected keeps its session and uses the new tokens from its next request; one that is not
   * connects once signed in. Rejects with the reason when the sign-in or the connection fails, or when
   * `signal` calls the sign-in off before the browser came back.
   */
  async signIn(signal?: AbortSignal): Promise<void> {
    const authorization = this.authorization;
    if (!authorization) throw new ServerError(this.id, 'protocol', `${this.id}: only remote servers sign in`);
    if (this.definition.disabled) throw new ServerError(this.id, 'unavailable', `${this.id}: the server is disabled; enable it first`);
    try {
      await authorization.signIn(signal);
    } catch (error) {
      const failure = toServerError(this.id, error);
      if (this.status.kind !== 'ready') this.failWithoutRestart(error, failure.message);
      throw failure;
    }
    if (this.status.kind === 'ready') return;
    this.start();
    const status = await this.whenSettled();
    if (status.kind !== 'ready') throw new ServerError(this.id, status.kind === 'needs-sign-in' ? 'unauthorized' : 'unavailable', describeStatus(status));
  }

  /** Forgets the server's tokens (revoking them where the authorization server allows) and disconnects. */
  async signOut(): Promise<SignOutReport> {
    const authorization = this.authorization;
    if (!authorization) throw new ServerError(this.id, 'protocol', `${this.id}: only remote servers sign in`);
    await this.stop();
    const report = await authorization.signOut();
    if (!this.definition.disabled) this.setStatus({ kind: 'needs-sign-in', message: `${this.id}: signed out; sign in to connect` });
    return report;
  }

  /** Resolves once the server is ready, has failed (error or waiting to restart), or is off. */
  whenSettled(): Promise<ServerStatus> {
    if (this.isSettled()) return Promise.resolve(this.status);
    return new Promise((resolve) => {
      const waiter = () => {
        if (!this.isSettled()) return;
        this.settledWaiters.delete(waiter);
        resolve(this.status);
      };
      this.settledWaiters.add(waiter);
    });
  }

  callTool(name: string, args: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<CallToolResult> {
    const tool = toolNamed(this.catalog, name);
    if (!tool && this.status.kind === 'ready') {
      return Promise.reject(new ServerError(this.id, 'not_found', `${this.id}: there is no tool named "${name}"`));
    }
    const timeout = options.timeoutMs ?? this.requestTimeout();
    // Built field by field, not by spreading optional parts: this runs for every call of every agent step.
    const callOptions: ToolCallOptions = {
      timeout,
      // A call that keeps reporting progress is alive: its limit restarts on each report, up to a hard cap.
      resetTimeoutOnProgress: true,
      maxTotalTimeout: Math.max(timeout, this.services.maxCallMs ?? DEFAULT_MAX_CALL_MS),
    };
    if (options.signal) callOptions.signal = options.signal;
    if (options.onProgress) callOptions.onprogress = options.onProgress;
    return this.withSession(`tool "${name}"`, options.signal, (session) => {
      const params: CallToolRequest['params'] = { name };
      if (args) params.arguments = args;
      const { _meta } = session.requestMeta(this.logLevel);
      if (_meta) params._meta = _meta;
      return session.callTool(params, callOptions, tool);
    });
  }

  readResource(uri: string, signal?: AbortSignal): Promise<ReadResourceResult> {
    return this.withSession(`resource "${uri}"`, signal, (session) =>
      session.client.readResource({ uri, ...session.requestMeta(this.logLevel) }, { timeout: this.requestTimeout(), cacheMode: 'bypass', ...(signal ? { signal } : {}) }),
    );
  }

  /**
   * An MCP Apps view's page, read for the view sandbox and nothing else: its text comes back as the server
   * wrote it (NeutralisingTransport keeps the answer to this read alone), since a page's scripts need
   * every character. Any other read of the same resource is neutralised like all server text.
   */
  readViewPage(uri: string): Promise<ReadResourceResult> {
    return this.withSession(`view "${uri}"`, undefined, (session) => {
      const { _meta } = session.requestMeta(this.logLevel);
      return session.client.readResource({ uri, _meta: { ..._meta, [VIEW_PAGE_READ]: true } }, { timeout: this.requestTimeout(), cacheMode: 'bypass' });
    });
  }

  getPrompt(name: string, args: Record<string, string> | undefined, signal?: AbortSignal): Promise<GetPromptResult> {
    return this.withSession(`prompt "${name}"`, signal, (session) =>
      session.client.getPrompt({ name, ...(args ? { arguments: args } : {}), ...session.requestMeta(this.logLevel) }, { timeout: this.requestTimeout(), ...(signal ? { signal } : {}) }),
    );
  }

  async complete(ref: CompletionReference, argument: { name: string; value: string }, context?: Record<string, string>): Promise<CompleteResult['completion']> {
    const result = await this.withSession('completion', undefined, (session) => {
      if (!session.client.getServerCapabilities()?.completions) {
        throw new ServerError(this.id, 'protocol', `${this.id}: the server does not offer completions`);
      }
      const reference = ref.type === 'ref/prompt' ? { type: 'ref/prompt' as const, name: ref.name } : { type: 'ref/resource' as const, uri: ref.name };
      return session.client.complete(
        { ref: reference, argument, ...(context ? { context: { arguments: context } } : {}) },
        { timeout: this.requestTimeout() },
      );
    });
    return result.completion;
  }

  async subscribeResource(uri: string): Promise<void> {
    await this.withSession(`subscribe to "${uri}"`, undefined, async (session) => {
      if (!session.client.getServerCapabilities()?.resources?.subscribe) {
        throw new ServerError(this.id, 'protocol', `${this.id}: the server does not offer resource subscriptions`);
      }
      await session.subscribe(uri, this.requestTimeout());
    });
  }

  async unsubscribeResource(uri: string): Promise<void> {
    await this.withSession(`unsubscribe from "${uri}"`, undefined, (session) => session.unsubscribe(uri, this.requestTimeout()));
  }

  async setLogLevel(level: LogLevel): Promise<void> {
    await this.withSession('set log level', undefined, async (session) => {
      // The 2026-07-28 revision has no logging/setLevel: the level travels in each request's _meta.
      if (session.era === 'modern') return;
      if (!session.client.getServerCapabilities()?.logging) {
        throw new ServerError(this.id, 'protocol', `${this.id}: the server does not offer logging`);
      }
      await session.client.setLoggingLevel(level as LoggingLevel, { timeout: this.requestTimeout() });
    });
    this.logLevel = level;
  }

  /** Tells the server its roots changed, if it is connected; a server that cannot hear it is skipped. */
  async notifyRootsChanged(): Promise<void> {
    const session = this.session;
    if (!session || this.status.kind !== 'ready') return;
    try {
      await session.client.sendRootsListChanged();
    } catch (error) {
      this.log.add('debug', 'host', `roots change not sent: ${(error as Error).message}`);
    }
  }

  /** Resolves once a change of its tools the server announced has been listed (or the wait ran out). */
  toolsSettled(): Promise<void> {
    return this.toolChanges.settled(this.requestTimeout());
  }

  /** Why a request cannot be made now, or undefined when the server is ready for it. */
  notReadyError(): ServerError | undefined {
    if (this.session && this.status.kind === 'ready') return undefined;
    return new ServerError(this.id, 'unavailable', `${this.id}: the server is not ready (${describeStatus(this.status)})`);
  }

  private requestTimeout(): number {
    return this.definition.requestTimeoutMs ?? this.services.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  /**
   * Runs a request on the current session, and turns its failure into a ServerError a person can read.
   * Not an async function: on the success path (every tool call of every agent step) the request's own
   * promise gets one handler, not the extra promises and turns of an async wrapper.
   */
  private withSession<T>(what: string, signal: AbortSignal | undefined, run: (session: Session) => Promise<T>): Promise<T> {
    const session = this.session;
    if (!session || this.status.kind !== 'ready') return Promise.reject(this.notReadyError());
    let request: Promise<T>;
    try {
      request = run(session);
    } catch (error) {
      request = Promise.reject(error);
    }
    return request.catch((error: unknown) => this.recoverFromFailure(error, session, what, signal, run));
  }

  /** A failed request: cancelled, the sign-in lost, the HTTP session expired (sent once more), or an error. */
  private async recoverFromFailure<T>(error: unknown, session: Session, what: string, signal: AbortSignal | undefined, run: (session: Session) => Promise<T>): Promise<T> {
    if (signal?.aborted) throw new ServerError(this.id, 'cancelled', `${this.id}: ${what}: cancelled`, { cause: error });
    // Whether the request saw the refusal or the session closing first, the cause is the lost sign-in.
    const lost = this.signInsLost.get(session);
    if (lost !== undefined) throw new ServerError(this.id, 'unauthorized', lost, { cause: error });
    // Spec 002: a 404 for a request carrying a session id means the session is gone; start a new
    // one and send the request once more.
    if (session.isSessionExpiry(error) && session === this.session) {
      this.log.add('notice', 'host', 'the server ended the HTTP session (404); starting a new session');
      const fresh = await this.reconnectAfterExpiry(session);
      try {
        return await run(fresh);
      } catch (retryError) {
        throw toServerError(this.id, retryError, { what, ...(fresh.closedReason ? { closedReason: fresh.closedReason } : {}), ...this.addressContext() });
      }
    }
    throw toServerError(this.id, error, { what, ...(session.closedReason ? { closedReason: session.closedReason } : {}), ...this.addressContext() });
  }

  private async reconnectAfterExpiry(expired: Session): Promise<Session> {
    const generation = this.generation;
    expired.retire();
    void expired.close();
    const session = await this.connect(generation);
    if (generation !== this.generation) {
      await session.close();
      throw new ServerError(this.id, 'unavailable', `${this.id}: the server was stopped`);
    }
    this.session = session;
    return session;
  }

  private async launch(): Promise<void> {
    const generation = ++this.generation;
    this.clearTimers();
    this.setStatus({ kind: 'starting', attempt: this.consecutiveFailures + 1 });
    try {
      const session = await this.connect(generation);
      if (generation !== this.generation) {
        await session.close();
        return;
      }
      this.session = session;
      this.catalog = await fetchCatalog(session.client, { ...this.listOptions(), debug: (text) => this.log.add('debug', 'host', text) });
      if (generation !== this.generation) return;
      this.setStatus({ kind: 'ready', since: Date.now() });
      this.log.add('info', 'host', `ready: ${session.describeForLog()}`);
      if (this.policy.healthyAfterMs < 2 ** 31) {
        this.healthyTimer = setTimeout(() => (this.consecutiveFailures = 0), this.policy.healthyAfterMs);
        this.healthyTimer.unref();
      }
      this.startKeepAlive(session, generation);
    } catch (error) {
      if (generation !== this.generation) return;
      if (error instanceof LaunchChangedError) {
        // Not a failure to retry: it waits for the person, as a new definition does.
        this.log.add('notice', 'host', error.message);
        this.clearTimers();
        this.setStatus({ kind: 'needs-approval', reason: 'changed' });
        return;
      }
      const failed = this.session;
      this.session = undefined;
      if (failed) void failed.close();
      const message = toServerError(this.id, error, { ...(failed?.closedReason ? { closedReason: failed.closedReason } : {}), ...this.addressContext() }).message;
      this.log.add('error', 'host', message);
      if (findAuthorizationFailure(error)) this.failWithoutRestart(error, message);
      else this.scheduleRestart(message);
    }
  }

  /**
   * The server refused a connected session's sign-in and nothing could renew it: the session ends and
   * the server waits for the person, as if it had been refused at connect. A connect under way fails by
   * itself with the same sentence.
   */
  private onSignInLost(message: string): void {
    if (this.status.kind !== 'ready' || !this.session) return;
    this.signInsLost.set(this.session, message);
    void this.endSession({ kind: 'needs-sign-in', message });
  }

  /** Ends the session and forgets its catalog; callbacks of the ended attempt are ignored from now on. */
  private async endSession(status: ServerStatus): Promise<void> {
    this.generation++;
    this.clearTimers();
    const session = this.session;
    this.session = undefined;
    this.catalog = emptyCatalog();
    this.setStatus(status);
    if (session) await session.close();
  }

  /** A connect refused for want of authorization: restarting would only ask again, so nothing retries. */
  private failWithoutRestart(error: unknown, message: string): void {
    this.clearTimers();
    const needsPerson = findAuthorizationFailure(error)?.needsPerson ?? false;
    this.setStatus(needsPerson ? { kind: 'needs-sign-in', message } : { kind: 'error', message });
  }

  private connect(generation: number): Promise<Session> {
    const connectTimeoutMs = this.services.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS;
    const options = {
      services: this.services,
      definition: this.definition,
      log: this.log,
      connectTimeoutMs,
      probeTimeoutMs: Math.min(PROBE_TIMEOUT_MS, connectTimeoutMs / 2),
      onClosed: (session: Session) => this.onSessionClosed(session, generation),
      onListChanged: (kind: ListKind) => void this.refreshList(kind, generation),
      // Only a server that declared it announces changes is listed again (the SDK skips the others).
      onToolsChangeAnnounced: () => {
        if (this.session?.client.getServerCapabilities()?.tools?.listChanged) this.toolChanges.announce();
      },
      onResourceUpdated: (uri: string) => this.hooks.onResourceUpdated(uri),
    };
    return this.opener.open(options, () => generation === this.generation);
  }

  private listOptions() {
    return { timeoutMs: this.requestTimeout(), warn: (text: string) => this.log.add('warning', 'host', text) };
  }

  private async refreshList(kind: ListKind, generation: number): Promise<void> {
    const session = this.session;
    if (!session || generation !== this.generation || this.status.kind !== 'ready') return;
    const mark = kind === 'tools' ? this.toolChanges.listingStarts() : 0;
    try {
      const list = await fetchList(session.client, kind, this.listOptions());
      if (generation !== this.generation) return;
      setList(this.catalog, kind, list);
      this.log.add('info', 'host', `${kind} changed: now ${list.length}`);
      this.emitChange();
      this.hooks.onListChanged(kind);
    } catch (error) {
      this.log.add('warning', 'host', `refreshing ${kind} failed: ${(error as Error).message}`);
    } finally {
      if (kind === 'tools') this.toolChanges.listingEnded(mark);
    }
  }

  private onSessionClosed(session: Session, generation: number): void {
    if (generation !== this.generation || session !== this.session || session.retired) return;
    this.session = undefined;
    this.catalog = emptyCatalog();
    this.toolChanges.reset();
    const reason = session.closedReason ?? 'the connection closed';
    this.log.add('error', 'host', `${this.id}: ${reason}`);
    this.scheduleRestart(reason);
  }

  private scheduleRestart(reason: string): void {
    this.clearTimers();
    this.consecutiveFailures++;
    const delay = nextRestartDelay(this.policy, this.consecutiveFailures);
    if (delay === null) {
      const attempts = this.consecutiveFailures;
      this.setStatus({ kind: 'error', message: attempts > 1 ? `${reason} (gave up after ${attempts} attempts; restart it when fixed)` : reason });
      return;
    }
    const generation = this.generation;
    this.setStatus({ kind: 'restarting', attempt: this.consecutiveFailures + 1, retryAt: Date.now() + delay, lastError: reason });
    this.restartTimer = setTimeout(() => {
      if (generation === this.generation) void this.launch();
    }, delay);
  }

  private startKeepAlive(session: Session, generation: number): void {
    this.stopKeepAlive = startKeepAlive({
      intervalMs: this.services.keepAliveMs ?? DEFAULT_KEEP_ALIVE_MS,
      missesAllowed: KEEP_ALIVE_MISSES_BEFORE_RESTART,
      ping: (timeout) => session.client.ping({ timeout }),
      onMiss: (misses, error) =>
        this.log.add('warning', 'host', `keep-alive ping failed (${misses}/${KEEP_ALIVE_MISSES_BEFORE_RESTART}): ${(error as Error).message}`),
      onHung: () => {
        if (generation !== this.generation || session !== this.session) return;
        session.closedReason = 'the server stopped answering keep-alive pings';
        void session.close();
      },
    });
  }

  private clearTimers(): void {
    clearTimeout(this.restartTimer);
    clearTimeout(this.healthyTimer);
    this.stopKeepAlive();
    this.restartTimer = this.healthyTimer = undefined;
  }

  private isSettled(): boolean {
    return this.status.kind !== 'starting';
  }

  private setStatus(status: ServerStatus): void {
    this.status = status;
    this.emitChange();
    for (const waiter of [...this.settledWaiters]) waiter();
  }

  private emitChange(): void {
    this.hooks.onChange(this.snapshot);
  }
}

function describeStatus(status: ServerStatus): string {
  switch (status.kind) {
    case 'error':
    case 'needs-sign-in':
      return status.message;
    case 'restarting':
      return `restarting after: ${status.lastError}`;
    case 'needs-approval':
      return `not started: it is ${status.reason === 'new' ? 'new' : 'changed since you approved it'} and waits for your approval`;
    default:
      return status.kind;
  }
}
