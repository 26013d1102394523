// A transport around another: everything passes through to the inner transport unchanged, except what a
// subclass takes from the messages coming in (`receive`). The SDK Client connects to the outermost one,
// so layers each do one job — clean what a server sends, take Atrium's own tool-call answers — without
// redefining a property of the SDK's transport.

import type { JSONRPCMessage, MessageExtraInfo, Transport, TransportSendOptions } from '@modelcontextprotocol/client';

export abstract class TransportDecorator implements Transport {
  protected readonly inner: Transport;
  onmessage?: Transport['onmessage'];
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];

  constructor(inner: Transport) {
    this.inner = inner;
    // Set at once, not in start(): the SDK sets its handlers on this object before starting it, and a
    // transport may deliver a message as soon as it starts.
    inner.onmessage = (message, extra) => this.receive(message, extra);
    inner.onclose = () => this.closed();
    inner.onerror = (error) => this.onerror?.(error);
    // The SDK tells a local server's transport from a remote one's by its process and error stream (`pid`,
    // `stderr`): shown through the layers, so a server run here is treated as the local process it is. A
    // discovery probe it leaves unanswered then falls back to initialize on that same process, within the
    // one time limit of the start, instead of failing the start and costing a second process.
    if ('pid' in inner && 'stderr' in inner) {
      const local = inner as Transport & { pid: unknown; stderr: unknown };
      Object.defineProperty(this, 'pid', { get: () => local.pid, enumerable: true });
      Object.defineProperty(this, 'stderr', { get: () => local.stderr, enumerable: true });
    }
  }

  /** A message from the server: handed on to `onmessage` unless a layer keeps it. */
  protected abstract receive(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void;

  /** The inner transport closed; a layer that holds requests of its own ends them first. */
  protected closed(): void {
    this.onclose?.();
  }

  protected deliver(message: JSONRPCMessage, extra: MessageExtraInfo | undefined): void {
    this.onmessage?.(message, extra);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    return this.inner.send(message, options);
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  get sessionId(): string | undefined {
    return this.inner.sessionId;
  }

  get hasPerRequestStream(): boolean | undefined {
    return this.inner.hasPerRequestStream;
  }

  setProtocolVersion(version: string): void {
    this.inner.setProtocolVersion?.(version);
  }

  setSupportedProtocolVersions(versions: string[]): void {
    this.inner.setSupportedProtocolVersions?.(versions);
  }
}
