// The requests a connection makes on its live session — a tool call, a resource read, a prompt, a
// completion, subscriptions, the log level — and what a failed one means in words: cancelled, the
// sign-in lost, the HTTP session expired (sent once more on a new one), or the server's error. McpConnection
// extends it with the session's lifecycle; a request only ever sees the session that is live now.

import type { CallToolRequest, CallToolResult, Client, CompleteResult, GetPromptResult, LoggingLevel, ReadResourceResult } from '@modelcontextprotocol/client';
import type { CompletionReference } from '../../../shared/contract.ts';
import type { LogLevel, ProgressUpdate, ServerStatus } from '../../../shared/domain.ts';
import { describeBlock } from '../../../shared/installs.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import type { ServerLog } from '../serverLog.ts';
import type { AnnouncedToolChanges } from './announcedToolChanges.ts';
import type { ConnectionServices } from './connectionServices.ts';
import type { Catalog } from './serverCatalog.ts';
import { toolNamed } from './serverCatalog.ts';
import { ServerError } from './serverError.ts';
import { VIEW_PAGE_READ } from './neutralisingTransport.ts';
import type { Session } from './session.ts';
import type { ToolCallOptions } from './toolCallChannel.ts';
import { linkCall } from '../trace/traceLink.ts';
import type { TaskPreference } from '../extensions/tasks/sessionTasks.ts';
import type { TaskReference } from '../extensions/tasks/taskRun.ts';
import { TaskRun } from '../extensions/tasks/taskRun.ts';

export interface CallOptions {
  signal?: AbortSignal;
  onProgress?: (update: Omit<ProgressUpdate, 'serverId' | 'callId'>) => void;
  timeoutMs?: number;
  /** The pipeline's call and, for a model's call, its conversation: the trace links the call's messages to them. */
  callId?: string;
  conversationId?: string;
  /**
   * Whether the call may become a task (where the server offers tasks): `prefer` for a tool that may run as
   * one (`optional`), where the person may want to keep chatting meanwhile.
   */
  task?: TaskPreference;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 60_000;
const DEFAULT_MAX_CALL_MS = 30 * 60_000;
/** The longest a call waits for a change of tools the server announced to be listed: past it, the call goes on with what is known. */
const MAX_TOOLS_SETTLE_MS = 10_000;

export abstract class SessionRequests {
  abstract readonly id: string;
  abstract readonly definition: ServerDefinition;
  abstract readonly log: ServerLog;
  protected abstract readonly services: ConnectionServices;
  protected abstract status: ServerStatus;
  protected abstract session: Session | undefined;
  protected abstract catalog: Catalog;
  protected abstract readonly toolChanges: AnnouncedToolChanges;
  /** Sessions ended because the server refused their sign-in: requests still in flight say so. */
  protected abstract readonly signInsLost: WeakMap<Session, string>;
  /** The log level asked of the server; sent with each request to a 2026-07-28 server. */
  protected logLevel: LogLevel = 'info';

  /** A remote server's address, so a failure to reach it can say where Atrium looked. */
  protected abstract addressContext(): { address?: string };
  /** A new session in place of one the server expired (spec 002), or a failure when the server was stopped meanwhile. */
  protected abstract reconnectAfterExpiry(expired: Session): Promise<Session>;

  /** A call whose result is awaited, also when it runs as a task. */
  callTool(name: string, args: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<CallToolResult> {
    return this.startToolCall(name, args, options).then((started) => (started instanceof TaskRun ? this.resultOfTask(started, name) : started));
  }

  /**
   * A call that may become a task: its result, or the task it started (a tool that must run as one, or may
   * with `task: 'prefer'`; on 2026-07-28 whenever the server so decides).
   */
  startToolCall(name: string, args: Record<string, unknown> | undefined, options: CallOptions = {}): Promise<CallToolResult | TaskRun> {
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
      if (options.callId !== undefined) linkCall(params, options.conversationId === undefined ? { callId: options.callId } : { callId: options.callId, conversationId: options.conversationId });
      return session.startToolCall(params, callOptions, tool, options.task ?? 'allow');
    });
  }

  /** Follows again a task this server started before (kept across a restart). */
  resumeTask(reference: TaskReference, toolName: string): Promise<TaskRun> {
    return this.withSession(`task ${reference.taskId}`, undefined, (session) => session.resumeTask(reference, toolNamed(this.catalog, toolName)));
  }

  /** The server's own list of its tasks (tasks/list), where it offers one. */
  listTasks(): Promise<{ taskId: string; status: string; statusMessage?: string }[]> {
    return this.withSession('list tasks', undefined, (session) => session.listTasks());
  }

  /** A task's end as a call's: its result, or a ServerError saying why it has none. */
  private async resultOfTask(run: TaskRun, name: string): Promise<CallToolResult> {
    const end = await run.ended;
    if (end.kind === 'completed') return end.result;
    const what = `tool "${name}" (task ${run.taskId})`;
    if (end.kind === 'cancelled') throw new ServerError(this.id, 'cancelled', `${this.id}: ${what}: the task was cancelled${end.reason ? `: ${end.reason}` : ''}`);
    throw new ServerError(this.id, end.kind === 'interrupted' ? 'unavailable' : 'failed', `${this.id}: ${what}: ${end.message}`);
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

  /**
   * An extension's request on the live session (Skills: its listing, one entry, a verified read), made with
   * the connection's own time limit and its handling of a failure: not ready, cancelled, the sign-in lost,
   * the HTTP session expired.
   */
  extensionRequest<T>(what: string, signal: AbortSignal | undefined, run: (client: Client, options: { timeout: number; signal?: AbortSignal }) => Promise<T>): Promise<T> {
    return this.withSession(what, signal, (session) => run(session.client, { timeout: this.requestTimeout(), ...(signal ? { signal } : {}) }));
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
    return this.toolChanges.settled(Math.min(this.requestTimeout(), MAX_TOOLS_SETTLE_MS));
  }

  /** Why a request cannot be made now, or undefined when the server is ready for it. */
  notReadyError(): ServerError | undefined {
    if (this.session && this.status.kind === 'ready') return undefined;
    return new ServerError(this.id, 'unavailable', `${this.id}: the server is not ready (${describeStatus(this.status)})`);
  }

  protected requestTimeout(): number {
    return this.definition.requestTimeoutMs ?? this.services.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  /**
   * Runs a request on the current session, and turns its failure into a ServerError a person can read.
   * Not an async function: on the success path (every tool call of every agent step) the request's own
   * promise gets one handler, not the extra promises and turns of an async wrapper.
   */
  protected withSession<T>(what: string, signal: AbortSignal | undefined, run: (session: Session) => Promise<T>): Promise<T> {
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
        throw fresh.failureOf(retryError, { what, ...this.addressContext() });
      }
    }
    throw session.failureOf(error, { what, ...this.addressContext() });
  }
}

export function describeStatus(status: ServerStatus): string {
  switch (status.kind) {
    case 'error':
    case 'needs-sign-in':
      return status.message;
    case 'restarting':
      return `restarting after: ${status.lastError}`;
    case 'starting':
      return status.lastError !== undefined ? `starting again after: ${status.lastError}` : 'starting';
    case 'needs-approval':
      return `not started: it is ${status.reason === 'new' ? 'new' : 'changed since you approved it'} and waits for your approval`;
    case 'blocked':
      return `not started: ${describeBlock(status.block)}`;
    default:
      return status.kind;
  }
}
