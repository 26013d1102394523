// Where a server's messages enter the host: every JSON-RPC message a transport delivers (results,
// errors, requests for sampling or elicitation, notifications) passes through the one neutraliser
// before the SDK client or anything above it sees it, so no consumer can get the raw text. Atrium's own
// tool-call channel is offered each clean message first and keeps what answers its calls.

import type { JSONRPCMessage, Transport } from '@modelcontextprotocol/client';
import { neutraliseServerValue, removalNote } from '../../../shared/serverText.ts';
import type { MessageReport } from '../../../shared/serverText.ts';
import type { ServerLog } from '../serverLog.ts';

type MessageHandler = NonNullable<Transport['onmessage']>;

/**
 * Makes `transport` hand its listener neutralised messages: the SDK assigns `onmessage` when it
 * connects, so the property itself wraps whatever is assigned. `takenFirst` sees each clean message
 * before that listener and returns true for one it has handled, which the listener then never sees.
 */
export function neutraliseIncoming(transport: Transport, log: Pick<ServerLog, 'add'>, takenFirst: (message: JSONRPCMessage) => boolean): void {
  let listener: MessageHandler | undefined;
  let wrapped: MessageHandler | undefined;
  // One report for the messages that need no change, which is nearly all: a fresh one only after a removal.
  let report: MessageReport = { removed: {} };
  Object.defineProperty(transport, 'onmessage', {
    configurable: true,
    enumerable: true,
    get: () => wrapped,
    set: (next: MessageHandler | undefined) => {
      listener = next;
      wrapped = next
        ? (message, extra) => {
            const clean = neutraliseServerValue(message, report);
            if (clean !== message) {
              const { removed } = report;
              report = { removed: {} };
              log.add('warning', 'host', `${removalNote(removed).replace(/ from this text/, ` from the server's ${describe(message)}`)}`);
            }
            if (!takenFirst(clean)) listener?.(clean, extra);
          }
        : undefined;
    },
  });
}

function describe(message: object): string {
  if ('method' in message && typeof message.method === 'string') return `${message.method} message`;
  if ('error' in message) return 'error answer';
  return 'answer';
}
