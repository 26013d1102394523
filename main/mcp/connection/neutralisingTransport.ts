// Where a server's messages enter the host: every JSON-RPC message a transport delivers (results, errors,
// requests for sampling or elicitation, notifications) passes through the one neutraliser before anything
// above sees it, so no consumer can get the raw text: each run of hidden characters is left as a marker
// (shared/serverText.ts). What was removed is said in the server's log. On the way out, Atrium's markers
// are taken out of what the server is sent (a name or an address it is asked about goes back plain).
// One answer alone is kept as written: the page of an MCP Apps view that the host itself asked for, to
// run in the view sandbox (its scripts need their characters); the request says so, never the server.
// The connection also hears here, at once, that the server says its tools changed: a call made before
// the new list is read waits for it (McpConnection.toolsSettled), rather than running an unread change.

import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { markServerValue, removalNote, withoutMarks } from '../../../shared/serverText.ts';
import type { MessageReport } from '../../../shared/serverText.ts';
import type { ServerLog } from '../serverLog.ts';
import { TransportDecorator } from './transportDecorator.ts';

/** The `_meta` flag of a resources/read the host makes for a view's page; taken off before the server sees it. */
export const VIEW_PAGE_READ = 'atrium/viewPageRead';

// Pages asked for and not yet answered; a server that never answers cannot make the list grow.
const MAX_PAGES_AWAITED = 16;

export class NeutralisingTransport extends TransportDecorator {
  readonly #log: Pick<ServerLog, 'add'>;
  readonly #onToolsChanged: () => void;
  // One report for the messages that need no change, which is nearly all: a fresh one only after a removal.
  #report: MessageReport = { removed: {} };
  readonly #pagesAwaited = new Set<string | number>();

  constructor(inner: Transport, log: Pick<ServerLog, 'add'>, onToolsChanged: () => void = () => undefined) {
    super(inner);
    this.#log = log;
    this.#onToolsChanged = onToolsChanged;
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return super.send(withoutMarks(this.#noteViewPage(message)), options);
  }

  protected receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    // An answer (not a server's own request, whose ids are its own) to a view page's read.
    const page = !('method' in message) && 'id' in message && message.id !== undefined && this.#pagesAwaited.delete(message.id) && 'result' in message;
    const clean = markServerValue(message, this.#report, page ? isViewPageText : undefined);
    if (clean !== message) {
      const { removed } = this.#report;
      this.#report = { removed: {} };
      this.#log.add('warning', 'host', removalNote(removed).replace(/ from this text/, ` from the server's ${describe(message)}`));
    }
    if ('method' in clean && clean.method === 'notifications/tools/list_changed') this.#onToolsChanged();
    this.deliver(clean, extra);
  }

  /** A view page's read is remembered by its id, and sent without the flag. */
  #noteViewPage(message: JSONRPCMessage): JSONRPCMessage {
    if (!('method' in message) || message.method !== 'resources/read' || !('id' in message)) return message;
    const meta = message.params?._meta as Record<string, unknown> | undefined;
    if (meta?.[VIEW_PAGE_READ] !== true) return message;
    if (this.#pagesAwaited.size >= MAX_PAGES_AWAITED) this.#pagesAwaited.delete(this.#pagesAwaited.values().next().value as string | number);
    this.#pagesAwaited.add(message.id);
    const { [VIEW_PAGE_READ]: _flag, ...rest } = meta;
    const params = { ...message.params };
    if (Object.keys(rest).length > 0) params._meta = rest;
    else delete params._meta;
    return { ...message, params };
  }
}

/** In the answer to a view page's read, a content's HTML (text, or base64 blob) is the page itself. */
function isViewPageText(key: string, holder: object): boolean {
  return (key === 'text' || key === 'blob') && 'uri' in holder;
}

function describe(message: object): string {
  if ('method' in message && typeof message.method === 'string') return `${message.method} message`;
  if ('error' in message) return 'error answer';
  return 'answer';
}
