// Reads newline-delimited JSON-RPC from a byte stream in linear time. Chunks wait in a list and are joined
// once per line, so a 50 MB result costs one copy instead of the quadratic re-copy of the SDK's ReadBuffer.
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { DEFAULT_MAX_MESSAGE_BYTES, EDGE_BYTES, idFromEdges, lastBytes, MessageTooLargeError } from '../oversizedMessage.ts';

// Noise is logged, so a megabyte of garbage on stdout must not become a megabyte log line.
const MAX_NOISE_PREVIEW_CHARS = 2000;

const NEWLINE = 0x0a;

export type JsonLineReaderHooks = {
  /** A message, with the line it was read from (the trace keeps that text rather than making it again). */
  onMessage(message: JSONRPCMessage, text: string): void;
  /** A line that is not a JSON-RPC object: the server broke the stdio rule, but the connection lives on. */
  onNoise(line: string): void;
  /** A line longer than the cap was discarded; reading resumes after its newline. */
  onOversize(error: MessageTooLargeError): void;
};

export class JsonLineReader {
  readonly #hooks: JsonLineReaderHooks;
  readonly #maxMessageBytes: number;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  // True while skipping the rest of an oversized line, until its newline arrives.
  #discarding = false;
  // The first bytes of the line being discarded, and its most recent bytes.
  #discardedHead: Buffer = Buffer.alloc(0);
  #discardedTail: Buffer = Buffer.alloc(0);

  constructor(hooks: JsonLineReaderHooks, options: { maxMessageBytes?: number } = {}) {
    this.#hooks = hooks;
    this.#maxMessageBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  }

  push(chunk: Buffer): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      if (newline === -1) {
        this.#keep(chunk.subarray(start));
        return;
      }
      const tail = chunk.subarray(start, newline);
      start = newline + 1;
      if (this.#discarding) {
        this.#discarding = false;
        this.#reportOversize(this.#discardedHead, lastBytes(this.#discardedTail, tail));
        continue;
      }
      if (this.#pendingBytes + tail.length > this.#maxMessageBytes) {
        const head = this.#pending[0] ?? tail;
        this.#dropPending();
        this.#reportOversize(head.subarray(0, EDGE_BYTES), lastBytes(Buffer.alloc(0), tail));
        continue;
      }
      const line = this.#pending.length === 0 ? tail : Buffer.concat([...this.#pending, tail], this.#pendingBytes + tail.length);
      this.#dropPending();
      this.#handleLine(line);
    }
  }

  /** The stream ended: a last line without its newline is still read, since a server may omit the final one. */
  flush(): void {
    if (this.#discarding) {
      this.#discarding = false;
      this.#reportOversize(this.#discardedHead, this.#discardedTail);
      return;
    }
    if (this.#pending.length === 0) return;
    const line = Buffer.concat(this.#pending, this.#pendingBytes);
    this.#dropPending();
    this.#handleLine(line);
  }

  #keep(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.#discarding) {
      this.#discardedTail = lastBytes(this.#discardedTail, piece);
      return;
    }
    if (this.#pendingBytes + piece.length > this.#maxMessageBytes) {
      // Reported when the line ends, once its last bytes (where the id often is) have been seen.
      this.#discardedHead = Buffer.from((this.#pending[0] ?? piece).subarray(0, EDGE_BYTES));
      this.#discardedTail = lastBytes(Buffer.alloc(0), piece);
      this.#dropPending();
      this.#discarding = true;
      return;
    }
    this.#pending.push(piece);
    this.#pendingBytes += piece.length;
  }

  #reportOversize(head: Buffer, tail: Buffer): void {
    this.#discardedHead = this.#discardedTail = Buffer.alloc(0);
    this.#hooks.onOversize(new MessageTooLargeError(this.#maxMessageBytes, idFromEdges(head, tail)));
  }

  #dropPending(): void {
    this.#pending = [];
    this.#pendingBytes = 0;
  }

  #handleLine(bytes: Buffer): void {
    // Decoding whole lines (never single chunks) keeps multi-byte characters split across chunks intact.
    let text = bytes.toString('utf8');
    if (text.endsWith('\r')) text = text.slice(0, -1);
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.#hooks.onNoise(previewNoise(text));
      return;
    }
    if (isJsonRpcMessage(value)) this.#hooks.onMessage(value, text);
    else this.#hooks.onNoise(previewNoise(text));
  }
}

/**
 * A cheap structural check, not a schema validation: it runs once per message on the hot path, and the SDK's
 * protocol layer validates each method's params and results anyway.
 */
export function isJsonRpcMessage(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== '2.0') return false;
  const id = message.id;
  const hasId = typeof id === 'string' || typeof id === 'number';
  if (typeof message.method === 'string') return id === undefined || hasId;
  if ('result' in message) return hasId;
  // An error response may carry a null id when the server could not read the request's id.
  if (typeof message.error === 'object' && message.error !== null) return hasId || id === null || id === undefined;
  return false;
}

function previewNoise(text: string): string {
  if (text.length <= MAX_NOISE_PREVIEW_CHARS) return text;
  return `${text.slice(0, MAX_NOISE_PREVIEW_CHARS)}… [${text.length - MAX_NOISE_PREVIEW_CHARS} more characters]`;
}
