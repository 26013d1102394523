// The requester side of tasks on one live session, through the official tasks library
// (@modelcontextprotocol/ext-tasks), which drives both revisions' state machines:
//
// - 2025-11-25 (experimental tasks): a tool whose `execution.taskSupport` is `required` is always called as
//   a task, an `optional` one when the caller prefers it (a call in a conversation, where the person may
//   want to keep chatting), and only when the server offers `tasks.requests.tools.call`. The call carries
//   `params.task`; its answer is a CreateTaskResult.
// - 2026-07-28 (the tasks extension): the client declares the extension and the server decides; so every
//   call to a server that offers the extension goes through the library, which reads either answer.
//
// The library's requests go out on the session's transport, through the tool-call channel (which sends
// what the SDK's codecs refuse and hands the answers back as they came); the SDK transport adds the
// 2026-07-28 headers, `Mcp-Name: <taskId>` on tasks/* included. A task's questions reach the same brokers
// as every other request of the server: on 2025-11-25 as ordinary requests tied to the task
// (related-task), on 2026-07-28 inside tasks/get, answered with tasks/update.

import { ProtocolError } from '@modelcontextprotocol/client';
import type { CallToolResult, Client, JSONObject, Tool, jsonSchemaValidator } from '@modelcontextprotocol/client';
import {
  JsonRpcResponseError,
  createApplicationInputHandler,
  createSessionPortFromClient,
  createTaskSessionEndpointId,
  toolDeclarationFromMcpTool,
  withTasks,
} from '@modelcontextprotocol/ext-tasks/client';
import type { ApplicationCreateMessageResult, ApplicationElicitResult, ConnectedMcpSessionPort, DispatchOptions, JsonRpcResponse, TaskEnabledSession } from '@modelcontextprotocol/ext-tasks/client';
import { ProtocolDecodeError } from '@modelcontextprotocol/ext-tasks/core';
import type { JsonValue, RuntimeCodec } from '@modelcontextprotocol/ext-tasks/core';
import type { ElicitationBroker, ElicitationParams, SamplingBroker, SamplingParams } from '../../connection/connectionServices.ts';
import { RequestRefusedError } from '../../connection/connectionServices.ts';
import { checkCallToolResult, checkStructuredContent } from '../../connection/callToolResultShape.ts';
import type { ToolCallChannel } from '../../connection/toolCallChannel.ts';
import type { RootEntry } from '../../../../shared/domain.ts';
import { PollBackoff } from './pollBackoff.ts';
import { TaskRun } from './taskRun.ts';
import type { TaskReference } from './taskRun.ts';
import { TASKS_EXTENSION } from './contract/tasksContract.ts';

/** Whether a call may be made as a task: `prefer` where the person may want to keep chatting meanwhile. */
export type TaskPreference = 'prefer' | 'allow';

export interface SessionTasksOptions {
  serverId: string;
  client: Client;
  channel: ToolCallChannel;
  /** What the client declared, sent with each 2026-07-28 task request as the library frames it. */
  capabilities: JSONObject;
  clientInfo: { name: string; version: string };
  /** What names this server across restarts (its name and where it is), so a kept task is resumed only there. */
  endpoint: unknown;
  elicitation: ElicitationBroker;
  sampling: SamplingBroker;
  roots: { list(): RootEntry[] };
  validator: jsonSchemaValidator;
  /** The time limit of each request (tools/call, tasks/get, …). */
  requestTimeoutMs(): number;
  /** How long a 2025-11-25 tasks/result may stay open before it is sent again (30 minutes unless given). */
  resultWaitMs?: number;
  log(text: string, level?: 'debug' | 'info' | 'notice' | 'warning'): void;
}

export interface TaskCallOptions {
  preference: TaskPreference;
  signal?: AbortSignal;
  /** `_meta` of the request (the wanted log level on 2026-07-28). */
  metadata?: Record<string, unknown>;
  /** Headers of the request (2026-07-28 `Mcp-Param-*` for x-mcp-header parameters). */
  headers?: Record<string, string>;
}

const DEFAULT_RESULT_WAIT_MS = 30 * 60_000;

export class SessionTasks {
  readonly generation: 'v1' | 'v2';
  readonly #options: SessionTasksOptions;
  readonly #port: ConnectedMcpSessionPort & Disposable;
  readonly #session: TaskEnabledSession;
  readonly #tools = new Map<string, Tool>();
  readonly #runs = new Set<TaskRun>();
  /** Tasks Atrium cancelled for the person, with why (a question they declined). */
  readonly #cancelReasons = new Map<string, string>();
  #closing: string | undefined;

  private constructor(options: SessionTasksOptions, port: ConnectedMcpSessionPort & Disposable, generation: 'v1' | 'v2', raw: ConnectedMcpSessionPort['dispatch']) {
    this.#options = options;
    this.#port = port;
    this.generation = generation;
    const backoff = new PollBackoff();
    const pollField = generation === 'v1' ? 'pollInterval' : 'pollIntervalMs';
    // The port as the library sees it: tasks/get answers without a pollInterval get the backoff's.
    const observed: ConnectedMcpSessionPort = {
      endpointId: port.endpointId,
      taskCapabilities: port.taskCapabilities,
      get invalidated() {
        return port.invalidated;
      },
      dispatch: async (request, dispatchOptions) => {
        // 2025-11-25 requests need no framing; the port frames 2026-07-28 ones and sends them raw too.
        const answer = await (generation === 'v1' ? raw : port.dispatch.bind(port))(request, dispatchOptions);
        if (answer.kind !== 'result' || (request as { method?: unknown }).method !== 'tasks/get') return answer;
        return { kind: 'result', result: backoff.hint(answer.result, pollField) as JsonValue };
      },
      onServerRequest: (handler) => port.onServerRequest(handler),
      onNotification: (listener) => port.onNotification(listener),
      onInvalidated: (listener) => port.onInvalidated(listener),
    };
    this.#session = withTasks(observed, {
      tools: { currentTool: (name) => declarationOf(this.#tools.get(name)) },
      onInputRequest: this.#inputHandler(),
      onError: (error) => options.log(`tasks: ${error.message}`, 'debug'),
    });
  }

  /** The session's tasks, or undefined when its server offers none (then every call is an ordinary one). */
  static async open(options: SessionTasksOptions): Promise<SessionTasks | undefined> {
    const { client, channel } = options;
    const generation = offeredGeneration(client);
    if (generation === undefined) return undefined;
    const endpointId = await createTaskSessionEndpointId('atrium', options.endpoint);
    // Every task request goes out as it is, on the tool-call channel: the SDK's codecs refuse a task
    // answer, and its request layer would tell the server notifications/cancelled for a poll given up on.
    const raw = async (request: JsonValue, dispatchOptions?: DispatchOptions): Promise<JsonRpcResponse> => {
      const { method, params } = request as { method: string; params?: Record<string, unknown> };
      const answer = await channel.request(method, params, {
        timeout: dispatchOptions?.context?.requestTimeoutMs ?? options.requestTimeoutMs(),
        ...(dispatchOptions?.signal ? { signal: dispatchOptions.signal } : {}),
        ...(dispatchOptions?.context?.headers ? { headers: dispatchOptions.context.headers } : {}),
      });
      return answer as JsonRpcResponse;
    };
    const port = createSessionPortFromClient(client, endpointId, {
      rawDispatch: raw,
      // The library frames each 2026-07-28 task request (protocol version, client info, capabilities) with these.
      v2RequestFraming: { protocolVersion: client.getNegotiatedProtocolVersion() ?? '', clientInfo: options.clientInfo, clientCapabilities: options.capabilities },
    });
    if (port.taskCapabilities.generation === 'none') {
      port[Symbol.dispose]();
      return undefined;
    }
    return new SessionTasks(options, port, generation, raw);
  }

  /** Whether a call of `tool` goes through the library: on 2026-07-28 every call (the server decides). */
  handles(tool: Tool | undefined, preference: TaskPreference): boolean {
    if (this.generation === 'v2') return true;
    const support = (tool as { execution?: { taskSupport?: unknown } } | undefined)?.execution?.taskSupport;
    return support === 'required' || (support === 'optional' && preference === 'prefer');
  }

  /** Makes the call: its result when the server answered at once, else the task it started. */
  async call(name: string, args: Record<string, unknown> | undefined, tool: Tool | undefined, options: TaskCallOptions): Promise<CallToolResult | TaskRun> {
    if (tool) this.#tools.set(name, tool);
    // The caller's signal may stop the call until the server answers it; a task it started is then the
    // person's to cancel (tasks/cancel), never ended by a turn that moved on.
    const creation = new AbortController();
    const follow = () => creation.abort(options.signal?.reason);
    if (options.signal?.aborted) follow();
    options.signal?.addEventListener('abort', follow, { once: true });
    let execution;
    try {
      execution = await this.#session.callTool(name, args as Record<string, JsonValue> | undefined, {
        resultCodec: toolResultCodec,
        ...(tool ? { declaration: toolDeclarationFromMcpTool(tool) } : {}),
        signal: creation.signal,
        task: { preference: options.preference },
        requestTimeoutMs: this.#options.requestTimeoutMs(),
        ...(options.metadata ? { metadata: options.metadata as Record<string, JsonValue> } : {}),
        ...(options.headers ? { headers: options.headers } : {}),
      });
    } catch (error) {
      throw asProtocolError(error);
    } finally {
      options.signal?.removeEventListener('abort', follow);
    }
    if (execution.kind === 'immediate') {
      const outcome = await execution.result();
      if (outcome.status === 'completed') return this.#checkResult(outcome.result, tool);
      throw asProtocolError(outcome.status === 'failed' ? outcome.error : new Error('the call was cancelled'));
    }
    return this.#follow(new TaskRun(this.#runOptions(execution, tool)));
  }

  /** Follows a task this server started earlier (kept across a restart) again. */
  async resume(reference: TaskReference, tool: Tool | undefined): Promise<TaskRun> {
    if (tool) this.#tools.set(tool.name, tool);
    try {
      const execution = await this.#session.resumeTask(reference, { resultCodec: toolResultCodec, requestTimeoutMs: this.#options.requestTimeoutMs(), ...(tool ? { declaration: toolDeclarationFromMcpTool(tool) } : {}) });
      if (execution.kind !== 'task') throw new Error('the server no longer knows this task');
      return this.#follow(new TaskRun(this.#runOptions(execution, tool)));
    } catch (error) {
      throw asProtocolError(error);
    }
  }

  /** The server's own list of its tasks (tasks/list), where it offers one. */
  async list(): Promise<{ taskId: string; status: string; statusMessage?: string }[]> {
    if (this.#session.capabilities.inventory !== 'server-list') return [];
    const tasks: { taskId: string; status: string; statusMessage?: string }[] = [];
    let cursor: string | undefined;
    // A server that pages for ever is read ten pages far.
    for (let page = 0; page < 10; page++) {
      const listed = await this.#session.listTasks(cursor);
      for (const task of listed.tasks) tasks.push({ taskId: task.taskId, status: task.status, ...(task.statusMessage !== undefined ? { statusMessage: task.statusMessage } : {}) });
      cursor = listed.nextCursor;
      if (cursor === undefined) break;
    }
    return tasks;
  }

  /** Stops following every task (without cancelling one), then closes the library's session. */
  async close(reason: string): Promise<void> {
    this.#closing ??= reason;
    const runs = [...this.#runs];
    for (const run of runs) run.detach(reason);
    await Promise.all(runs.map((run) => run.ended));
    await this.#session.close().catch(() => undefined);
    this.#port[Symbol.dispose]();
  }

  #follow(run: TaskRun): TaskRun {
    this.#runs.add(run);
    void run.ended.then(() => this.#runs.delete(run));
    return run;
  }

  #runOptions(execution: Extract<Awaited<ReturnType<TaskEnabledSession['callTool']>>, { kind: 'task' }>, tool: Tool | undefined): ConstructorParameters<typeof TaskRun>[0] {
    const { channel, serverId, log, resultWaitMs = DEFAULT_RESULT_WAIT_MS } = this.#options;
    const taskId = execution.handle.taskId;
    return {
      serverId,
      execution,
      ...(this.generation === 'v1' ? { fetchResult: (signal: AbortSignal) => channel.request('tasks/result', { taskId }, { timeout: resultWaitMs, signal }) } : {}),
      connectionLost: () => this.#closing ?? (this.#port.invalidated ? `the connection to ${serverId} ended` : undefined),
      checkResult: (result) => this.#checkResult(result, tool),
      cancelReason: () => this.#cancelReasons.get(taskId),
      log: (text) => log(text),
    };
  }

  #checkResult(value: unknown, tool: Tool | undefined): CallToolResult {
    const { resultType: _resultType, ...result } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
    const checked = checkCallToolResult(typeof value === 'object' && value !== null ? result : value);
    if ('issues' in checked) throw new Error(`the server's result is not a tool result: ${checked.issues.map((issue) => issue.message).join('; ')}`);
    const problem = checkStructuredContent(checked.value, tool, this.#options.validator);
    if (problem) throw new Error(problem);
    return checked.value;
  }

  /** A 2026-07-28 task's questions (inside tasks/get), put to the same brokers as every other request. */
  #inputHandler() {
    const { serverId, elicitation, sampling, roots, log } = this.#options;
    const note = (text: string, level?: 'info' | 'notice') => log(text, level);
    const never = new AbortController().signal;
    return createApplicationInputHandler({
      elicitation: async (request, context) => (await elicitation.elicit({ serverId, params: request.params as unknown as ElicitationParams, signal: context.signal ?? never, note })) as ApplicationElicitResult,
      sampling: async (request, context) => {
        try {
          return (await sampling.createMessage({ serverId, params: request.params as unknown as SamplingParams, signal: context.signal ?? never, note })) as unknown as ApplicationCreateMessageResult;
        } catch (error) {
          // A sampling request has no "declined" answer: a task whose question the person refused is cancelled, saying why.
          if (error instanceof RequestRefusedError && context.taskId !== undefined) {
            this.#cancelReasons.set(context.taskId, error.message);
            void this.#session.cancelTask(context.taskId).catch(() => undefined);
          }
          throw error;
        }
      },
      roots: async () => ({ roots: roots.list() }),
    });
  }
}

/**
 * A task's result as the library hands it on: any object that is a complete result. A 2026-07-28 server
 * may inline a tool result in tasks/get without its `resultType` (the conformance project's own scenario
 * does), which the library's schema refuses; its shape is checked where every result's is (checkResult).
 */
const toolResultCodec: RuntimeCodec<unknown> = {
  parse: (value) => {
    const resultType = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as { resultType?: unknown }).resultType : 'none';
    if (resultType === undefined || resultType === 'complete') return { success: true, value };
    return { success: false, error: new ProtocolDecodeError(`a task's result must be a complete tool result, not ${JSON.stringify(resultType)}`) };
  },
};

/** Which revision's tasks the server offers: undefined for none. */
function offeredGeneration(client: Client): 'v1' | 'v2' | undefined {
  const capabilities = client.getServerCapabilities() as { tasks?: { requests?: { tools?: { call?: unknown } } }; extensions?: Record<string, unknown> } | undefined;
  if (client.getProtocolEra() === 'modern') return capabilities?.extensions?.[TASKS_EXTENSION] !== undefined ? 'v2' : undefined;
  return capabilities?.tasks?.requests?.tools?.call !== undefined ? 'v1' : undefined;
}

function declarationOf(tool: Tool | undefined) {
  return tool ? toolDeclarationFromMcpTool(tool) : undefined;
}

/** A server's JSON-RPC error keeps its code, as the SDK's would, so it is said the same way. */
function asProtocolError(error: unknown): Error {
  if (error instanceof JsonRpcResponseError) return ProtocolError.fromError(error.code, error.message, error.data);
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  if (cause instanceof JsonRpcResponseError) return ProtocolError.fromError(cause.code, cause.message, cause.data);
  return error instanceof Error ? error : new Error(String(error));
}
