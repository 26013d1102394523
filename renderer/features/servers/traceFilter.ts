// Which of a server's trace messages the Trace tab shows: a direction, a method, the messages whose
// contents hold a text (the host finds those), and one tool call's messages. Only the display is filtered:
// the host keeps every message, and Export without a filter exports them all.
import type { TraceDirection, TraceMessage } from '../../../shared/contract.ts';
import { durationText } from '../../../shared/durationText.ts';

export interface TraceFilter {
  direction: TraceDirection | 'both';
  /** '' for every method. */
  method: string;
  search: string;
  /** The messages the host found holding `search` (their seq); null until it answered. */
  found: ReadonlySet<number> | null;
  /** One tool call's messages only. */
  callId: string | null;
}

export const showWholeTrace: TraceFilter = { direction: 'both', method: '', search: '', found: null, callId: null };

export function isFilteringTrace(filter: TraceFilter): boolean {
  return filter.direction !== 'both' || filter.method !== '' || filter.search.trim() !== '' || filter.callId !== null;
}

export function filterTrace(messages: readonly TraceMessage[], filter: TraceFilter): readonly TraceMessage[] {
  if (!isFilteringTrace(filter)) return messages;
  const needle = filter.search.trim().toLocaleLowerCase();
  return messages.filter(
    (message) =>
      (filter.direction === 'both' || message.direction === filter.direction) &&
      (filter.method === '' || message.method === filter.method) &&
      (filter.callId === null || message.link?.callId === filter.callId) &&
      (needle === '' || summaryHolds(message, needle) || filter.found?.has(message.seq) === true),
  );
}

/** What the list shows of a message holds the text: found at once, before the host searched the contents. */
function summaryHolds(message: TraceMessage, needle: string): boolean {
  return `${message.method ?? ''} ${message.subject ?? ''} ${message.id ?? ''}`.toLocaleLowerCase().includes(needle);
}

/** Every method in the trace, for the method filter, in order. */
export function methodsIn(messages: readonly TraceMessage[]): string[] {
  return [...new Set(messages.flatMap((message) => (message.method === undefined ? [] : [message.method])))].sort();
}

/** "40 messages", or "12 of 40 messages" while a filter hides some. */
export function messageCount(shown: number, total: number, filtering: boolean): string {
  const noun = total === 1 ? 'message' : 'messages';
  return filtering ? `${shown} of ${total} ${noun}` : `${total} ${noun}`;
}

/** "512 B", "1.2 kB", "3.4 MB": a message's size as it travelled. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} kB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}

/** "0.42 ms", "12 ms", "2.4 s": how long a request took to be answered. */
export function formatDuration(ms: number): string {
  return durationText(ms, { fine: true });
}

/** "14:03:07.215": the time of day a message passed, to the millisecond. */
export function timeOfDay(at: number): string {
  const date = new Date(at);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}

/** A file name for an export: the server's name kept to characters every file system takes. */
export function exportFileName(serverId: string, at: Date): string {
  const stamp = at.toISOString().slice(0, 19).replace(/[:T]/g, '-');
  return `${serverId.replace(/[^\w.-]+/g, '_').slice(0, 80) || 'server'}-trace-${stamp}.jsonl`;
}
