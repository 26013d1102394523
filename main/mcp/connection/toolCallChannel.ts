// tools/call on a 2025-era connection, sent on the session's own transport instead of through the SDK
// Client's request layer. The channel is a layer of that transport (a TransportDecorator): it sends its
// calls through the transport it wraps and takes its answers from the messages coming in, before the SDK
// Client, which is connected to the channel, sees the rest. tools/call is the one request the agent loop and the CLI make over and over,
// many at a time, and the SDK's layer costs more per call than the pipe round trip itself: it
// classifies every incoming message with up to four zod parses, decodes each result through its era
// codec and sets up a promise chain per call (bench/stdioRoundTrip.ts: 0.41× a raw client's throughput
// through the SDK, against 0.83× for Atrium's transport alone).
//
// Everything else stays with the SDK Client: the handshake, lists, resources, prompts, the server's own
// requests and notifications, and every 2026-07-28 call (whose input_required rounds the SDK drives).
// The channel only takes what is its own: answers to its ids and progress reports for its tokens.
// It also sends the requests the SDK's codecs refuse (the tasks extension's: a tools/call answered with a
// task, tasks/*), handing their answers back as they came (`request`) for the tasks library to read.
// It behaves as the SDK's request() does for the same options, with the same error classes, so what
// is above it (McpConnection's error mapping, session expiry) cannot tell the difference.

import { ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import type { CallToolRequest, CallToolResult, JSONRPCMessage, JSONRPCRequest, MessageExtraInfo, Progress, Transport } from '@modelcontextprotocol/client';
import { checkCallToolResult } from './callToolResultShape.ts';
import { TransportDecorator } from './transportDecorator.ts';

export interface ToolCallOptions {
  /** Without an answer (or a progress report, with resetTimeoutOnProgress) for this long, the call fails. */
  timeout: number;
  /** A hard cap however much progress is reported. */
  maxTotalTimeout?: number;
  resetTimeoutOnProgress?: boolean;
  signal?: AbortSignal;
  onprogress?: (progress: Progress) => void;
}

/** A request sent as it is (`request`): its headers (HTTP only) go with it. */
export interface RawRequestOptions extends ToolCallOptions {
  headers?: Readonly<Record<string, string>>;
}

/** An answer as the server sent it: its result unread, or its JSON-RPC error. */
export type RawAnswer = { kind: 'result'; result: unknown } | { kind: 'error'; error: { code: number; message: string; data?: unknown } };

/**
 * The channel's request ids start far above the SDK's own counter (which starts at 0 and counts up by
 * one per request), so the two never meet on one connection; it stays a 31-bit integer, which every
 * server's JSON-RPC library reads.
 */
const FIRST_ID = 1 << 30;
const MAX_TIMER_MS = 2 ** 31 - 1;

interface PendingCall {
  /** A tool result checked as one (`call`), or the answer handed back as it came (`request`). */
  readonly raw: boolean;
  /** Whether giving up on it tells the server with notifications/cancelled: never for a task's requests, which are cancelled with tasks/cancel. */
  readonly noticeOnCancel: boolean;
  readonly resolve: (answer: never) => void;
  readonly reject: (error: Error) => void;
  readonly options: ToolCallOptions;
  readonly startedAt: number;
  /** When the call times out (performance.now() time, which no clock change moves), unless an answer or, with resetTimeoutOnProgress, progress comes first. */
  deadline: number;
  /** When the call starts listening to its signal (see LISTEN_AFTER_MS); Infinity once it listens, or with no signal. */
  listenAt: number;
  onAbort: (() => void) | undefined;
}

/**
 * A call answered within this long never listens to its abort signal. Adding and removing an abort listener
 * on the fresh AbortSignal each call comes with was the largest cost left per call (bench/stdioRoundTrip.ts
 * with 32 calls in flight: about 0.72× a raw client with it, 0.87× without). An abort in a call's first
 * moments is seen when it starts listening, at most this much later: sooner than a person can notice.
 */
const LISTEN_AFTER_MS = 20;

export class ToolCallChannel extends TransportDecorator {
  readonly #pending = new Map<number, PendingCall>();
  /** Told of an answer the channel dropped: for an id it never sent (a server's mistake), or late. */
  readonly #onDropped: (text: string, mistake: boolean) => void;
  #nextId = FIRST_ID;
  #closedWith: Error | undefined;
  // One timer for every call, set for the earliest deadline or start of listening, instead of a timer per
  // call: with many calls in flight, arming and clearing a timer each was a measurable part of a call's cost.
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Infinity;

  constructor(inner: Transport, onDropped: (text: string, mistake: boolean) => void = () => undefined) {
    super(inner);
    this.#onDropped = onDropped;
  }

  protected receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    if (!this.take(message)) this.deliver(message, extra);
  }

  /** Every call still waiting fails when the connection ends; so does every later one. */
  protected override closed(): void {
    this.failAll();
    super.closed();
  }

  call(params: CallToolRequest['params'], options: ToolCallOptions): Promise<CallToolResult> {
    return this.#send<CallToolResult>('tools/call', params, options, false);
  }

  /**
   * Sends a request as it is and resolves with the server's answer as it came, a result or an error, for
   * what the SDK's codecs refuse: the tasks extension's (a tools/call a server may answer with a task,
   * tasks/get, tasks/update, tasks/cancel). Giving up on a tools/call tells the server as `call` does;
   * giving up on a tasks/* request does not (a task is cancelled with tasks/cancel only).
   */
  request(method: string, params: Record<string, unknown> | undefined, options: RawRequestOptions): Promise<RawAnswer> {
    return this.#send<RawAnswer>(method, params, options, true);
  }

  #send<T>(method: string, params: Record<string, unknown> | undefined, options: RawRequestOptions, raw: boolean): Promise<T> {
    if (this.#closedWith) return Promise.reject(this.#closedWith);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(abortError(signal.reason));
    const id = this.#nextId++;
    // The progress token is the request id, as the SDK does: one number names the call everywhere.
    const sentParams = options.onprogress ? { ...params, _meta: params?._meta ? { ...(params._meta as object), progressToken: id } : { progressToken: id } } : params;
    const message = { jsonrpc: '2.0', id, method, ...(sentParams ? { params: sentParams } : {}) } as JSONRPCRequest;
    return new Promise<T>((resolve, reject) => {
      const startedAt = performance.now();
      const deadline = startedAt + options.timeout;
      const listenAt = signal ? startedAt + LISTEN_AFTER_MS : Infinity;
      const call: PendingCall = { raw, noticeOnCancel: !method.startsWith('tasks/'), resolve: resolve as (answer: never) => void, reject, options, startedAt, deadline, listenAt, onAbort: undefined };
      this.#wakeBy(Math.min(deadline, listenAt));
      this.#pending.set(id, call);
      this.inner.send(message, options.headers ? { headers: options.headers } : undefined).catch((error: unknown) => {
        // Unless the call was settled meanwhile (aborted, the connection closed), the failed send is its end.
        if (this.#pending.get(id) !== call) return;
        this.#forget(id, call);
        reject(error instanceof Error ? error : new Error(String(error)));
      });
    });
  }

  /**
   * Takes `message` when it is one of this channel's: the answer to one of its calls or a progress
   * report for one. Returns false for everything else, which goes on to the SDK Client. What comes
   * late for one of its ids (an answer after a timeout or a cancel, progress after the answer) is its
   * own too, and dropped: the SDK would only report an id it never sent.
   */
  private take(message: JSONRPCMessage): boolean {
    if ('method' in message) {
      if (message.method !== 'notifications/progress' || 'id' in message) return false;
      const params = message.params as (Progress & { progressToken?: unknown }) | undefined;
      const token = params?.progressToken;
      if (!params || !isOwnId(token)) return false;
      const call = this.#pending.get(token);
      if (call) this.#progress(token, call, params);
      return true;
    }
    const id = (message as { id?: unknown }).id;
    if (!isOwnId(id)) return false;
    const call = this.#pending.get(id);
    if (!call) {
      // A call that waits for it would otherwise only run out of time, with nothing said of why.
      if (id >= this.#nextId) this.#onDropped(`the server answered request ${id}, which Atrium never sent; the answer was dropped (a call that waits for its answer will run out of time)`, true);
      else this.#onDropped(`an answer to request ${id} came after its call had ended (its time limit, or it was called off); it was dropped`, false);
      return true;
    }
    this.#forget(id, call);
    const settle = call.resolve as (answer: unknown) => void;
    if (call.raw) {
      settle('error' in message ? { kind: 'error', error: message.error } : { kind: 'result', result: (message as { result?: unknown }).result });
      return true;
    }
    if ('error' in message) {
      call.reject(ProtocolError.fromError(message.error.code, message.error.message, message.error.data));
      return true;
    }
    const result = (message as { result?: unknown }).result;
    // A task is an answer to a call made as a task only; this one was not, so it is not a result with no content.
    if (isTaskAnswer(result)) {
      call.reject(new SdkError(SdkErrorCode.InvalidResult, 'the server answered with a task, though the call was not made as one'));
      return true;
    }
    const checked = checkCallToolResult(result);
    if ('issues' in checked) call.reject(new SdkError(SdkErrorCode.InvalidResult, `the server's answer is not a tool result: ${checked.issues.map((issue) => issue.message).join('; ')}`));
    else settle(checked.value);
    return true;
  }

  /** The connection ended: every call still waiting fails with `error`, and so does every later one. */
  failAll(error: Error = new SdkError(SdkErrorCode.ConnectionClosed, 'Connection closed')): void {
    this.#closedWith ??= error;
    for (const [id, call] of [...this.#pending]) {
      this.#forget(id, call);
      call.reject(error);
    }
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timerAt = Infinity;
  }

  #progress(id: number, call: PendingCall, params: Progress): void {
    const { options } = call;
    if (options.resetTimeoutOnProgress) {
      if (options.maxTotalTimeout !== undefined && performance.now() - call.startedAt >= options.maxTotalTimeout) {
        this.#cancel(id, new SdkError(SdkErrorCode.RequestTimeout, 'Maximum total timeout exceeded', { timeout: options.maxTotalTimeout, maxTotalTimeout: options.maxTotalTimeout, totalElapsed: performance.now() - call.startedAt }));
        return;
      }
      call.deadline = performance.now() + options.timeout;
    }
    const { progressToken: _token, ...progress } = params as Progress & { progressToken?: unknown };
    options.onprogress?.(progress);
  }

  /** Makes sure the timer fires by `deadline`. */
  #wakeBy(deadline: number): void {
    if (deadline >= this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timerAt = deadline;
    // setTimeout takes at most about 24.8 days (2^31 - 1 ms); a later deadline is looked at again then.
    this.#timer = setTimeout(() => this.#onTimer(), Math.min(MAX_TIMER_MS, Math.max(0, deadline - performance.now())));
    // A waiting call never keeps the process alive by itself: its transport (a pipe, a request) does.
    this.#timer.unref();
  }

  /**
   * Fails the calls whose deadline has passed, makes the calls still waiting after LISTEN_AFTER_MS listen
   * to their signal (or cancels them, if it was aborted meanwhile), and sets the timer for what is next.
   */
  #onTimer(): void {
    this.#timer = undefined;
    this.#timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const [id, call] of [...this.#pending]) {
      if (call.deadline <= now) {
        this.#cancel(id, timeoutError(call.options.timeout));
        continue;
      }
      if (call.listenAt <= now && !this.#listen(id, call)) continue;
      next = Math.min(next, call.deadline, call.listenAt);
    }
    if (next !== Infinity) this.#wakeBy(next);
  }

  /** Starts listening to a call's signal; false when it was aborted already, and the call is cancelled. */
  #listen(id: number, call: PendingCall): boolean {
    call.listenAt = Infinity;
    const { signal } = call.options;
    if (!signal) return true;
    if (signal.aborted) {
      this.#cancel(id, abortError(signal.reason));
      return false;
    }
    call.onAbort = () => this.#cancel(id, abortError(signal.reason));
    // Not { once: true }: settling the call removes the listener anyway, and once costs a wrapper.
    signal.addEventListener('abort', call.onAbort);
    return true;
  }

  /** Gives up on a call (timed out, aborted): the server is told, so it can stop the work. */
  #cancel(id: number, reason: Error): void {
    const call = this.#pending.get(id);
    if (!call) return;
    this.#forget(id, call);
    if (call.noticeOnCancel) this.inner.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason: reason.message } }).catch(() => undefined);
    call.reject(reason);
  }

  /** Forgets a call and its abort listener. */
  #forget(id: number, call: PendingCall): void {
    this.#pending.delete(id);
    if (call.onAbort) call.options.signal?.removeEventListener('abort', call.onAbort);
  }
}

/** A CreateTaskResult: a `task` object where a tool result would have content. */
function isTaskAnswer(result: unknown): boolean {
  if (typeof result !== 'object' || result === null || 'content' in result) return false;
  const task = (result as { task?: unknown }).task;
  return typeof task === 'object' && task !== null && typeof (task as { taskId?: unknown }).taskId === 'string';
}

function isOwnId(id: unknown): id is number {
  return typeof id === 'number' && id >= FIRST_ID;
}

function timeoutError(timeout: number): SdkError {
  return new SdkError(SdkErrorCode.RequestTimeout, 'Request timed out', { timeout });
}

function abortError(reason: unknown): Error {
  if (reason instanceof SdkError) return reason;
  // What the server is told as the reason: the words given, not "Error: …" or the platform's own
  // "AbortError: This operation was aborted" (a turn stopped or a conversation deleted gives no words).
  const given = reason instanceof Error ? (reason.name === 'AbortError' ? '' : reason.message) : reason === undefined ? '' : String(reason);
  return new SdkError(SdkErrorCode.RequestTimeout, given || 'the request was cancelled');
}
