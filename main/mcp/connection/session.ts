// One live connection to a server: an SDK Client bound to one transport, from discovery / initialize to
// close. A server that restarts gets a new Session; the McpConnection around it survives.

import { basename } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client, INVALID_PARAMS, LOG_LEVEL_META_KEY, ProtocolError, SdkError, SdkErrorCode, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolRequest, CallToolResult, ClientCapabilities, McpSubscription, PriorDiscovery, Tool, Transport } from '@modelcontextprotocol/client';
import { checkStructuredContent } from './callToolResultShape.ts';
import type { ToolCallChannel } from './toolCallChannel.ts';
import type { ToolCallOptions } from './toolCallChannel.ts';
import type { ListKind } from '../../../shared/contract.ts';
import { isLogLevel } from '../../../shared/domain.ts';
import type { LogLevel, ProtocolEra, RootEntry, ServerSnapshot } from '../../../shared/domain.ts';
import { durationText } from '../../../shared/durationText.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import type { ServerLog } from '../serverLog.ts';
import { ServerLaunchError } from '../stdio/launchFailure.ts';
import { ServerError } from './serverError.ts';
import { toServerError } from './connectionErrors.ts';
import { sessionLayers } from './sessionLayers.ts';
import type { ServerTrace } from '../trace/serverTrace.ts';
import { ServerLastWords, downloadHint } from './serverLastWords.ts';
import type { ConnectionServices } from './connectionServices.ts';
import { declaredCapabilities, declaredExtensions } from '../extensions/connectionExtensions.ts';
import { SessionTasks } from '../extensions/tasks/sessionTasks.ts';
import type { TaskPreference } from '../extensions/tasks/sessionTasks.ts';
import type { TaskReference, TaskRun } from '../extensions/tasks/taskRun.ts';
import { receiveTasks } from '../extensions/tasks/taskReceiver.ts';
import { paramHeaders } from './mcpRequestHeaders.ts';
import { describeTarget } from '../config/serverConfig.ts';
import { StrayOutput } from './strayOutput.ts';
import { InvalidServerRequestError, RequestRefusedError } from './connectionServices.ts';
import type { StdioHooks } from './openStdioTransport.ts';

export interface SessionOptions {
  services: ConnectionServices;
  definition: ServerDefinition;
  log: ServerLog;
  /** Sees every message in and out, under every other layer. */
  trace: ServerTrace;
  connectTimeoutMs: number;
  probeTimeoutMs: number;
  /** Aborted when the session being opened is no longer wanted (the server was stopped or restarted meanwhile). */
  notWanted?: AbortSignal;
  onClosed(session: Session): void;
  onListChanged(kind: ListKind): void;
  /** The server said its tools changed: heard at once, before the SDK asks for the new list. */
  onToolsChangeAnnounced(): void;
  onResourceUpdated(uri: string): void;
  /** The time limit of one request, read when it is sent. */
  requestTimeoutMs(): number;
}

/** JSON-RPC error code the spec gives for a person rejecting a sampling request. */
const USER_REJECTED = -1;
export class Session {
  readonly client: Client;
  /** Why the connection ended, in words for the person; set by whoever learns it first. */
  closedReason: string | undefined;
  /** A retired session was replaced on purpose (HTTP session expiry); its close is not a crash. */
  retired = false;
  /**
   * The discovery probe went unanswered within its time limit and the 2025-era handshake followed: a
   * 2025-era server that ignores the probe, or a modern one slow to start (a first `npx` download). Not a
   * verdict to keep on its own (sessionOpener.ts).
   */
  discoveryUnanswered = false;
  private transport: Transport | undefined;
  /** tools/call on a 2025-era connection; made with the transport, used once the era is known. */
  private toolCalls: ToolCallChannel | undefined;
  /** The server's tasks, when it offers them (either revision); undefined otherwise. */
  private tasks: SessionTasks | undefined;
  private readonly capabilities: ClientCapabilities;
  private closing: Promise<void> | undefined;
  private sessionIdAtConnect: string | undefined;
  private readonly options: SessionOptions;
  private readonly subscribedUris = new Set<string>();
  private listenStream: McpSubscription | undefined;

  private constructor(options: SessionOptions) {
    this.options = options;
    const extensions = declaredExtensions(options.services);
    this.capabilities = {
      roots: { listChanged: true },
      sampling: {},
      elicitation: { form: {}, url: {} },
      ...declaredCapabilities(options.services),
      ...(extensions ? { extensions } : {}),
    };
    this.client = createClient(options, this.capabilities);
  }

  static async open(options: SessionOptions, makeTransport: (hooks: StdioHooks) => Promise<Transport>, prior: PriorDiscovery | undefined): Promise<Session> {
    const session = new Session(options);
    const { log } = options;
    session.transport = await makeTransport({
      onStderrLine: (line) => {
        log.add('info', 'stderr', line);
        session.stderr.remember(line);
      },
      onNoise: (line) => {
        log.add('warning', 'host', `ignored a line on stdout that is not JSON-RPC: ${line}`);
        session.strayOutput.note(line);
      },
      onExit: ({ code, signal }) => {
        if (session.closing) return;
        session.closedReason ??= `${signal ? `the server process was killed (${signal})` : `the server process exited with code ${code}`}${session.stderr.lastWords()}`;
      },
    });
    const toolCalls = sessionLayers(session.transport, options.trace, log, () => options.onToolsChangeAnnounced());
    session.toolCalls = toolCalls;
    session.client.onclose = () => options.onClosed(session);
    session.client.onerror = (error) => log.add('warning', 'host', `protocol: ${error.message}`);
    // One deadline for the whole start: a discovery probe that times out falls back to initialize, and
    // both together must still fit in the connect time limit.
    const deadline = AbortSignal.timeout(options.connectTimeoutMs);
    const handshakeStarted = performance.now();
    try {
      await session.client.connect(toolCalls, {
        timeout: options.connectTimeoutMs,
        // A stop while it starts ends the start at once: its process is not left running until the time limit.
        signal: options.notWanted ? AbortSignal.any([deadline, options.notWanted]) : deadline,
        ...(prior ? { prior } : {}),
      });
    } catch (error) {
      session.retired = true;
      await session.close();
      if (error instanceof ServerLaunchError && error.detail) log.add('info', 'host', error.detail);
      if (options.notWanted?.aborted) throw new ServerError(options.definition.id, 'unavailable', `${options.definition.id}: the server was stopped before it started`, { cause: error });
      if (deadline.aborted && !session.closedReason) {
        const id = options.definition.id;
        throw new ServerError(id, 'timeout', `${id}: no answer to discovery or initialize within the time limit (${durationText(options.connectTimeoutMs)})${downloadHint(options.definition)}${session.stderr.lastWords()}${session.strayOutput.said()}`, { cause: error });
      }
      // A process that exited during the handshake explains the failure better than "connection closed".
      if (session.closedReason) throw new ServerError(options.definition.id, 'unavailable', `${options.definition.id}: ${session.closedReason}`, { cause: error });
      throw error;
    }
    // A probe's timeout verdict comes no sooner than its time limit; a refusal comes before it.
    session.discoveryUnanswered = prior === undefined && session.era === 'legacy' && performance.now() - handshakeStarted >= options.probeTimeoutMs;
    if (session.transport instanceof StreamableHTTPClientTransport) session.sessionIdAtConnect = session.transport.sessionId;
    session.tasks = await session.openTasks(toolCalls);
    return session;
  }

  /** A request on this session that failed, in the person's words (with why the session closed, when it did). */
  failureOf(error: unknown, context: { what?: string; address?: string }): ServerError {
    return toServerError(this.options.definition.id, error, { ...context, ...(this.closedReason ? { closedReason: this.closedReason } : {}) });
  }

  private openTasks(channel: ToolCallChannel): Promise<SessionTasks | undefined> {
    const { services, definition, log } = this.options;
    return SessionTasks.open({
      serverId: definition.id,
      client: this.client,
      channel,
      capabilities: this.capabilities as Parameters<typeof SessionTasks.open>[0]['capabilities'],
      clientInfo: services.clientInfo,
      // A kept task is followed again only on the server it was started on: its name and where it is.
      endpoint: { server: definition.id, target: describeTarget(definition) },
      elicitation: services.elicitation,
      sampling: services.sampling,
      roots: services.roots,
      validator: services.validator,
      requestTimeoutMs: () => this.options.requestTimeoutMs(),
      ...(services.maxCallMs !== undefined ? { resultWaitMs: services.maxCallMs } : {}),
      log: (text, level) => log.add(level ?? 'info', 'host', text),
    });
  }

  /** What the server last wrote to stderr: why it died is usually there, not in its exit code. */
  private readonly stderr = new ServerLastWords();
  /** What it wrote on stdout that is not JSON-RPC: why a start that failed may have failed. */
  private readonly strayOutput = new StrayOutput();

  /** The server's process id, for a stdio server that is running. */
  get pid(): number | undefined {
    const pid = (this.transport as { pid?: unknown } | undefined)?.pid;
    return typeof pid === 'number' ? pid : undefined;
  }

  /**
   * Whether keep-alive pings may be sent: the 2026-07-28 revision has no ping (the SDK refuses one), so
   * pinging would only count misses and restart a healthy server; a server that is gone fails the next request.
   */
  get answersPing(): boolean {
    return this.era !== 'modern';
  }

  get era(): ProtocolEra {
    return this.client.getProtocolEra() === 'modern' ? 'modern' : 'legacy';
  }

  describe(): Partial<ServerSnapshot> {
    const info = this.client.getServerVersion();
    const instructions = this.client.getInstructions();
    const version = this.client.getNegotiatedProtocolVersion();
    return {
      era: this.era,
      ...(version ? { protocolVersion: version } : {}),
      ...(info ? { serverInfo: { name: info.name, version: info.version, ...(info.title ? { title: info.title } : {}) } } : {}),
      ...(instructions ? { instructions } : {}),
      capabilities: (this.client.getServerCapabilities() ?? {}) as Record<string, unknown>,
    };
  }

  describeForLog(): string {
    const info = this.client.getServerVersion();
    return `${info?.name ?? 'server'} ${info?.version ?? ''} over protocol ${this.client.getNegotiatedProtocolVersion() ?? '?'} (${this.era} era)`.replace(/\s+/g, ' ');
  }

  /** The era verdict to reuse on the next start, so a restart skips the discovery probe. */
  priorDiscovery(): PriorDiscovery | undefined {
    if (this.era === 'legacy') return { kind: 'legacy' };
    const discover = this.client.getDiscoverResult();
    return discover ? { kind: 'modern', discover } : undefined;
  }

  /**
   * tools/call. On a 2025-era connection it goes through Atrium's ToolCallChannel, whose answers skip the
   * SDK's per-message cost; on 2026-07-28 the SDK's callTool also drives input_required rounds and header
   * mirroring, so it is used as is. In both, the structuredContent is checked here against the tool's
   * outputSchema (compiled once), so a result that breaks it fails the same way in both eras, as Atrium's
   * refusal, not the server's error.
   */
  callTool(params: CallToolRequest['params'], options: ToolCallOptions, tool: Tool | undefined): Promise<CallToolResult> {
    const call =
      this.era === 'modern' || !this.toolCalls
        ? (this.client.callTool(params, { ...options, ...(tool ? { toolDefinition: { ...tool, outputSchema: undefined } } : {}) }) as Promise<CallToolResult>)
        : this.toolCalls.call(params, options);
    // Most tools declare no outputSchema; their calls skip the extra step.
    return tool?.outputSchema ? call.then((result) => this.withStructuredContentChecked(result, tool)) : call;
  }

  /**
   * A call that may become a task: through the tasks library where the server offers tasks and the call
   * may be one (its result, or the task it started), else an ordinary call.
   */
  startToolCall(params: CallToolRequest['params'], options: ToolCallOptions, tool: Tool | undefined, preference: TaskPreference): Promise<CallToolResult | TaskRun> {
    const tasks = this.tasks;
    if (!tasks?.handles(tool, preference)) return this.callTool(params, options, tool);
    const headers = this.era === 'modern' ? paramHeaders(tool, params.arguments) : {};
    return tasks.call(params.name, params.arguments, tool, {
      preference,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(params._meta ? { metadata: params._meta } : {}),
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
    });
  }

  /** Follows a task this server started before (kept across a restart) again. */
  resumeTask(reference: TaskReference, tool: Tool | undefined): Promise<TaskRun> {
    if (!this.tasks) return Promise.reject(new ServerError(this.options.definition.id, 'protocol', `${this.options.definition.id}: the server no longer offers tasks`));
    return this.tasks.resume(reference, tool);
  }

  /** The server's own list of its tasks, where it offers one. */
  listTasks(): Promise<{ taskId: string; status: string; statusMessage?: string }[]> {
    return this.tasks?.list() ?? Promise.resolve([]);
  }

  private withStructuredContentChecked(result: CallToolResult, tool: Tool): CallToolResult {
    const problem = checkStructuredContent(result, tool, this.options.services.validator);
    if (problem) throw new ServerError(this.options.definition.id, 'protocol', `${this.options.definition.id}: ${problem}`);
    return result;
  }

  /** `_meta` for a request: a 2026-07-28 server learns the wanted log level per request. */
  requestMeta(level: LogLevel): { _meta?: Record<string, unknown> } {
    return this.era === 'modern' ? { _meta: { [LOG_LEVEL_META_KEY]: level } } : {};
  }

  /**
   * Subscribes to a resource's updates: resources/subscribe in the 2025 era; in 2026-07-28 one
   * subscriptions/listen stream carries every subscribed URI, so it is reopened with the new set.
   */
  async subscribe(uri: string, timeoutMs: number): Promise<void> {
    if (this.era === 'legacy') {
      await this.client.subscribeResource({ uri }, { timeout: timeoutMs });
      this.subscribedUris.add(uri);
      return;
    }
    this.subscribedUris.add(uri);
    await this.reopenListenStream(timeoutMs);
  }

  async unsubscribe(uri: string, timeoutMs: number): Promise<void> {
    if (!this.subscribedUris.delete(uri)) return;
    if (this.era === 'legacy') await this.client.unsubscribeResource({ uri }, { timeout: timeoutMs });
    else await this.reopenListenStream(timeoutMs);
  }

  private async reopenListenStream(timeoutMs: number): Promise<void> {
    const previous = this.listenStream;
    this.listenStream = undefined;
    if (this.subscribedUris.size > 0) {
      this.listenStream = await this.client.listen({ resourceSubscriptions: [...this.subscribedUris] }, { timeout: timeoutMs });
    }
    await previous?.close();
  }

  /** Spec 002: HTTP 404 to a request that carried a session id means the server forgot the session. */
  isSessionExpiry(error: unknown): boolean {
    return this.sessionIdAtConnect !== undefined && error instanceof SdkHttpError && error.status === 404;
  }

  retire(): void {
    this.retired = true;
  }

  /** Ends the session: DELETE for an HTTP session (spec 002), then the transport's own shutdown. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const transport = this.transport;
      // Its tasks are followed no further here, and not cancelled: a remote server's go on without Atrium.
      await this.tasks?.close(this.closedReason ?? 'Atrium stopped following it').catch(() => undefined);
      if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined && !this.retired) {
        await transport.terminateSession().catch(() => undefined);
      }
      await this.client.close().catch(() => undefined);
    })();
    return this.closing;
  }
}

/** The SDK's word for a connection that closed (a process that ended during the handshake, among others). */
export function isConnectionClosed(error: unknown): boolean {
  return error instanceof SdkError && error.code === SdkErrorCode.ConnectionClosed;
}

function createClient(options: SessionOptions, capabilities: ClientCapabilities): Client {
  const { services, definition, log } = options;
  const serverId = definition.id;
  const client = new Client(services.clientInfo, {
    capabilities,
    versionNegotiation: { mode: 'auto', probe: { timeoutMs: options.probeTimeoutMs } },
    jsonSchemaValidator: services.validator,
    listChanged: {
      tools: { autoRefresh: false, debounceMs: 50, onChanged: () => options.onListChanged('tools') },
      prompts: { autoRefresh: false, debounceMs: 50, onChanged: () => options.onListChanged('prompts') },
      resources: {
        autoRefresh: false,
        debounceMs: 50,
        onChanged: () => {
          options.onListChanged('resources');
          options.onListChanged('resourceTemplates');
        },
      },
    },
  });

  client.setRequestHandler('roots/list', async () => {
    const roots = withOwnRoots(services.roots.list(), definition.roots ?? []);
    log.add('debug', 'host', `the server asked for roots; sent ${roots.length}`);
    return { roots };
  });
  client.setRequestHandler('sampling/createMessage', async (request, ctx) => {
    try {
      return await services.sampling.createMessage({ serverId, params: request.params, signal: ctx.mcpReq.signal, note: (text, level) => log.add(level ?? 'info', 'host', text) });
    } catch (error) {
      if (error instanceof InvalidServerRequestError) throw new ProtocolError(INVALID_PARAMS, error.message);
      if (error instanceof RequestRefusedError) throw new ProtocolError(USER_REJECTED, error.message);
      throw error;
    }
  });
  client.setRequestHandler('elicitation/create', async (request, ctx) => {
    try {
      return await services.elicitation.elicit({ serverId, params: request.params, signal: ctx.mcpReq.signal, note: (text, level) => log.add(level ?? 'info', 'host', text) });
    } catch (error) {
      if (error instanceof InvalidServerRequestError) {
        // The person never saw the request, so the server's log says what was refused and why.
        log.add('warning', 'host', error.message);
        throw new ProtocolError(INVALID_PARAMS, error.message);
      }
      if (error instanceof RequestRefusedError) throw new ProtocolError(USER_REJECTED, error.message);
      throw error;
    }
  });
  client.setNotificationHandler('notifications/message', (notification) => {
    const { level, logger, data } = notification.params;
    const text = typeof data === 'string' ? data : JSON.stringify(data);
    log.add(isLogLevel(level) ? level : 'info', 'server', logger ? `[${logger}] ${text}` : text);
  });
  client.setNotificationHandler('notifications/resources/updated', (notification) => options.onResourceUpdated(notification.params.uri));
  // A sampling or elicitation request sent as a task (2025-11-25) is answered through the same brokers.
  receiveTasks(client, { serverId, sampling: services.sampling, elicitation: services.elicitation, note: (text, level) => log.add(level ?? 'info', 'host', text) });
  return client;
}

/** The workspace's roots and the folders the server's own definition gives it (a bundle's folder settings), each once. */
function withOwnRoots(shared: RootEntry[], own: readonly string[]): RootEntry[] {
  const roots = [...shared];
  for (const path of own) {
    const uri = pathToFileURL(path).href;
    if (!roots.some((root) => root.uri === uri)) roots.push({ uri, name: basename(path) });
  }
  return roots;
}
