// Builds the transport for one server definition. stdio servers get Atrium's own process transport
// (linear reader, process-group shutdown, stderr into the server's log); remote servers get the SDK's
// Streamable HTTP transport, and the legacy HTTP+SSE transport when the server turns out to be one.

import { SSEClientTransport, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { FetchLike, Tool } from '@modelcontextprotocol/client';
import { LaunchChangedError } from './connectionServices.ts';
import type { LaunchGate } from './connectionServices.ts';
import { withMcpRequestHeaders } from './mcpRequestHeaders.ts';
import type { RemoteServerDefinition, StdioServerDefinition } from '../config/serverConfig.ts';
import { buildServerEnvironment } from '../stdio/serverEnvironment.ts';
import { prepareWorkingFolder } from '../stdio/serverFolder.ts';
import { StdioProcessTransport } from '../stdio/stdioProcessTransport.ts';

export interface StdioHooks {
  onStderrLine(line: string): void;
  onNoise(line: string): void;
  onExit(info: { code: number | null; signal: string | null }): void;
}

export async function openStdioTransport(
  def: StdioServerDefinition,
  hooks: StdioHooks,
  limits: { maxMessageBytes?: number; closeGraceMs?: number; workingFolder?: string } = {},
  gate?: LaunchGate,
): Promise<StdioProcessTransport> {
  const env = await buildServerEnvironment(def.env);
  // A folder the definition names must be there already (its absence is the person's to fix); Atrium's own is made.
  const cwd = def.cwd ?? limits.workingFolder;
  if (def.cwd === undefined && limits.workingFolder !== undefined) await prepareWorkingFolder(limits.workingFolder);
  // Checked with the very environment it gets, as late as can be: a script edited or a program put
  // earlier on the PATH since the person approved it is not run.
  if ((await gate?.confirm(def, env)) === 'changed') {
    throw new LaunchChangedError(`${def.id}: what it runs changed since you approved it (a script it runs, or the program its command finds); review it before it starts`);
  }
  return new StdioProcessTransport(
    {
      command: def.command,
      args: def.args,
      env,
      ...(cwd !== undefined ? { cwd } : {}),
      ...(limits.maxMessageBytes ? { maxMessageBytes: limits.maxMessageBytes } : {}),
      ...(limits.closeGraceMs !== undefined ? { closeGraceMs: limits.closeGraceMs } : {}),
    },
    hooks,
  );
}

/** What the host adds beneath every request to a remote server (its OAuth credentials); none by default. */
export type FetchWrapper = (next: FetchLike) => FetchLike;

const unwrapped: FetchWrapper = (next) => next;

/**
 * Gives each request a signal of its own, aborted when the signal it was given is, for as long as the
 * request is under way. The SDK's transports give every request their one long-lived signal, and fetch
 * adds an abort listener to it per request that it removes only once the request is garbage-collected:
 * a busy connection piled up thousands of listeners (Node warned past 1,500, "Possible EventTarget memory
 * leak detected") and each request paid for the pile. (AbortSignal.any keeps a set of followers that it
 * sweeps whole after every collection: the same pile, paid for later.) Here the listener goes when the
 * request is done: at its answer, or, for an event stream, when the stream ends.
 */
export const withSignalPerRequest: FetchWrapper = (next) => async (url, init) => {
  const given = init?.signal;
  if (!given || given.aborted) return next(url, init);
  const own = new AbortController();
  const abort = () => own.abort(given.reason);
  given.addEventListener('abort', abort);
  const done = () => given.removeEventListener('abort', abort);
  let response: Response;
  try {
    response = await next(url, { ...init, signal: own.signal });
  } catch (error) {
    done();
    throw error;
  }
  // A JSON answer is read at once; an event stream is read for as long as it lasts, and may be cut then.
  if (!response.body || !/^text\/event-stream\b/i.test(response.headers.get('content-type') ?? '')) {
    done();
    return response;
  }
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  response.body.pipeTo(writable).then(done, done);
  return new Response(readable, { status: response.status, statusText: response.statusText, headers: response.headers });
};

const fetchPerRequest = withSignalPerRequest((url, init) => fetch(url, init));

export function openHttpTransport(def: RemoteServerDefinition, toolByName: (name: string) => Tool | undefined, wrap: FetchWrapper = unwrapped): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(new URL(def.url), {
    requestInit: { headers: def.headers },
    fetch: withMcpRequestHeaders(wrap(fetchPerRequest), toolByName),
  });
}

export function openSseTransport(def: RemoteServerDefinition, wrap: FetchWrapper = unwrapped): SSEClientTransport {
  const wrapped = wrap(fetchPerRequest);
  return new SSEClientTransport(new URL(def.url), {
    requestInit: { headers: def.headers },
    eventSourceInit: { fetch: (url, init) => wrapped(url, { ...init, headers: { ...def.headers, ...(init?.headers as Record<string, string> | undefined) } }) },
    fetch: wrapped,
  });
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
