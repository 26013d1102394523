// One server's trace: every JSON-RPC message between Atrium and the server, in and out, kept by the server's
// connection across its sessions (restarts). Bounded: the newest messages within a count and a size; a big
// message is kept as its cut preview. Each request is paired with its answer (how long it took), and the
// messages of a tool call made through the pipeline carry that call's link.
//
// Recording is on the path of every message, so it does the least it can: it notes what the list shows
// (method, id, the pairing, the link) from the message object and keeps the JSON text as it travelled,
// which the transport made anyway. Redacting and cutting happen only when someone reads a message. New
// messages are announced, in batches, only while someone watches.

import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { TraceDirection, TraceKind, TraceLimits, TraceLink, TraceMessage, TraceMessageDetail } from '../../../shared/contract.ts';
import { escapedJson } from '../../../shared/serverText.ts';
import { linkOf } from './traceLink.ts';
import { previewOf } from './tracePreview.ts';
import type { Preview } from './tracePreview.ts';

export const DEFAULT_TRACE_LIMITS: TraceLimits = { messages: 2000, bytes: 8_000_000 };
/** A message longer than this is cut to its preview at once, rather than kept whole until it is read. */
const KEPT_WHOLE_CHARS = 64 * 1024;
/** JSON-RPC's code for a method the other side does not have. */
const METHOD_NOT_FOUND = -32601;
const ANNOUNCE_EVERY_MS = 100;
/**
 * The most messages one batch announces: past a few thousand a second nobody reads a list, and a flood
 * (tens of thousands of messages a second) would cost the calls more than the list is worth. The rest of
 * such a batch is counted, not listed; it is kept and exported all the same.
 */
export const MAX_ANNOUNCED = 250;
/** Requests still waiting for an answer, per direction: a server that never answers cannot grow it past this. */
const MAX_AWAITING = 1000;
const MAX_SUBJECT_CHARS = 200;

/** performance.now() counts from here: read once, not at every message. */
const TIME_ORIGIN = performance.timeOrigin;

// One count for every server's trace, so a message recorded later always has a larger number, even across
// a server that was replaced (its trace started afresh).
let lastSeq = 0;

interface Entry {
  readonly seq: number;
  readonly at: number;
  readonly direction: TraceDirection;
  readonly kind: TraceKind;
  readonly id: string | number | undefined;
  method: string | undefined;
  subject: string | undefined;
  failed: boolean;
  pairSeq: number | undefined;
  durationMs: number | undefined;
  unanswered: 'closed' | 'cancelled' | undefined;
  link: TraceLink | undefined;
  /** The message's JSON as it travelled, until its preview is made. */
  text: string | undefined;
  bytes: number;
  preview: Preview | undefined;
  /** What it counts against the size bound: its text, then its preview. */
  weight: number;
}

export interface TraceHooks {
  /** New messages, while the trace is watched; `skipped` more passed in the same moment, too many to list. */
  announce(messages: TraceMessage[], skipped: number): void;
}

export class ServerTrace {
  readonly serverId: string;
  readonly limits: TraceLimits;
  readonly #hooks: TraceHooks;
  // Oldest first; the slots before #head were dropped and are reclaimed now and then.
  #entries: (Entry | undefined)[] = [];
  #head = 0;
  #weight = 0;
  /** Requests sent in each direction, by id, until their answer comes back the other way. */
  readonly #awaiting: Record<TraceDirection, Map<string | number, Entry>> = { out: new Map(), in: new Map() };
  #watched = false;
  #announcedSeq = 0;
  #timer: NodeJS.Timeout | undefined;

  constructor(serverId: string, hooks: TraceHooks, limits: TraceLimits = DEFAULT_TRACE_LIMITS) {
    this.serverId = serverId;
    this.#hooks = hooks;
    this.limits = limits;
  }

  /**
   * Notes one message. `text` is its JSON as it travelled, when the transport has it (stdio); otherwise it
   * is made here.
   */
  record(direction: TraceDirection, message: JSONRPCMessage, text: string = JSON.stringify(message)): void {
    const fields = message as { method?: unknown; id?: unknown; params?: unknown; result?: unknown };
    const method = typeof fields.method === 'string' ? fields.method : undefined;
    const id = typeof fields.id === 'string' || typeof fields.id === 'number' ? fields.id : undefined;
    const kind: TraceKind = method !== undefined ? (id !== undefined ? 'request' : 'notification') : 'error' in message ? 'error' : 'result';
    const entry: Entry = {
      seq: ++lastSeq,
      at: TIME_ORIGIN + performance.now(),
      direction,
      kind,
      id,
      method,
      subject: undefined,
      failed: kind === 'error',
      pairSeq: undefined,
      durationMs: undefined,
      unanswered: undefined,
      link: undefined,
      text,
      bytes: -1,
      preview: undefined,
      weight: text.length,
    };
    if (kind === 'request') this.#noteRequest(entry, fields.params);
    else if (kind === 'notification') this.#noteNotification(entry, fields.params);
    else this.#noteAnswer(entry, fields.result);
    // A 2025-era server does not know the 2026 discovery probe and says so; Atrium then uses initialize.
    // That answer is how the handshake goes, not a fault to show in red.
    if (entry.method === 'server/discover' && kind === 'error' && (message as { error?: { code?: unknown } }).error?.code === METHOD_NOT_FOUND) entry.failed = false;
    // A big message is cut now, from the object itself: keeping megabytes until someone looks would crowd
    // out every other message.
    if (text.length > KEPT_WHOLE_CHARS) this.#makePreview(entry, message);
    this.#keep(entry);
    if (this.#watched) this.#timer ??= setTimeout(this.#announce, ANNOUNCE_EVERY_MS).unref();
  }

  /** A new session begins: its request ids start again, so nothing waiting from the last one can be answered. */
  sessionStarted(): void {
    this.sessionEnded();
  }

  /** The connection closed: every request still waiting, either way, will get no answer, and says so. */
  sessionEnded(): void {
    const now = TIME_ORIGIN + performance.now();
    for (const awaiting of [this.#awaiting.out, this.#awaiting.in]) {
      for (const request of awaiting.values()) {
        if (request.unanswered === 'cancelled') continue;
        request.unanswered = 'closed';
        request.durationMs = now - request.at;
      }
      awaiting.clear();
    }
  }

  /** Every message kept, oldest first. */
  messages(): TraceMessage[] {
    return this.#kept().map((entry) => this.#summary(entry));
  }

  /** One message with its contents, or null once it is no longer kept. */
  message(seq: number): TraceMessageDetail | null {
    const entry = this.#find(seq);
    return entry ? this.#detail(entry) : null;
  }

  /** The messages whose contents, as shown, or whose method or subject contain `text` (ignoring case). */
  find(text: string): number[] {
    const wanted = text.toLowerCase();
    return this.#kept()
      .filter((entry) => `${entry.method ?? ''} ${entry.subject ?? ''} ${JSON.stringify(this.#previewOf(entry).json)}`.toLowerCase().includes(wanted))
      .map((entry) => entry.seq);
  }

  /** JSON Lines, one message with its contents a line: the ones named (those still kept), or every one. */
  exportLines(seqs?: readonly number[]): string {
    const named = seqs ? new Set(seqs) : undefined;
    const entries = this.#kept().filter((entry) => !named || named.has(entry.seq));
    // Escaped, not cleaned: the line shows what the server sent, and printed on a terminal cannot drive it.
    return entries.map((entry) => `${escapedJson(this.#detail(entry))}\n`).join('');
  }

  /** While watched, new messages are announced, a batch at most every ANNOUNCE_EVERY_MS. */
  setWatched(watched: boolean): void {
    if (watched && !this.#watched) this.#announcedSeq = this.#newestSeq();
    this.#watched = watched;
    if (!watched) {
      clearTimeout(this.#timer);
      this.#timer = undefined;
    }
  }

  #noteRequest(entry: Entry, params: unknown): void {
    if (entry.direction === 'out') {
      // What Atrium's own request is about: the tool or prompt's name, the resource's address.
      const { name, uri } = (params ?? {}) as { name?: unknown; uri?: unknown };
      const subject = typeof name === 'string' ? name : typeof uri === 'string' ? uri : undefined;
      entry.subject = subject !== undefined && subject.length > MAX_SUBJECT_CHARS ? `${subject.slice(0, MAX_SUBJECT_CHARS)}…` : subject;
      entry.link = linkOf(params);
    }
    const awaiting = this.#awaiting[entry.direction];
    awaiting.set(entry.id as string | number, entry);
    if (awaiting.size > MAX_AWAITING) awaiting.delete(awaiting.keys().next().value as string | number);
  }

  /** Progress and cancellation name a request: they belong to its call. */
  #noteNotification(entry: Entry, params: unknown): void {
    let request: Entry | undefined;
    if (entry.method === 'notifications/progress') {
      const token = (params as { progressToken?: unknown } | undefined)?.progressToken;
      if (typeof token === 'string' || typeof token === 'number') request = this.#awaiting[entry.direction === 'in' ? 'out' : 'in'].get(token);
    } else if (entry.method === 'notifications/cancelled') {
      const requestId = (params as { requestId?: unknown } | undefined)?.requestId;
      if (typeof requestId === 'string' || typeof requestId === 'number') request = this.#awaiting[entry.direction].get(requestId);
      // Called off: its answer need not come. It stays paired with one that comes all the same.
      if (request) {
        request.unanswered = 'cancelled';
        request.durationMs = entry.at - request.at;
      }
    }
    if (!request) return;
    entry.link = request.link;
    entry.subject = request.subject;
  }

  #noteAnswer(entry: Entry, result: unknown): void {
    if ((result as { isError?: unknown } | undefined)?.isError === true) entry.failed = true;
    if (entry.id === undefined) return;
    const awaiting = this.#awaiting[entry.direction === 'in' ? 'out' : 'in'];
    const request = awaiting.get(entry.id);
    if (!request) return;
    awaiting.delete(entry.id);
    request.unanswered = undefined;
    entry.method = request.method;
    entry.subject = request.subject;
    entry.link = request.link;
    entry.pairSeq = request.seq;
    request.pairSeq = entry.seq;
    entry.durationMs = request.durationMs = entry.at - request.at;
  }

  #keep(entry: Entry): void {
    this.#entries.push(entry);
    this.#weight += entry.weight;
    const { messages, bytes } = this.limits;
    while (this.#entries.length - this.#head > messages || (this.#weight > bytes && this.#entries.length - this.#head > 1)) {
      const dropped = this.#entries[this.#head] as Entry;
      this.#entries[this.#head++] = undefined;
      this.#weight -= dropped.weight;
      // A request still waiting for its answer keeps only what pairs it.
      dropped.text = undefined;
      dropped.preview = undefined;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#entries.length) {
      this.#entries = this.#entries.slice(this.#head);
      this.#head = 0;
    }
  }

  #kept(): Entry[] {
    return this.#entries.slice(this.#head) as Entry[];
  }

  #newestSeq(): number {
    return this.#entries.at(-1)?.seq ?? 0;
  }

  #find(seq: number): Entry | undefined {
    let low = this.#head;
    let high = this.#entries.length - 1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      const entry = this.#entries[middle] as Entry;
      if (entry.seq === seq) return entry;
      if (entry.seq < seq) low = middle + 1;
      else high = middle - 1;
    }
    return undefined;
  }

  readonly #announce = (): void => {
    this.#timer = undefined;
    if (!this.#watched) return;
    const first = this.#firstIndexAfter(this.#announcedSeq);
    const listed = Math.max(first, this.#entries.length - MAX_ANNOUNCED);
    const fresh: TraceMessage[] = [];
    for (let index = listed; index < this.#entries.length; index++) fresh.push(this.#summary(this.#entries[index] as Entry));
    this.#announcedSeq = this.#newestSeq();
    if (fresh.length > 0) this.#hooks.announce(fresh, listed - first);
  };

  /** The index of the first kept entry numbered after `seq` (the end when there is none). */
  #firstIndexAfter(seq: number): number {
    let low = this.#head;
    let high = this.#entries.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((this.#entries[middle] as Entry).seq <= seq) low = middle + 1;
      else high = middle;
    }
    return low;
  }

  #summary(entry: Entry): TraceMessage {
    if (entry.bytes < 0 && entry.text !== undefined) entry.bytes = Buffer.byteLength(entry.text);
    const summary: TraceMessage = { serverId: this.serverId, seq: entry.seq, at: entry.at, direction: entry.direction, kind: entry.kind, bytes: entry.bytes };
    if (entry.method !== undefined) summary.method = entry.method;
    if (entry.id !== undefined) summary.id = entry.id;
    if (entry.subject !== undefined) summary.subject = entry.subject;
    if (entry.failed) summary.failed = true;
    if (entry.pairSeq !== undefined) summary.pairSeq = entry.pairSeq;
    if (entry.durationMs !== undefined) summary.durationMs = entry.durationMs;
    if (entry.unanswered !== undefined) summary.unanswered = entry.unanswered;
    if (entry.link !== undefined) summary.link = entry.link;
    return summary;
  }

  #detail(entry: Entry): TraceMessageDetail {
    const { json, truncated } = this.#previewOf(entry);
    return { ...this.#summary(entry), json, truncated };
  }

  #previewOf(entry: Entry): Preview {
    if (!entry.preview) this.#makePreview(entry, JSON.parse(entry.text ?? 'null') as unknown);
    return entry.preview as Preview;
  }

  /** Replaces what is kept of a message by its preview (secrets redacted, cut within bounds). */
  #makePreview(entry: Entry, message: unknown): void {
    if (entry.bytes < 0 && entry.text !== undefined) entry.bytes = Buffer.byteLength(entry.text);
    const preview = previewOf(message);
    const weight = JSON.stringify(preview.json).length;
    // Only a kept entry counts against the bound (a big one is cut before it is kept).
    if (this.#find(entry.seq) === entry) this.#weight += weight - entry.weight;
    entry.weight = weight;
    entry.preview = preview;
    entry.text = undefined;
  }
}
