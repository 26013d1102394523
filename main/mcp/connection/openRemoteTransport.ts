// Builds the transport for a remote server: the SDK's Streamable HTTP transport, and the legacy HTTP+SSE
// transport when the server turns out to be one, both over a fetch that bounds every answer in size and
// time (http/answerBounds.ts). A local server's transport is openStdioTransport.ts's.

import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { FetchLike, Tool } from '@modelcontextprotocol/client';
import { withMcpRequestHeaders } from './mcpRequestHeaders.ts';
import { boundedFetch } from '../http/answerBounds.ts';
import type { AnswerBounds } from '../http/answerBounds.ts';
import type { RemoteServerDefinition } from '../config/serverConfig.ts';

/** What the host adds beneath every request to a remote server (its OAuth credentials); none by default. */
export type FetchWrapper = (next: FetchLike) => FetchLike;

const unwrapped: FetchWrapper = (next) => next;

// Beneath the credentials, so that what the sign-in layer reads of an answer is bounded too.
export function openHttpTransport(def: RemoteServerDefinition, toolByName: (name: string) => Tool | undefined, bounds: AnswerBounds, wrap: FetchWrapper = unwrapped): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(def.url), {
    requestInit: { headers: def.headers },
    fetch: withMcpRequestHeaders(wrap(boundedFetch(bounds)), toolByName),
  });
}

export function openSseTransport(def: RemoteServerDefinition, bounds: AnswerBounds, wrap: FetchWrapper = unwrapped): SSEClientTransport {
  // The event stream is this transport's connection: one that is lost to an event without end closes it,
  // where its EventSource would only connect again and again.
  const wrapped = wrap(
    boundedFetch({
      ...bounds,
      onEndlessEvent: () => {
        bounds.onEndlessEvent?.();
        void transport.close();
      },
    }),
  );
  const transport = new SSEClientTransport(new URL(def.url), {
    requestInit: { headers: def.headers },
    eventSourceInit: { fetch: (url, init) => wrapped(url, { ...init, headers: { ...def.headers, ...(init?.headers as Record<string, string> | undefined) } }) },
    fetch: wrapped,
  });
  return transport;
}

/**
 * Whether a failed Streamable HTTP connect means "this is a legacy HTTP+SSE server": spec 002 says a
 * client that gets 400, 404 or 405 for its first POST should try the old transport's GET stream.
 */
export function suggestsLegacySse(error: unknown): boolean {
  const status = (error as { status?: unknown; data?: { status?: unknown } } | undefined)?.status ?? (error as { data?: { status?: unknown } } | undefined)?.data?.status;
  if (status === 400 || status === 404 || status === 405) return true;
  const message = error instanceof Error ? error.message : '';
  return /\b(400|404|405)\b/.test(message);
}
