// The owner of every local server's sandbox in this host: it encloses each launch (the connection's
// LaunchSandbox), derives the profile at each start from the roots of that moment, keeps what the
// sandbox blocked per server, and announces each server's sandbox when it changes. A server that cannot
// be sandboxed for want of a tool does not start: the person installs the tool or chooses to run it
// without the sandbox.

import type { RootEntry } from '../../../../shared/domain.ts';
import type { ServerDefinition, StdioServerDefinition } from '../../config/serverConfig.ts';
import type { LaunchSandbox } from '../../connection/connectionServices.ts';
import { SandboxUnavailableError } from '../../connection/connectionServices.ts';
import { buildServerEnvironment } from '../../stdio/serverEnvironment.ts';
import type { StdioProcessHooks, StdioServerLaunch } from '../../stdio/stdioProcessTransport.ts';
import type { Blocked } from './blockedAccess.ts';
import { proxyRefusal, stderrHint } from './blockedAccess.ts';
import type { BlockedAccess, SandboxSummary } from './contract/sandboxContract.ts';
import { gatherSandboxFacts, rootFolders } from './sandboxFacts.ts';
import type { SandboxFacts, SandboxProfile } from './sandboxProfile.ts';
import { deriveSandboxProfile, describeSandboxProfile, sandboxReason, unsandboxedByDefinition } from './sandboxProfile.ts';
import { onRefusal, SandboxFailure, wrapLaunch } from './sandboxRuntime.ts';
import { checkSandboxTools } from './sandboxTools.ts';
import type { ToolCheck } from './sandboxTools.ts';

export interface SandboxesOptions {
  /** Atrium's data folder: hidden from every server. */
  dataFolder: string;
  /** The roots servers see now. */
  roots: { list(): readonly RootEntry[] };
  /** Where a server runs when its definition names no folder. */
  defaultFolder: string;
  /** The person's home folder, when not the process's (tests). */
  home?: string;
  /** Whether the sandbox's tools are there, when not this machine's answer (tests of a machine without them). */
  tools?: ToolCheck;
}

/** The most blocked things kept per server: the latest. */
const MAX_BLOCKED = 50;
/** How much of a failed call's words is looked at: where a server names what it could not touch. */
const FAILURE_TEXT_LOOKED_AT = 8 * 1024;

/** A server's profile, with the facts it was derived from when any were needed. */
type Decision = { profile: SandboxProfile; facts?: SandboxFacts };

interface Launched {
  profile: Extract<SandboxProfile, { kind: 'sandboxed' }>;
  roots: string[];
}

interface ServerRecord {
  summary: Omit<SandboxSummary, 'blocked'>;
  blocked: Map<string, BlockedAccess>;
  /** The sandbox it runs in now, while it runs. */
  launched?: Launched;
}

export class ServerSandboxes implements LaunchSandbox {
  readonly #options: SandboxesOptions;
  readonly #servers = new Map<string, ServerRecord>();
  /** Launch id → server, for the proxy's refusals. */
  readonly #launches = new Map<string, string>();
  readonly #listeners = new Set<(summary: SandboxSummary) => void>();
  readonly #stopRefusals: () => Promise<void>;
  #closed = false;

  constructor(options: SandboxesOptions) {
    this.#options = options;
    this.#stopRefusals = onRefusal(({ id, line }) => {
      const serverId = this.#launches.get(id);
      const blocked = serverId === undefined ? undefined : proxyRefusal(line);
      if (serverId !== undefined && blocked) this.#block(serverId, blocked);
    });
  }

  async enclose(definition: StdioServerDefinition, launch: StdioServerLaunch, hooks: StdioProcessHooks): Promise<{ launch: StdioServerLaunch; hooks: StdioProcessHooks }> {
    const decided = await this.#decide(definition, () => launch.env);
    const record = this.#record(definition.id, summaryOf(definition.id, decided));
    const { profile } = decided;
    if (profile.kind === 'unavailable') {
      this.#announce(definition.id);
      throw new SandboxUnavailableError(`${definition.id} cannot start in its sandbox: ${profile.reason} ${profile.install} Or choose to run it without the sandbox.`);
    }
    if (profile.kind === 'unsandboxed' || !decided.facts) {
      this.#announce(definition.id);
      return { launch, hooks };
    }
    const { facts } = decided;
    // Closed (the host is quitting) while this start was decided: no proxy is set up that nothing would end.
    if (this.#closed) throw new SandboxUnavailableError(`${definition.id} was not started: Atrium is quitting`);
    const tools = this.#options.tools ?? checkSandboxTools();
    let wrapped;
    try {
      wrapped = await wrapLaunch(launch, profile, 'tools' in tools ? tools.tools : undefined, facts.workingFolder);
    } catch (error) {
      if (!(error instanceof SandboxFailure)) throw error;
      record.summary = { ...record.summary, state: 'cannot-start', reason: `Cannot start in its sandbox: ${error.message}` };
      this.#announce(definition.id);
      throw new SandboxUnavailableError(`${definition.id} cannot start in its sandbox: ${error.message}`);
    }
    const launched: Launched = { profile, roots: facts.roots };
    record.launched = launched;
    this.#launches.set(wrapped.id, definition.id);
    this.#announce(definition.id);
    let afterProxyNote = false;
    return {
      launch: wrapped.launch,
      hooks: {
        onStderrLine: (line) => {
          // Node's note that its proxy support is experimental is the sandbox's doing (NODE_USE_ENV_PROXY), not
          // the server's words, and nothing the person can act on: left out of the server's log (it was once
          // logged as a warning that the server wrote something else than JSON-RPC on its stdout).
          const proxyNote = /^\(node:\d+\) \[UNDICI-EHPA\]/.test(line) || (afterProxyNote && line.startsWith('(Use `node --trace-warnings'));
          afterProxyNote = /^\(node:\d+\) \[UNDICI-EHPA\]/.test(line);
          if (proxyNote) return;
          hooks.onStderrLine(line);
          const blocked = stderrHint(line, profile, facts.dataFolder);
          if (blocked) this.#block(definition.id, blocked);
        },
        onNoise: (line) => hooks.onNoise(line),
        onExit: (info) => {
          wrapped.release();
          this.#launches.delete(wrapped.id);
          if (record.launched === launched) delete record.launched;
          hooks.onExit(info);
        },
      },
    };
  }

  /** A local server's sandbox as it stands: the one it runs in, else the one it would start with now. */
  async summary(definition: ServerDefinition): Promise<SandboxSummary | undefined> {
    if (definition.transport !== 'stdio') return undefined;
    const current = this.#servers.get(definition.id);
    if (!current?.launched) this.#record(definition.id, summaryOf(definition.id, await this.#decide(definition, () => buildServerEnvironment(definition.env))));
    return this.#view(definition.id);
  }

  /** The servers running in a sandbox made for other roots than the ones of now: they start again. */
  madeForOtherRoots(): string[] {
    const running = [...this.#servers].filter(([, record]) => record.launched !== undefined);
    if (running.length === 0) return [];
    const now = JSON.stringify(rootFolders(this.#options.roots.list()));
    return running.filter(([, record]) => JSON.stringify(record.launched?.roots) !== now).map(([serverId]) => serverId);
  }

  /**
   * What a failed call of a server said (a result marked as an error, or the error it answered with): a
   * file it could not write or read is listed as blocked where its sandbox explains it, as its error lines
   * on stderr are. Many servers (server-filesystem among them) say a refused write only in the result.
   */
  callFailed(serverId: string, said: string): void {
    const launched = this.#servers.get(serverId)?.launched;
    if (!launched) return;
    for (const line of said.slice(0, FAILURE_TEXT_LOOKED_AT).split('\n')) {
      const blocked = stderrHint(line, launched.profile, this.#options.dataFolder);
      if (blocked) this.#block(serverId, blocked);
    }
  }

  /** The blocked access the person chose to allow leaves the list (the server starts again with it). */
  forgetBlocked(serverId: string, allow: string): void {
    const record = this.#servers.get(serverId);
    if (!record) return;
    for (const [key, blocked] of record.blocked) if (blocked.allow === allow) record.blocked.delete(key);
  }

  /** What the sandbox blocked for this server and offers to allow, by what allowing it adds. */
  offered(serverId: string, kind: BlockedAccess['kind'], allow: string): boolean {
    return [...(this.#servers.get(serverId)?.blocked.values() ?? [])].some((blocked) => blocked.kind === kind && blocked.allow === allow);
  }

  forget(serverId: string): void {
    this.#servers.delete(serverId);
  }

  onChange(listener: (summary: SandboxSummary) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** When the host quits, after its servers have stopped: the proxy and its bridges end with the last host of the process. */
  close(): Promise<void> {
    this.#closed = true;
    return this.#stopRefusals();
  }

  /**
   * The profile the server starts with, and the facts it was derived from when it is sandboxed. A server
   * unsandboxed by its definition (or the OS) is decided without a look at the disk: its start pays nothing
   * for a sandbox it does not get. `environment` gives the environment it gets (its PATH finds its program).
   */
  async #decide(definition: StdioServerDefinition, environment: () => Readonly<Record<string, string>> | Promise<Readonly<Record<string, string>>>): Promise<Decision> {
    const unsandboxed = unsandboxedByDefinition(definition, process.platform);
    if (unsandboxed) return { profile: unsandboxed };
    const facts = await gatherSandboxFacts(definition, this.#context(await environment()));
    return { profile: deriveSandboxProfile(definition, facts), facts };
  }

  #context(environment: Readonly<Record<string, string>>) {
    const { dataFolder, roots, defaultFolder, home, tools } = this.#options;
    return { dataFolder, roots: roots.list(), environment, defaultFolder, ...(home !== undefined ? { home } : {}), ...(tools ? { tools } : {}) };
  }

  #record(serverId: string, summary: Omit<SandboxSummary, 'blocked'>): ServerRecord {
    const record = this.#servers.get(serverId) ?? { summary, blocked: new Map() };
    record.summary = summary;
    this.#servers.set(serverId, record);
    return record;
  }

  #block(serverId: string, blocked: Blocked): void {
    const record = this.#servers.get(serverId);
    if (!record) return;
    const key = `${blocked.kind} ${blocked.target}`;
    const seen = record.blocked.get(key);
    record.blocked.delete(key);
    record.blocked.set(key, { ...blocked, count: (seen?.count ?? 0) + 1, at: Date.now() });
    // The oldest goes first: a server that keeps knocking cannot grow the list without end.
    while (record.blocked.size > MAX_BLOCKED) record.blocked.delete(record.blocked.keys().next().value as string);
    this.#announce(serverId);
  }

  #view(serverId: string): SandboxSummary | undefined {
    const record = this.#servers.get(serverId);
    return record ? { ...record.summary, blocked: [...record.blocked.values()].reverse() } : undefined;
  }

  #announce(serverId: string): void {
    const view = this.#view(serverId);
    if (view) for (const listener of this.#listeners) listener(view);
  }
}

function summaryOf(serverId: string, { profile, facts }: Decision): Omit<SandboxSummary, 'blocked'> {
  return {
    serverId,
    state: profile.kind === 'sandboxed' ? 'sandboxed' : profile.kind === 'unavailable' ? 'cannot-start' : 'not-sandboxed',
    reason: sandboxReason(profile),
    touches: describeSandboxProfile(profile, facts),
    ...(profile.kind === 'unavailable' ? { install: profile.install } : {}),
  };
}
