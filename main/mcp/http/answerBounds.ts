// The fetch beneath a remote server's transport (Streamable HTTP and legacy HTTP+SSE): every answer is
// read within a size and a time bound, as a stdio server's output is.
//  - Size: a JSON answer past the server's message cap fails its request with the reason; in an event
//    stream the cap is per event (a stream may rightly last for hours): the request the stream answers
//    fails at once, with the same error answer a stdio server's oversized line gets. An error page is
//    cut short, since only its first words end up in a message.
//  - Time: each request gets a signal of its own, held only while its answer is being read, and
//    aborted when the transport closes or when Atrium gives the request up: a 2025-era request that
//    timed out or was cancelled sends notifications/cancelled, and the answer still being read for it is
//    stopped then (the 2026-07-28 requests abort their own signal).
// The transports' one long-lived signal is not handed to fetch: fetch adds a listener to the signal it
// is given per request, removed only when the request is garbage-collected, so a busy connection piled up
// thousands (Node warned past 1,500, "Possible EventTarget memory leak detected"), and each request paid
// for the pile (AbortSignal.any keeps a set of followers it sweeps whole after every collection: the same
// pile, paid for later). Here the listener goes when the answer is done.

import type { FetchLike } from '@modelcontextprotocol/client';
import { EDGE_BYTES, idFromEdges, MessageTooLargeError, tooLargeAnswer } from '../oversizedMessage.ts';
import { readBounded, throughBody } from './boundedBody.ts';
import { eventStreamCap, idOfDiscardedEvent } from './eventStreamCap.ts';
import type { EventCapPolicy } from './eventStreamCap.ts';

export interface AnswerBounds {
  /** The largest JSON answer, or event of an event stream, read from the server. */
  maxMessageBytes: number;
  /** Hears of each event discarded as too large (a JSON answer's read fails with the same error itself). */
  onDiscarded?(error: MessageTooLargeError): void;
  /**
   * An event on a stream of the server's own went on past twice the cap without ending; the stream was
   * failed. The legacy transport closes itself then: that stream was its connection.
   */
  onEndlessEvent?(): void;
}

/** How much of an error page (an answer with a 4xx or 5xx status) is read: the SDK quotes it in its error. */
const ERROR_PAGE_BYTES = 64 * 1024;
const EVENT_STREAM = /^text\/event-stream\b/i;
const ENCODER = new TextEncoder();

/** One request whose answer is being read. */
interface Exchange {
  readonly own: AbortController;
  /** The request's JSON-RPC body as sent, when it has one. */
  readonly body: string | undefined;
}

/** `network` (fetch by default) with every answer bounded; one per transport. */
export function boundedFetch(bounds: AnswerBounds, network: FetchLike = (url, init) => fetch(url, init)): FetchLike {
  const underWay = new Set<Exchange>();
  return async (url, init) => {
    const body = typeof init?.body === 'string' ? init.body : undefined;
    const givenUp = body === undefined ? undefined : cancelledRequestId(body);
    if (givenUp !== undefined) stopAnswersTo(underWay, givenUp);
    const given = init?.signal ?? undefined;
    const own = new AbortController();
    const abort = () => own.abort(given?.reason);
    if (given?.aborted) abort();
    else given?.addEventListener('abort', abort);
    const exchange: Exchange = { own, body };
    underWay.add(exchange);
    const done = () => {
      given?.removeEventListener('abort', abort);
      underWay.delete(exchange);
    };
    const limit = bounds.maxMessageBytes;
    let streaming = false;
    try {
      const response = await network(url, { ...init, signal: own.signal });
      // A JSON answer, or an error page, is read whole here: the transport reads it at once anyway, and
      // the exchange is over once it has been read.
      if (!response.ok) return await readBounded(response, { maxBytes: ERROR_PAGE_BYTES });
      if (!EVENT_STREAM.test(response.headers.get('content-type') ?? '')) return await readBounded(response, { maxBytes: limit, tooLarge: () => new MessageTooLargeError(limit) });
      // An event stream is over when its reader is done with it.
      streaming = true;
      return throughBody(response, eventStreamCap(eventPolicy(bounds, body)), done);
    } finally {
      if (!streaming) done();
    }
  };
}

function eventPolicy(bounds: AnswerBounds, body: string | undefined): EventCapPolicy {
  const limit = bounds.maxMessageBytes;
  return {
    maxEventBytes: limit,
    // A stream that answers the request it was opened with: that request fails now, and the stream ends.
    onOverflow: () => {
      const ids = body === undefined ? [] : requestIdsOf(body);
      if (ids.length === 0) return undefined;
      bounds.onDiscarded?.(new MessageTooLargeError(limit));
      return ENCODER.encode(ids.map((id) => errorEvent(id, limit)).join(''));
    },
    // A stream of its own (the server's, or the legacy transport's only one): the event is skipped, and
    // the request it answers, when its edges name one, fails.
    onSkipped: (event) => {
      const id = idOfDiscardedEvent(event);
      bounds.onDiscarded?.(new MessageTooLargeError(limit, id));
      return id === undefined ? undefined : ENCODER.encode(errorEvent(id, limit));
    },
    onEndless: () => {
      bounds.onEndlessEvent?.();
      return new MessageTooLargeError(limit);
    },
  };
}

/** Stops reading every answer to request `id` that is still being read: nobody waits for it any more. */
function stopAnswersTo(underWay: Set<Exchange>, id: string | number): void {
  for (const exchange of underWay) {
    if (exchange.body === undefined || !requestIdsOf(exchange.body).includes(id)) continue;
    exchange.own.abort(new Error('Atrium stopped reading an answer nobody waits for any more (its request was cancelled or ran out of time)'));
  }
}

/** The request a `notifications/cancelled` body gives up, if that is what `body` is. */
function cancelledRequestId(body: string): string | number | undefined {
  // A cancellation is short, and says what it is within its first bytes; a tool call's body may be megabytes.
  if (body.length > 4096 || !body.includes('"notifications/cancelled"')) return undefined;
  try {
    const message = JSON.parse(body) as { method?: unknown; params?: { requestId?: unknown } };
    const id = message.params?.requestId;
    return message.method === 'notifications/cancelled' && (typeof id === 'string' || typeof id === 'number') ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The ids of the JSON-RPC requests in a body (one message or a batch). */
function requestIdsOf(body: string): (string | number)[] {
  // Read from the body's edges when they name it (every single request Atrium sends): a tool call's
  // body may be megabytes, and this runs for each answer under way when a request is given up.
  const head = body.slice(0, EDGE_BYTES);
  const id = head.includes('"method"') ? idFromEdges(head, body.slice(-EDGE_BYTES)) : undefined;
  if (id !== undefined) return [id];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const ids: (string | number)[] = [];
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) ids.push(id);
  }
  return ids;
}

/** The event that fails request `id` in place of an event that was too large. */
function errorEvent(id: string | number, limit: number): string {
  return `event: message\ndata: ${JSON.stringify(tooLargeAnswer(id, limit))}\n\n`;
}
