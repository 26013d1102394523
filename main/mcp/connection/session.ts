// One live connection to a server: an SDK Client bound to one transport, from discovery / initialize to
// close. A server that restarts gets a new Session; the McpConnection around it survives.

import { Client, INVALID_PARAMS, LOG_LEVEL_META_KEY, ProtocolError, SdkHttpError, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolRequest, CallToolResult, McpSubscription, PriorDiscovery, Tool, Transport } from '@modelcontextprotocol/client';
import { checkStructuredContent } from './callToolResultShape.ts';
import { ToolCallChannel } from './toolCallChannel.ts';
import type { ToolCallOptions } from './toolCallChannel.ts';
import type { ListKind } from '../../../shared/contract.ts';
import { isLogLevel } from '../../../shared/domain.ts';
import { markHidden } from '../../../shared/serverText.ts';
import type { LogLevel, ProtocolEra, ServerSnapshot } from '../../../shared/domain.ts';
import type { ServerDefinition } from '../config/serverConfig.ts';
import type { ServerLog } from '../serverLog.ts';
import { ServerLaunchError } from '../stdio/stdioProcessTransport.ts';
import { ServerError } from './serverError.ts';
import { NeutralisingTransport } from './neutralisingTransport.ts';
import { packageRunnerFailure } from './packageRunnerFailure.ts';
import type { ConnectionServices } from './connectionServices.ts';
import { declaredExtensions } from '../extensions/connectionExtensions.ts';
import { InvalidServerRequestError, RequestRefusedError } from './connectionServices.ts';
import type { StdioHooks } from './openTransport.ts';

export interface SessionOptions {
  services: ConnectionServices;
  definition: ServerDefinition;
  log: ServerLog;
  connectTimeoutMs: number;
  probeTimeoutMs: number;
  onClosed(session: Session): void;
  onListChanged(kind: ListKind): void;
  /** The server said its tools changed: heard at once, before the SDK asks for the new list. */
  onToolsChangeAnnounced(): void;
  onResourceUpdated(uri: string): void;
}

/** JSON-RPC error code the spec gives for a person rejecting a sampling request. */
const USER_REJECTED = -1;
/** How much of a dead server's stderr is kept to explain its exit, and how long a line is shown. */
const STDERR_LINES_KEPT = 30;
const STDERR_LINE_SHOWN = 300;
/** A line that says what went wrong, in most runtimes' words. */
const SAYS_WHAT_FAILED = /(error|exception)\b|\b(fatal|panic|cannot|can't|could not|not found|no such|denied|failed|refus)/i;
/** Lines that only say where (stack frames, Node's closing version line, a lone brace). */
const SAYS_ONLY_WHERE = /^(at\s|File\s"|Traceback \(most recent call last\)|Node\.js v\d|[{}[\]()]+$|\^+$)/;

/** Package runners fetch the server on its first start, which can take longer than the time limit. */
const PACKAGE_RUNNERS = /^(npx|pnpx|bunx|uvx|pipx|dnx)(\.cmd|\.exe)?$/i;

export function downloadHint(definition: ServerDefinition): string {
  if (definition.transport !== 'stdio') return '';
  const runner = definition.command.split(/[\\/]/).pop() ?? '';
  const viaRunner = PACKAGE_RUNNERS.test(runner) || (/^(pnpm|yarn|npm)(\.cmd)?$/i.test(runner) && ['dlx', 'exec'].includes(definition.args[0] ?? ''));
  return viaRunner ? `; ${runner} may still be downloading the server on its first start: try again in a minute` : '';
}

/**
 * The lines of a dead server's stderr that explain its end: the last two that say what failed (an
 * "Error: Cannot find module" above a stack trace), else its last two lines that are not a stack.
 */
export function telling(lines: readonly string[]): string[] {
  const meaningful = lines.filter((line) => !SAYS_ONLY_WHERE.test(line));
  const failures = meaningful.filter((line) => SAYS_WHAT_FAILED.test(line));
  return (failures.length > 0 ? failures : meaningful).slice(-2);
}

export class Session {
  readonly client: Client;
  /** Why the connection ended, in words for the person; set by whoever learns it first. */
  closedReason: string | undefined;
  /** A retired session was replaced on purpose (HTTP session expiry); its close is not a crash. */
  retired = false;
  private transport: Transport | undefined;
  /** tools/call on a 2025-era connection; made with the transport, used once the era is known. */
  private toolCalls: ToolCallChannel | undefined;
  private closing: Promise<void> | undefined;
  private sessionIdAtConnect: string | undefined;
  private readonly options: SessionOptions;
  private readonly subscribedUris = new Set<string>();
  private listenStream: McpSubscription | undefined;

  private constructor(options: SessionOptions) {
    this.options = options;
    this.client = createClient(options);
  }

  static async open(options: SessionOptions, makeTransport: (hooks: StdioHooks) => Promise<Transport>, prior: PriorDiscovery | undefined): Promise<Session> {
    const session = new Session(options);
    const { log } = options;
    session.transport = await makeTransport({
      onStderrLine: (line) => {
        log.add('info', 'stderr', line);
        session.rememberStderr(line);
      },
      onNoise: (line) => log.add('warning', 'host', `ignored a line on stdout that is not JSON-RPC: ${line}`),
      onExit: ({ code, signal }) => {
        if (session.closing) return;
        session.closedReason ??= `${signal ? `the server process was killed (${signal})` : `the server process exited with code ${code}`}${session.lastWords()}`;
      },
    });
    // The SDK Client sees the server through two layers: the neutraliser (every message marked), then
    // the tool-call channel (which keeps the answers to its own calls).
    const toolCalls = new ToolCallChannel(new NeutralisingTransport(session.transport, log, () => options.onToolsChangeAnnounced()));
    session.toolCalls = toolCalls;
    session.client.onclose = () => options.onClosed(session);
    session.client.onerror = (error) => log.add('warning', 'host', `protocol: ${error.message}`);
    // One deadline for the whole start: a discovery probe that times out falls back to initialize, and
    // both together must still fit in the connect time limit.
    const deadline = AbortSignal.timeout(options.connectTimeoutMs);
    try {
      await session.client.connect(toolCalls, {
        timeout: options.connectTimeoutMs,
        signal: deadline,
        ...(prior ? { prior } : {}),
      });
    } catch (error) {
      session.retired = true;
      await session.close();
      if (error instanceof ServerLaunchError && error.detail) log.add('info', 'host', error.detail);
      if (deadline.aborted && !session.closedReason) {
        const id = options.definition.id;
        throw new ServerError(id, 'timeout', `${id}: no answer to discovery or initialize within the time limit (${options.connectTimeoutMs} ms)${downloadHint(options.definition)}${session.lastWords()}`, { cause: error });
      }
      // A process that exited during the handshake explains the failure better than "connection closed".
      if (session.closedReason) throw new ServerError(options.definition.id, 'unavailable', `${options.definition.id}: ${session.closedReason}`, { cause: error });
      throw error;
    }
    if (session.transport instanceof StreamableHTTPClientTransport) session.sessionIdAtConnect = session.transport.sessionId;
    return session;
  }

  /** What the server last wrote to stderr: why it died is usually there, not in its exit code. */
  private readonly recentStderr: string[] = [];

  private rememberStderr(line: string): void {
    const text = line.trim();
    if (text === '') return;
    this.recentStderr.push(text.length > STDERR_LINE_SHOWN ? `${text.slice(0, STDERR_LINE_SHOWN)}…` : text);
    if (this.recentStderr.length > STDERR_LINES_KEPT) this.recentStderr.shift();
  }

  /** "; it last wrote: …" after an exit, or nothing when the server wrote nothing. */
  private lastWords(): string {
    // A package runner that could not fetch the server says so in a dozen lines: one sentence says it better.
    const runnerFailure = packageRunnerFailure(this.recentStderr);
    if (runnerFailure !== undefined) return `; ${markHidden(runnerFailure)}`;
    const shown = telling(this.recentStderr);
    // Server text, shown in a card and on a terminal: hidden and control characters are marked where they were.
    return shown.length === 0 ? '' : `; it last wrote: ${markHidden(shown.join(' | '))}`;
  }

  /** The server's process id, for a stdio server that is running. */
  get pid(): number | undefined {
    const pid = (this.transport as { pid?: unknown } | undefined)?.pid;
    return typeof pid === 'number' ? pid : undefined;
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
      if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined && !this.retired) {
        await transport.terminateSession().catch(() => undefined);
      }
      await this.client.close().catch(() => undefined);
    })();
    return this.closing;
  }
}

function createClient(options: SessionOptions): Client {
  const { services, definition, log } = options;
  const serverId = definition.id;
  const extensions = declaredExtensions(services);
  const client = new Client(services.clientInfo, {
    capabilities: {
      roots: { listChanged: true },
      sampling: {},
      elicitation: { form: {}, url: {} },
      ...(extensions ? { extensions } : {}),
    },
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
    const roots = services.roots.list();
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
  return client;
}
