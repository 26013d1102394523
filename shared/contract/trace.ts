// The contract's section for a server's trace: every JSON-RPC message between Atrium and the server, in and
// out, as the connection's trace keeps it (main/mcp/trace/). A window (or the CLI) watches a server's trace
// while it shows it; only then are new messages announced. Assembled with the other sections in
// shared/contract.ts.

import type { ServerId } from '../domain.ts';
import type { ParamsSchema } from './schemaParts.ts';
import { serverId } from './schemaParts.ts';

/** `out`: Atrium sent it to the server; `in`: the server sent it to Atrium. */
export type TraceDirection = 'out' | 'in';
export type TraceKind = 'request' | 'notification' | 'result' | 'error';

/** The tool call a message belongs to: the pipeline's call id, and the conversation of a model's call. */
export interface TraceLink {
  callId: string;
  conversationId?: string;
}

/** One message, without its contents: what the list shows. */
export interface TraceMessage {
  serverId: ServerId;
  /** Increases with every message Atrium traces (across servers), so a later message has a larger one. */
  seq: number;
  /** When it passed, in milliseconds since the epoch (with a fraction). */
  at: number;
  direction: TraceDirection;
  kind: TraceKind;
  /** The JSON-RPC method; an answer carries its request's, while its request is still kept. */
  method?: string;
  /** The JSON-RPC id of a request or an answer. */
  id?: string | number;
  /** What a request of Atrium's is about: the tool or prompt's name, the resource's address. */
  subject?: string;
  /** Its size as it travelled: the UTF-8 bytes of its JSON. */
  bytes: number;
  /** An error answer, or a tool's result that says it failed. */
  failed?: true;
  /** The other half of a request/answer pair (`seq`), and for an answer how long its request took. */
  pairSeq?: number;
  durationMs?: number;
  /** The tool call it belongs to (the call's request, its progress, its cancellation and its answer). */
  link?: TraceLink;
  /**
   * A request with no answer that will not get one: its connection closed first (the server exited, or
   * was stopped), or Atrium called it off. `durationMs` is then how long it waited.
   */
  unanswered?: 'closed' | 'cancelled';
}

/** How a request that will get no answer is said: in the list's column, and in full. */
export const UNANSWERED_WORDS: { readonly [K in NonNullable<TraceMessage['unanswered']>]: { short: string; why: string } } = {
  closed: { short: 'no answer', why: 'the connection closed first (the server exited, or was stopped)' },
  cancelled: { short: 'called off', why: 'Atrium called it off, so its answer is not awaited' },
};

/** One message with its contents. */
export interface TraceMessageDetail extends TraceMessage {
  /**
   * The message as JSON, with secrets redacted and long strings, long lists and big objects cut, each cut
   * marked where it is. Server text: shown as text, its hidden characters made visible.
   */
  json: unknown;
  /** Whether anything was cut. */
  truncated: boolean;
}

/** What a server's trace keeps: the newest messages within both bounds. */
export interface TraceLimits {
  messages: number;
  bytes: number;
}

export interface TraceWatch {
  /** Names this watch: renewed with `renewTraceWatch` before `renewWithinMs`, ended with `unwatchTrace`. */
  watchId: string;
  renewWithinMs: number;
  /** Every message the trace keeps now, oldest first; `traceMessages` announces the ones after. */
  messages: TraceMessage[];
  limits: TraceLimits;
}

/** What each request of this section resolves with; its params are its schema's (`traceRequests`). */
export interface TraceResults {
  /**
   * Starts watching a server's trace: its messages so far, and `traceMessages` events for new ones until the
   * watch ends (unwatched, or not renewed in time, as when the window that asked went away).
   */
  watchTrace: TraceWatch;
  /** Keeps a watch going; false when it had ended already (watch again). */
  renewTraceWatch: boolean;
  unwatchTrace: null;
  /** One message with its contents; null once the trace no longer keeps it. */
  getTraceMessage: TraceMessageDetail | null;
  /** The messages (their `seq`) whose contents, as shown, contain the text (case-insensitive). */
  findInTrace: number[];
  /** Messages with their contents as JSON Lines, one message a line: the ones named, or every one kept. */
  exportTrace: string;
}

export interface TraceEvents {
  /**
   * New messages of a watched server's trace, a batch at most every 100 ms, a few hundred at most: when more
   * passed (a flood), the newest are listed and `skipped` counts the others (kept, and exported, all the same).
   */
  traceMessages: { serverId: ServerId; messages: TraceMessage[]; skipped?: number };
}

const watchId = { type: 'string', minLength: 1, maxLength: 100 } as const;
const seq = { type: 'integer', minimum: 1 } as const;

/** The JSON Schema of each request's params: the runtime half of this section. */
export const traceRequests = {
  watchTrace: { type: 'object', additionalProperties: false, required: ['serverId'], properties: { serverId } },
  renewTraceWatch: { type: 'object', additionalProperties: false, required: ['watchId'], properties: { watchId } },
  unwatchTrace: { type: 'object', additionalProperties: false, required: ['watchId'], properties: { watchId } },
  getTraceMessage: { type: 'object', additionalProperties: false, required: ['serverId', 'seq'], properties: { serverId, seq } },
  findInTrace: { type: 'object', additionalProperties: false, required: ['serverId', 'text'], properties: { serverId, text: { type: 'string', minLength: 1, maxLength: 1000 } } },
  exportTrace: {
    type: 'object',
    additionalProperties: false,
    required: ['serverId'],
    properties: { serverId, seqs: { type: 'array', maxItems: 100_000, items: seq } },
  },
} as const satisfies { readonly [K in keyof TraceResults]: ParamsSchema };

/** A record rather than a list, so an event added to TraceEvents but not here fails the type-check. */
export const traceEvents: { readonly [K in keyof TraceEvents]: true } = {
  traceMessages: true,
};
