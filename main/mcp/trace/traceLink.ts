// Which tool call a tools/call request belongs to. The link rides on the request's params under a symbol
// key: the channel's and the SDK's copies of the params (`{ ...params, _meta }`, a 2026-07-28 call's retry
// legs) carry it along, so the trace finds it on the message whatever JSON-RPC id the request got, and
// JSON.stringify skips symbol keys, so it never reaches the server.

import type { TraceLink } from '../../../shared/contract.ts';

const TRACE_LINK = Symbol('atrium.traceLink');

/** Marks `params` as the request of this call. */
export function linkCall(params: object, link: TraceLink): void {
  (params as { [TRACE_LINK]?: TraceLink })[TRACE_LINK] = link;
}

/** The call a message's params were marked with, if any. */
export function linkOf(params: unknown): TraceLink | undefined {
  return typeof params === 'object' && params !== null ? (params as { [TRACE_LINK]?: TraceLink })[TRACE_LINK] : undefined;
}
