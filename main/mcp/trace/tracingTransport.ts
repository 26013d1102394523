// The layer that shows the trace every message: the innermost of a session's transport decorators, right on
// the transport itself, so it sees what the server really sent (before the neutraliser cleans it) and
// everything sent to it (the SDK's requests and the tool-call channel's alike).
//
// The JSON text travels with the message between this layer and a transport that deals in text (stdio):
// the transport hands over the line it read (`wireText` in the message's extra info) and takes the text
// made here to write, so tracing costs no second serialisation on either side.

import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/client';
import { TransportDecorator } from '../connection/transportDecorator.ts';
import type { ServerTrace } from './serverTrace.ts';

/** A message's JSON text as it travelled, passed along by a transport that has it. */
export interface WireText {
  wireText?: string;
}

export class TracingTransport extends TransportDecorator {
  readonly #trace: ServerTrace;

  constructor(inner: Transport, trace: ServerTrace) {
    super(inner);
    this.#trace = trace;
    trace.sessionStarted();
  }

  protected override closed(): void {
    this.#trace.sessionEnded();
    super.closed();
  }

  protected receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    this.#trace.record('in', message, (extra as WireText | undefined)?.wireText);
    this.deliver(message, extra);
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const wireText = JSON.stringify(message);
    this.#trace.record('out', message, wireText);
    const sendOptions: TransportSendOptions & WireText = options ? { ...options, wireText } : { wireText };
    return this.inner.send(message, sendOptions);
  }
}
