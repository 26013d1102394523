// One configured server, one isolated, stateful MCP client: the SDK's Client over one transport, the
// server's lifecycle as a small state machine, its catalog and its log (the requests it makes on its
// live session are SessionRequests'). A connection never decides
// policy: roots, sampling and elicitation come in through injected services, and everything it learns
// goes out through hooks. One connection's failure never touches another's.

import type { ListKind, TraceMessage } from '../../../shared/contract.ts';
import type { LogLine, ServerSnapshot, ServerStatus, SignOutReport } from '../../../shared/domain.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import { LaunchHeldError, SandboxUnavailableError, sameHold } from './connectionServices.ts';
import type { ConnectionServices } from './connectionServices.ts';
import { describeTarget } from '../config/serverConfig.ts';
import { ServerLog } from '../serverLog.ts';
import { ServerError } from './serverError.ts';
import { failureOf } from './sessionCode.ts';
import { AnnouncedToolChanges } from './announcedToolChanges.ts';
import { keepSessionAlive } from './keepAlive.ts';
import { StatusWaiters } from './statusWaiters.ts';
import type { RestartPolicy } from './restartPolicy.ts';
import { defaultRestartPolicy, nextRestartDelay } from './restartPolicy.ts';
import type { Catalog } from './serverCatalog.ts';
import { emptyCatalog, fetchCatalog, fetchList, setList, toolNamed } from './serverCatalog.ts';
import type { Session } from './session.ts';
import { SessionOpener } from './sessionOpener.ts';
import { describeStatus, SessionRequests } from './sessionRequests.ts';
import { findAuthorizationFailure } from './remoteAuthorization.ts';
import type { RemoteAuthorization } from './remoteAuthorization.ts';
import { ServerTrace } from '../trace/serverTrace.ts';
import { Attempts } from './attempts.ts';
import { isLastingLaunchFailure } from '../stdio/launchFailure.ts';

export interface ConnectionHooks {
  onChange(snapshot: ServerSnapshot): void;
  onLog(line: LogLine): void;
  onListChanged(kind: ListKind): void;
  onResourceUpdated(uri: string): void;
  /** New messages of the trace, while someone watches it (`skipped`: more, too many to list). */
  onTrace?(messages: TraceMessage[], skipped: number): void;
}

export type { CallOptions } from './sessionRequests.ts';

const DEFAULT_CONNECT_TIMEOUT_MS = 30_000;
const PROBE_TIMEOUT_MS = 10_000;

export class McpConnection extends SessionRequests {
  readonly id: string;
  readonly definition: ServerDefinition;
  readonly log: ServerLog;
  /** Every message to and from the server, across its sessions. */
  readonly trace: ServerTrace;
  protected readonly services: ConnectionServices;
  private readonly hooks: ConnectionHooks;
  private readonly policy: RestartPolicy;
  protected status: ServerStatus;
  protected session: Session | undefined;
  protected catalog: Catalog = emptyCatalog();
  protected readonly toolChanges = new AnnouncedToolChanges();
  /** Every start and stop is a new attempt: a superseded one's callbacks are ignored, its start called off. */
  private readonly attempts = new Attempts();
  private consecutiveFailures = 0;
  /** Set once the host quits: from then on nothing starts the server again. */
  private stoppedForGood = false;
  private restartTimer: NodeJS.Timeout | undefined;
  private healthyTimer: NodeJS.Timeout | undefined;
  private stopKeepAlive: () => void = () => undefined;
  private readonly opener: SessionOpener;
  private readonly authorization: RemoteAuthorization | undefined;
  private readonly settled = new StatusWaiters();
  protected readonly signInsLost = new WeakMap<Session, string>();

  constructor(definition: ServerDefinition, services: ConnectionServices, hooks: ConnectionHooks) {
    super();
    this.id = definition.id;
    this.definition = definition;
    this.services = services;
    this.hooks = hooks;
    this.policy = services.restartPolicy ?? defaultRestartPolicy;
    this.log = new ServerLog(definition.id, (line) => hooks.onLog(line));
    this.trace = new ServerTrace(definition.id, { announce: (messages, skipped) => hooks.onTrace?.(messages, skipped) });
    this.authorization =
      definition.transport === 'stdio'
        ? undefined
        : services.authorization?.(definition, {
            onChange: () => this.emitChange(),
            log: (level, text) => this.log.add(level, 'host', text),
            signInLost: (message) => this.onSignInLost(message),
          });
    const authorization = this.authorization;
    // The opener reads what it needs of the services (limits, eras, the gate, secrets, the sandbox).
    this.opener = new SessionOpener(definition, services, (name) => toolNamed(this.catalog, name), authorization ? (next) => authorization.wrapFetch(next) : undefined);
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

  /** Starts the server unless it is disabled or stopped for good. Never rejects: failures become the error state. */
  start(): void {
    if (this.stoppedForGood) return;
    if (this.definition.disabled) {
      this.setStatus({ kind: 'disabled' });
      return;
    }
    // Nothing runs, and nothing is contacted, that the person did not approve or the policy forbids.
    const hold = this.services.launchGate?.check(this.definition);
    if (hold) {
      this.setStatus(hold);
      return;
    }
    this.consecutiveFailures = 0;
    void this.launch();
  }

  /**
   * The gate's answer may have changed (the organisation's policy did): a server it holds now stops and
   * says why; one it held only for its policy and lets through now starts.
   */
  reconsider(): void {
    if (this.definition.disabled) return;
    const hold = this.services.launchGate?.check(this.definition);
    if (hold) {
      if (!sameHold(this.status, hold)) void this.endSession(hold);
    } else if (this.status.kind === 'blocked') this.start();
  }

  /** What the person's Restart button does (and new roots do): forget past failures and start afresh. */
  async restart(): Promise<void> {
    await this.stop('the server was restarted before it answered');
    this.start();
  }

  protected addressContext(): { address?: string } {
    return this.definition.transport === 'stdio' ? {} : { address: this.definition.url };
  }

  /** `reason`: what a request still waiting for its answer fails with (Atrium ended it, not the server). */
  async stop(reason?: string): Promise<void> {
    await this.endSession(this.definition.disabled ? { kind: 'disabled' } : { kind: 'stopped' }, reason);
  }

  /** The host is quitting: the server stops, and nothing under way (a restart for new roots, a retry) starts it again. */
  async stopForGood(): Promise<void> {
    this.stoppedForGood = true;
    await this.stop();
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
      const failure = await failureOf(this.id, error);
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

  /** Resolves once the server is ready, has failed (error or waiting to restart), is held, or is off. */
  whenSettled(): Promise<ServerStatus> {
    return this.settled.until(() => (this.status.kind === 'starting' ? undefined : this.status));
  }

  /** Resolves once the server is up again or has stopped trying: as whenSettled, but past its restarts after a crash. */
  whenBack(): Promise<ServerStatus> {
    return this.settled.until(() => (this.status.kind === 'starting' || this.status.kind === 'restarting' ? undefined : this.status));
  }

  protected async reconnectAfterExpiry(expired: Session): Promise<Session> {
    const generation = this.attempts.current;
    expired.retire();
    void expired.close();
    const session = await this.connect(generation);
    if (!this.attempts.isCurrent(generation)) {
      await session.close();
      throw new ServerError(this.id, 'unavailable', `${this.id}: the server was stopped`);
    }
    this.session = session;
    return session;
  }

  private async launch(): Promise<void> {
    if (this.stoppedForGood) return;
    const generation = this.attempts.next();
    this.clearTimers();
    // Trying again: why the last attempt failed stays in view while this one runs.
    const lastError = this.status.kind === 'restarting' && this.consecutiveFailures > 0 ? this.status.lastError : undefined;
    this.setStatus({ kind: 'starting', attempt: this.consecutiveFailures + 1, ...(lastError !== undefined ? { lastError } : {}) });
    try {
      const session = await this.connect(generation);
      if (!this.attempts.isCurrent(generation)) {
        await session.close();
        return;
      }
      this.session = session;
      // The first listing answers every change the server announced before it began.
      const listing = this.toolChanges.listingStarts();
      this.catalog = await fetchCatalog(session.client, { ...this.listOptions(), debug: (text) => this.log.add('debug', 'host', text) });
      this.toolChanges.listingEnded(listing);
      if (!this.attempts.isCurrent(generation)) return;
      this.setStatus({ kind: 'ready', since: Date.now() });
      // A change announced while the first listing ran found the connection not ready yet: listed now.
      if (this.toolChanges.pending) void this.refreshList('tools', generation);
      this.log.add('info', 'host', `ready: ${session.describeForLog()}`);
      if (this.policy.healthyAfterMs < 2 ** 31) {
        this.healthyTimer = setTimeout(() => (this.consecutiveFailures = 0), this.policy.healthyAfterMs);
        this.healthyTimer.unref();
      }
      if (session.answersPing) {
        this.stopKeepAlive = keepSessionAlive(session, { intervalMs: this.services.keepAliveMs, log: this.log, current: () => this.attempts.isCurrent(generation) && session === this.session });
      }
    } catch (error) {
      if (!this.attempts.isCurrent(generation)) return;
      if (error instanceof LaunchHeldError) {
        // Not a failure to retry: it waits for the person (or the policy), as a new definition does.
        this.log.add('notice', 'host', error.message);
        this.clearTimers();
        this.setStatus(error.hold);
        return;
      }
      const failed = this.session;
      this.session = undefined;
      if (failed) void failed.close();
      const message = (await failureOf(this.id, error, { ...(failed?.closedReason ? { closedReason: failed.closedReason } : {}), ...this.addressContext() })).message;
      if (!this.attempts.isCurrent(generation)) return;
      this.log.add('error', 'host', message);
      if (findAuthorizationFailure(error) || error instanceof SandboxUnavailableError || isLastingLaunchFailure(error)) this.failWithoutRestart(error, message);
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
  private async endSession(status: ServerStatus, reason = 'the server was stopped before it answered'): Promise<void> {
    this.attempts.next();
    this.clearTimers();
    const session = this.session;
    this.session = undefined;
    this.catalog = emptyCatalog();
    this.toolChanges.reset();
    this.setStatus(status);
    if (!session) return;
    session.closedReason ??= reason;
    await session.close();
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
      notWanted: this.attempts.signal,
      services: this.services,
      definition: this.definition,
      log: this.log,
      trace: this.trace,
      connectTimeoutMs,
      probeTimeoutMs: Math.min(PROBE_TIMEOUT_MS, connectTimeoutMs / 2),
      onClosed: (session: Session) => this.onSessionClosed(session, generation),
      onListChanged: (kind: ListKind) => void this.refreshList(kind, generation),
      // Only a server that declared it announces changes is listed again (the SDK skips the others).
      onToolsChangeAnnounced: () => {
        if (this.session?.client.getServerCapabilities()?.tools?.listChanged) this.toolChanges.announce();
      },
      onResourceUpdated: (uri: string) => this.hooks.onResourceUpdated(uri),
      requestTimeoutMs: () => this.requestTimeout(),
    };
    return this.opener.open(options, () => this.attempts.isCurrent(generation));
  }

  private listOptions() {
    return { timeoutMs: this.requestTimeout(), warn: (text: string) => this.log.add('warning', 'host', text) };
  }

  private async refreshList(kind: ListKind, generation: number): Promise<void> {
    const session = this.session;
    if (!session || !this.attempts.isCurrent(generation) || this.status.kind !== 'ready') return;
    const mark = kind === 'tools' ? this.toolChanges.listingStarts() : 0;
    try {
      const list = await fetchList(session.client, kind, this.listOptions());
      if (!this.attempts.isCurrent(generation)) return;
      // Many servers announce a change as they start, or after any registration: one that changed nothing
      // is not logged as a change (the log said "tools changed" twice after every start of such a server).
      const unchanged = JSON.stringify(this.catalog[kind]) === JSON.stringify(list);
      setList(this.catalog, kind, list);
      this.log.add(unchanged ? 'debug' : 'info', 'host', unchanged ? `${kind} listed again as the server said they changed: as they were (${list.length})` : `${kind} changed: now ${list.length}`);
      this.emitChange();
      this.hooks.onListChanged(kind);
    } catch (error) {
      this.log.add('warning', 'host', `refreshing ${kind} failed: ${(error as Error).message}`);
    } finally {
      if (kind === 'tools') this.toolChanges.listingEnded(mark);
    }
  }

  private onSessionClosed(session: Session, generation: number): void {
    if (!this.attempts.isCurrent(generation) || session !== this.session || session.retired) return;
    // A start still under way (its lists being read) fails by itself, with this session's reason, and is
    // counted once, there: counted here too, one start was two attempts and its reason was lost.
    if (this.status.kind !== 'ready') return;
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
    const generation = this.attempts.current;
    this.setStatus({ kind: 'restarting', attempt: this.consecutiveFailures + 1, retryAt: Date.now() + delay, lastError: reason });
    this.restartTimer = setTimeout(() => {
      if (this.attempts.isCurrent(generation)) void this.launch();
    }, delay);
  }

  private clearTimers(): void {
    clearTimeout(this.restartTimer);
    clearTimeout(this.healthyTimer);
    this.stopKeepAlive();
    this.restartTimer = this.healthyTimer = undefined;
  }

  private setStatus(status: ServerStatus): void {
    this.status = status;
    this.emitChange();
    this.settled.changed();
  }

  private emitChange(): void {
    this.hooks.onChange(this.snapshot);
  }
}
