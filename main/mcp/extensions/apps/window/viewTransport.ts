// The page's end of one view's message channel. The view runs two frames down (Atrium's page → the
// relay on the sandbox origin → the view), so every message from it arrives from the relay's window: a
// message is taken only when it comes from that frame's window on the sandbox origin, is a JSON-RPC 2.0
// object, fits the size cap and keeps within the rate. The relay has already dropped what is over the cap
// or not plain JSON (it says so, and the size is checked here again). Anything else is dropped; a view that
// keeps flooding, or keeps sending messages over the cap, is reported (`onstop`) so the card can stop it.
// The bridge (ext-apps' AppBridge) checks each message against the extension's schema on top of this.
import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { MAX_VIEW_MESSAGE_CHARS, viewMessageDropped } from '../contract/viewSandboxRelay.ts';
import { plainValue } from '../../../../../shared/serverText.ts';

const SANDBOX_RESOURCE_READY = 'ui/notifications/sandbox-resource-ready';

/** A view may send this many messages in a burst, refilled at `RATE_PER_SECOND`. */
const BURST = 200;
const RATE_PER_SECOND = 50;
/** Dropped for exceeding the rate this many times, a view is reported as flooding. */
const FLOOD_DROPS = 500;
/** This many messages over the cap, and a view is reported: each cost the relay the time to read it. */
const TOO_LARGE_DROPS = 3;

/** Why the transport stopped listening to a view. */
export type ViewStop = 'flood' | 'too-large';

export interface ViewTransportOptions {
  /** The relay frame's window: the only source messages are taken from. */
  frame: Window;
  /** The sandbox's origin: where messages go, and where they must come from. */
  sandboxOrigin: string;
  /** The view sent more, or larger, than it may; it is no longer listened to. */
  onstop(why: ViewStop): void;
  now?: () => number;
}

export class ViewTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: <T extends JSONRPCMessage>(message: T) => void;
  /** Messages dropped, by why: for the card to say, and for tests. */
  readonly dropped = { foreign: 0, malformed: 0, tooLarge: 0, tooFast: 0 };
  private tokens = BURST;
  private refilledAt: number;
  private closed = false;
  private readonly now: () => number;
  private readonly options: ViewTransportOptions;

  constructor(options: ViewTransportOptions) {
    this.options = options;
    this.now = options.now ?? (() => performance.now());
    this.refilledAt = this.now();
  }

  async start(): Promise<void> {
    window.addEventListener('message', this.listener);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (this.closed) return;
    // A view is its server's code: server text reaches it as the model reads it, with no marks of Atrium's.
    // The page itself (the relay's sandbox-resource-ready) goes as its server wrote it: it only runs there.
    const page = 'method' in message && message.method === SANDBOX_RESOURCE_READY;
    this.options.frame.postMessage(page ? message : plainValue(message), this.options.sandboxOrigin);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    window.removeEventListener('message', this.listener);
    this.onclose?.();
  }

  private readonly listener = (event: MessageEvent): void => {
    if (event.source !== this.options.frame || event.origin !== this.options.sandboxOrigin) {
      // Not this view's frame: another view, or a page pretending. Not counted against this view.
      return;
    }
    if (!this.withinRate()) {
      this.dropped.tooFast += 1;
      if (this.dropped.tooFast >= FLOOD_DROPS) this.stop('flood');
      return;
    }
    const message: unknown = event.data;
    if (isDropReport(message)) {
      this.dropped.tooLarge += message.params.reason === 'too-large' ? 1 : 0;
      this.dropped.malformed += message.params.reason === 'too-large' ? 0 : 1;
      if (this.dropped.tooLarge >= TOO_LARGE_DROPS) this.stop('too-large');
      return;
    }
    if (!isJsonRpc(message)) {
      this.dropped.malformed += 1;
      return;
    }
    let size: number;
    try {
      size = JSON.stringify(message).length;
    } catch {
      this.dropped.malformed += 1;
      return;
    }
    if (size > MAX_VIEW_MESSAGE_CHARS) {
      this.dropped.tooLarge += 1;
      if (this.dropped.tooLarge >= TOO_LARGE_DROPS) this.stop('too-large');
      return;
    }
    this.onmessage?.(message);
  };

  private stop(why: ViewStop): void {
    if (this.closed) return;
    void this.close();
    this.options.onstop(why);
  }

  private withinRate(): boolean {
    const now = this.now();
    this.tokens = Math.min(BURST, this.tokens + ((now - this.refilledAt) / 1000) * RATE_PER_SECOND);
    this.refilledAt = now;
    if (this.tokens < 1) return false;
    this.tokens -= 1;
    return true;
  }
}

function isJsonRpc(value: unknown): value is JSONRPCMessage {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const record = value as Record<string, unknown>;
  if (record['jsonrpc'] !== '2.0') return false;
  const hasMethod = typeof record['method'] === 'string' && (record['method'] as string).length <= 200;
  const isAnswer = 'result' in record || 'error' in record;
  return hasMethod || isAnswer;
}

/** The relay's word that it dropped one of the view's messages (a view could send it too: only to be stopped). */
function isDropReport(value: unknown): value is { params: { reason: string } } {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const params = record['params'] as Record<string, unknown> | undefined;
  return record['method'] === viewMessageDropped && typeof params === 'object' && params !== null && typeof params['reason'] === 'string';
}
