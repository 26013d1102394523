// Where a server's messages enter the host: every JSON-RPC message a transport delivers (results, errors,
// requests for sampling or elicitation, notifications) passes through the one neutraliser before anything
// above sees it, so no consumer can get the raw text. What was removed is said in the server's log.
// The connection also hears here, at once, that the server says its tools changed: a call made before
// the new list is read waits for it (McpConnection.toolsSettled), rather than running an unread change.

import type { JSONRPCMessage, MessageExtraInfo, Transport } from '@modelcontextprotocol/client';
import { neutraliseServerValue, removalNote } from '../../../shared/serverText.ts';
import type { MessageReport } from '../../../shared/serverText.ts';
import type { ServerLog } from '../serverLog.ts';
import { TransportDecorator } from './transportDecorator.ts';

export class NeutralisingTransport extends TransportDecorator {
  readonly #log: Pick<ServerLog, 'add'>;
  readonly #onToolsChanged: () => void;
  // One report for the messages that need no change, which is nearly all: a fresh one only after a removal.
  #report: MessageReport = { removed: {} };

  constructor(inner: Transport, log: Pick<ServerLog, 'add'>, onToolsChanged: () => void = () => undefined) {
    super(inner);
    this.#log = log;
    this.#onToolsChanged = onToolsChanged;
  }

  protected receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    const clean = neutraliseServerValue(message, this.#report);
    if (clean !== message) {
      const { removed } = this.#report;
      this.#report = { removed: {} };
      this.#log.add('warning', 'host', removalNote(removed).replace(/ from this text/, ` from the server's ${describe(message)}`));
    }
    if ('method' in clean && clean.method === 'notifications/tools/list_changed') this.#onToolsChanged();
    this.deliver(clean, extra);
  }
}

function describe(message: object): string {
  if ('method' in message && typeof message.method === 'string') return `${message.method} message`;
  if ('error' in message) return 'error answer';
  return 'answer';
}
