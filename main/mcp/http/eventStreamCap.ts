// An event stream (text/event-stream) may rightly last for hours, so what is capped is each event, not
// the stream. Events are passed on whole: the bytes of an event wait here until its blank line arrives,
// so neither this nor the parser behind it ever holds more than one event, and an event past the cap
// never reaches the parser at all (a parser holding half of one would read whatever came next as its
// end). Line endings are those of the format: LF, CR, or CR LF.

import { idFromEdges, lastBytes } from '../oversizedMessage.ts';
import type { BodyFilter, BodyOutput } from './boundedBody.ts';

const LF = 0x0a;
const CR = 0x0d;
// An event's first bytes kept when it is discarded: enough to get past `event:` and `id:` lines to its data.
const HEAD_BYTES = 1024;
const NOTHING = Buffer.alloc(0);

/** The first and last bytes of an event that was discarded. */
export interface DiscardedEvent {
  head: Buffer;
  tail: Buffer;
}

export interface EventCapPolicy {
  maxEventBytes: number;
  /**
   * An event grew past the cap. Return the bytes to pass on in its place, and the stream ends there;
   * or undefined, and the event is skipped to its end (reading goes on), then `onSkipped` is told.
   */
  onOverflow(): Uint8Array | undefined;
  /** A skipped event ended; returns the bytes to pass on in its place, if any. */
  onSkipped(event: DiscardedEvent): Uint8Array | undefined;
  /** A skipped event went on for as long again without ending: the stream fails with the error returned. */
  onEndless(): Error;
}

/** The JSON-RPC id in the data of a discarded event, when its first or last bytes name one. */
export function idOfDiscardedEvent(event: DiscardedEvent): string | number | undefined {
  const head = event.head.toString('utf8');
  const data = /(?:^|[\r\n])data: ?/.exec(head);
  const tail = event.tail.toString('utf8').replace(/[\r\n]+$/, '');
  return idFromEdges(data ? head.slice(data.index + data[0].length) : '', tail);
}

export function eventStreamCap(policy: EventCapPolicy): BodyFilter {
  return new EventCap(policy);
}

class EventCap implements BodyFilter {
  readonly #policy: EventCapPolicy;
  /** Pieces of the event under way, not passed on yet. */
  #held: Uint8Array[] = [];
  #heldBytes = 0;
  /** Bytes of the line under way: a line ending with none before it ends an event. */
  #lineBytes = 0;
  /** The last byte seen was a CR: an LF first in the next chunk belongs to the same line ending. */
  #afterCR = false;
  /** ...and that CR ended an event that was passed on: its LF goes out at once, after it. */
  #afterCREndedPassedEvent = false;
  /** Skipping the rest of an event past the cap, until its end. */
  #skipping = false;
  #skippedHead: Buffer = NOTHING;
  #skippedTail: Buffer = NOTHING;
  /** How much of the skipped event came after it passed the cap. */
  #skippedBytes = 0;
  #ended = false;

  constructor(policy: EventCapPolicy) {
    this.#policy = policy;
  }

  transform(chunk: Uint8Array, out: BodyOutput): void {
    if (this.#ended) return;
    const n = chunk.length;
    let i = 0;
    // The part of the chunk that belongs to the event under way starts here.
    let from = 0;
    // Whole events of this chunk that can go out together, from here to `from`.
    let passFrom = -1;
    if (this.#afterCR) {
      this.#afterCR = false;
      if (n > 0 && chunk[0] === LF) {
        i = 1;
        if (this.#afterCREndedPassedEvent) passFrom = 0;
        if (this.#afterCREndedPassedEvent || this.#heldBytes === 0) from = 1;
      }
      this.#afterCREndedPassedEvent = false;
    }
    let nextLf = -1;
    let nextCr = -1;
    while (i < n) {
      if (nextLf < i) nextLf = indexOrEnd(chunk, LF, i);
      if (nextCr < i) nextCr = indexOrEnd(chunk, CR, i);
      const at = Math.min(nextLf, nextCr);
      if (at === n) {
        this.#lineBytes += n - i;
        break;
      }
      this.#lineBytes += at - i;
      let end = at + 1;
      if (chunk[at] === CR) {
        if (end === n) this.#afterCR = true;
        else if (chunk[end] === LF) end++;
      }
      i = end;
      const blankLine = this.#lineBytes === 0;
      this.#lineBytes = 0;
      if (!blankLine) continue;
      // An event ends at `end`.
      const size = this.#heldBytes + (end - from);
      if (!this.#skipping && size <= this.#policy.maxEventBytes) {
        if (this.#heldBytes > 0) {
          this.#passHeld(out);
          out.enqueue(chunk.subarray(from, end));
        } else if (passFrom === -1) {
          passFrom = from;
        }
        from = end;
        if (this.#afterCR) this.#afterCREndedPassedEvent = true;
        continue;
      }
      if (passFrom !== -1) out.enqueue(chunk.subarray(passFrom, from));
      passFrom = -1;
      if (this.#skipping) this.#skippedTail = lastBytes(this.#skippedTail, chunk.subarray(from, end));
      else if (this.#overflow(chunk.subarray(from, end), out)) return;
      this.#endSkip(out);
      from = end;
    }
    if (passFrom !== -1) out.enqueue(passFrom === 0 && from === n ? chunk : chunk.subarray(passFrom, from));
    if (from < n) this.#keep(chunk.subarray(from), out);
  }

  flush(out: BodyOutput): void {
    if (this.#ended) return;
    // The stream ended inside an event: a skipped one is reported; a held one goes out as it is (the
    // parser drops an event that never ended, as it would have without this).
    if (this.#skipping) this.#endSkip(out);
    else this.#passHeld(out);
  }

  /** The rest of a chunk: the start or the middle of an event. */
  #keep(piece: Uint8Array, out: BodyOutput): void {
    if (this.#skipping) {
      this.#skippedTail = lastBytes(this.#skippedTail, piece);
      this.#skippedBytes += piece.length;
      // Skipping an event that never ends would be reading for ever.
      if (this.#skippedBytes > this.#policy.maxEventBytes) {
        this.#ended = true;
        out.error(this.#policy.onEndless());
      }
      return;
    }
    if (this.#heldBytes + piece.length > this.#policy.maxEventBytes) {
      this.#overflow(piece, out);
      return;
    }
    this.#held.push(piece);
    this.#heldBytes += piece.length;
  }

  /**
   * The event under way (what is held, then `piece`) is past the cap: what is held goes, and the
   * policy decides. Returns true when the stream ended here.
   */
  #overflow(piece: Uint8Array, out: BodyOutput): boolean {
    this.#skippedHead = firstBytes([...this.#held, piece], HEAD_BYTES);
    this.#skippedTail = lastBytes(NOTHING, piece);
    this.#held = [];
    this.#heldBytes = 0;
    const instead = this.#policy.onOverflow();
    if (instead === undefined) {
      this.#skipping = true;
      return false;
    }
    this.#ended = true;
    out.enqueue(instead);
    out.end();
    return true;
  }

  #endSkip(out: BodyOutput): void {
    const instead = this.#policy.onSkipped({ head: this.#skippedHead, tail: this.#skippedTail });
    this.#skipping = false;
    this.#skippedHead = this.#skippedTail = NOTHING;
    this.#skippedBytes = 0;
    if (instead !== undefined) out.enqueue(instead);
  }

  #passHeld(out: BodyOutput): void {
    for (const piece of this.#held) out.enqueue(piece);
    this.#held = [];
    this.#heldBytes = 0;
  }
}

function indexOrEnd(chunk: Uint8Array, byte: number, from: number): number {
  const at = chunk.indexOf(byte, from);
  return at === -1 ? chunk.length : at;
}

function firstBytes(pieces: Uint8Array[], count: number): Buffer {
  const kept: Uint8Array[] = [];
  let total = 0;
  for (const piece of pieces) {
    if (total >= count) break;
    kept.push(piece.subarray(0, count - total));
    total += Math.min(piece.length, count - total);
  }
  return Buffer.concat(kept);
}
