import type { TraceLimits, TraceMessage } from '../../shared/contract.ts';
import type { ServerId } from '../../shared/domain.ts';
import type { SliceCreator } from './AtriumState.ts';

/** One server's trace as the host keeps it, mirrored while this window watches it. */
export interface TraceMirror {
  serverId: ServerId;
  messages: TraceMessage[];
  /** Null until the host answered the watch. */
  limits: TraceLimits | null;
  /** Why the trace could not be watched, in words for the person. */
  error: string | null;
  /** Messages that passed in a flood, too many to list, since the window started watching (the host keeps them). */
  skipped: number;
}

/** How many messages the window keeps until the host said how many it keeps. */
const KEPT_UNTIL_TOLD = 2000;

export interface TraceSlice {
  /** The trace of the server whose Trace tab is open; null while none is (nothing is watched then). */
  trace: TraceMirror | null;
  /** The Trace tab narrowed to one tool call's messages (its card's "Show messages"). */
  traceCall: { serverId: ServerId; callId: string } | null;
  /** Starts mirroring a server's trace, empty until the host answers the watch. */
  openTrace(serverId: ServerId): void;
  /** The messages the host keeps, as its watch answered. */
  setTrace(serverId: ServerId, messages: TraceMessage[], limits: TraceLimits): void;
  failTrace(serverId: ServerId, error: string): void;
  /** New messages from `traceMessages` events, batched by the caller; `skipped` more passed unlisted. */
  appendTrace(serverId: ServerId, messages: TraceMessage[], skipped: number): void;
  clearTrace(): void;
  showWholeTrace(): void;
}

export const createTraceSlice: SliceCreator<TraceSlice> = (set) => ({
  trace: null,
  traceCall: null,
  openTrace: (serverId) => set({ trace: { serverId, messages: [], limits: null, error: null, skipped: 0 } }),
  setTrace: (serverId, messages, limits) =>
    set((state) => {
      if (state.trace?.serverId !== serverId) return {};
      // Messages announced while the answer was on its way come after what it holds.
      const last = messages.at(-1)?.seq ?? 0;
      const later = state.trace.messages.filter((message) => message.seq > last);
      return { trace: { ...state.trace, messages: [...messages, ...later].slice(-limits.messages), limits, error: null } };
    }),
  failTrace: (serverId, error) => set((state) => (state.trace?.serverId === serverId ? { trace: { ...state.trace, error } } : {})),
  appendTrace: (serverId, fresh, skipped) =>
    set((state) => {
      const trace = state.trace;
      if (!trace || trace.serverId !== serverId) return {};
      // A batch may repeat what the first read already had: only later messages are added.
      const last = trace.messages.at(-1)?.seq ?? 0;
      const added = fresh.filter((message) => message.seq > last);
      if (added.length === 0) return skipped > 0 ? { trace: { ...trace, skipped: trace.skipped + skipped } } : {};
      const messages = [...trace.messages, ...added].slice(-(trace.limits?.messages ?? KEPT_UNTIL_TOLD));
      // An answer pairs its request, which was announced before it: the request learns its answer and duration.
      for (const answer of added) {
        if (answer.pairSeq === undefined || answer.pairSeq > answer.seq) continue;
        const index = indexOfSeq(messages, answer.pairSeq);
        const request = messages[index];
        if (request) messages[index] = { ...request, pairSeq: answer.seq, ...(answer.durationMs !== undefined ? { durationMs: answer.durationMs } : {}) };
      }
      return { trace: { ...trace, messages, skipped: trace.skipped + skipped } };
    }),
  clearTrace: () => set({ trace: null }),
  showWholeTrace: () => set({ traceCall: null }),
});

/** The index of the message numbered `seq` in a list ordered by seq, or -1. */
export function indexOfSeq(messages: readonly TraceMessage[], seq: number): number {
  let low = 0;
  let high = messages.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const at = (messages[middle] as TraceMessage).seq;
    if (at === seq) return middle;
    if (at < seq) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}
