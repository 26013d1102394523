// The one cap on a message from a server, whatever carries it (a stdio line, an HTTP answer, an event of
// an event stream), and what a message past it becomes: the request it answered fails at once with the
// reason, instead of waiting for its time limit or holding more than the cap in memory.

export const DEFAULT_MAX_MESSAGE_BYTES = 256 * 1024 * 1024;

/** JSON-RPC error code (in the implementation-defined server-error range) for a response Atrium discarded as too large. */
export const MESSAGE_TOO_LARGE = -32099;

export class MessageTooLargeError extends Error {
  readonly limitBytes: number;
  /** The JSON-RPC id of the discarded message, when its first or last bytes name one. */
  readonly messageId: string | number | undefined;

  constructor(limitBytes: number, messageId?: string | number) {
    super(messageTooLargeText(limitBytes));
    this.name = 'MessageTooLargeError';
    this.limitBytes = limitBytes;
    this.messageId = messageId;
  }
}

export function messageTooLargeText(limitBytes: number): string {
  return `message from server exceeded ${formatMegabytes(limitBytes)} MB and was discarded`;
}

/** The JSON-RPC error response that fails request `id` in place of a message that was too large. */
export function tooLargeAnswer(id: string | number, limitBytes: number): { jsonrpc: '2.0'; id: string | number; error: { code: number; message: string } } {
  return { jsonrpc: '2.0', id, error: { code: MESSAGE_TOO_LARGE, message: messageTooLargeText(limitBytes) } };
}

// Only the edges of a discarded message are kept: enough to find a top-level "id", which servers write
// either first (`{"jsonrpc":"2.0","id":7,...`) or last (`...,"jsonrpc":"2.0","id":7}`).
export const EDGE_BYTES = 256;
const ID_AT_START = /^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")/;
const ID_AT_END = /[,{]\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*\}\s*$/;

/** The id of a message from its first and last bytes, so the request it answers can fail at once. */
export function idFromEdges(head: Buffer | string, tail: Buffer | string): string | number | undefined {
  const headText = typeof head === 'string' ? head : head.toString('utf8');
  const tailText = (typeof tail === 'string' ? tail : tail.toString('utf8')).replace(/\r$/, '');
  const match = ID_AT_START.exec(headText) ?? ID_AT_END.exec(tailText);
  if (!match?.[1]) return undefined;
  try {
    return JSON.parse(match[1]) as string | number;
  } catch {
    return undefined;
  }
}

/** The last EDGE_BYTES of `previous` followed by `next`, copied so the big chunks can be freed. */
export function lastBytes(previous: Buffer, next: Uint8Array): Buffer {
  if (next.length >= EDGE_BYTES) return Buffer.from(next.subarray(next.length - EDGE_BYTES));
  const joined = Buffer.concat([previous, next]);
  return Buffer.from(joined.subarray(Math.max(0, joined.length - EDGE_BYTES)));
}

export function formatMegabytes(bytes: number): string {
  const megabytes = bytes / (1024 * 1024);
  return Number.isInteger(megabytes) ? String(megabytes) : megabytes.toFixed(1);
}
