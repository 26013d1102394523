// The fetch every sign-in request goes through: discovery, registration, token, refresh, revocation.
// Each URL passes the URL policy before it is fetched, redirects are never followed blindly (each hop is
// checked again, and credentials never cross to another origin), and a metadata document whose
// endpoints break the policy is refused as a whole, with the offending field named, before the SDK
// reads it. On the real network a host name is resolved first and each of its addresses judged like a
// literal one, so a public name pointing at 169.254.169.254 or a private address is refused too (the
// name is resolved again by fetch itself: this stops a server's metadata, not a DNS server that lies
// twice). Every answer is read whole within a size cap (a metadata document is a few kilobytes) and a time
// limit, and ends when the sign-in is called off: an answer without end stops the sign-in with the reason.

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { FetchLike } from '@modelcontextprotocol/client';
import { readBounded } from '../http/boundedBody.ts';
import { assertServerUrl, checkResolvedAddresses, checkServerUrl, UrlPolicyError } from './urlPolicy.ts';
import type { OriginReach } from './urlPolicy.ts';

const MAX_REDIRECTS = 5;
/** The largest answer read in a sign-in: metadata, a registration, tokens (all a few kilobytes at most). */
export const MAX_SIGN_IN_ANSWER_BYTES = 256 * 1024;
/** How long one request of a sign-in may take, from sending it to the end of its answer, unless told. */
export const SIGN_IN_REQUEST_TIMEOUT_MS = 30_000;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** The fields of protected-resource and authorization-server metadata that Atrium fetches or opens. */
const METADATA_URL_FIELDS = ['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'revocation_endpoint'] as const;

/** An answer in a sign-in that was too large or too slow; like a refusal, it ends the sign-in. */
export class SignInAnswerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SignInAnswerError';
  }
}

/** What stops a sign-in from the fetch, even when the SDK swallows it: a URL refused, an answer without end. */
export type SignInRefusal = UrlPolicyError | SignInAnswerError;

/** The addresses a host name resolves to; none when it does not resolve (fetch then reports that itself). */
export type HostResolver = (hostname: string) => Promise<string[]>;

const resolveOnTheNetwork: HostResolver = (hostname) =>
  lookup(hostname, { all: true }).then(
    (found) => found.map((entry) => entry.address),
    () => [],
  );

export interface PolicyFetchOptions {
  /** The network beneath the policy: global fetch unless a test records what is fetched. */
  base?: FetchLike;
  /**
   * Hears every refusal, even one the SDK later swallows (it falls back to the server's own origin when
   * protected-resource discovery fails): a refusal must stop the sign-in, not be routed around.
   */
  onRefused?: (error: SignInRefusal) => void;
  /** Resolves host names; by default the real network's resolver when there is no `base`, else none. */
  resolveHost?: HostResolver;
  /**
   * The host the person configured: where its name resolves is their choice (a company server's name
   * may well resolve to a private address), so for it only metadata and link-local addresses are refused.
   */
  chosenHost?: string;
  /** How long one request may take, its answer read whole; SIGN_IN_REQUEST_TIMEOUT_MS by default. */
  timeoutMs?: number;
}

export function policyFetch(origin: OriginReach, options: PolicyFetchOptions = {}): FetchLike {
  const network = bounded(options.base ?? fetch, options.timeoutMs ?? SIGN_IN_REQUEST_TIMEOUT_MS);
  const resolveHost = options.resolveHost ?? (options.base ? undefined : resolveOnTheNetwork);
  const checkResolved = async (url: URL, what: string) => {
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    if (!resolveHost || isIP(hostname) !== 0) return;
    const reach = hostname === options.chosenHost ? 'loopback' : origin;
    const verdict = checkResolvedAddresses(url, await resolveHost(hostname), reach);
    if (!verdict.ok) throw new UrlPolicyError(what, url.href, verdict.reason);
  };
  const guarded: FetchLike = async (input, init) => {
    let url = assertServerUrl(String(input), origin, 'fetch');
    let request: RequestInit = { ...init };
    for (let hop = 0; ; hop++) {
      await checkResolved(url, hop === 0 ? 'fetch' : 'follow a redirect to');
      const response = await network(url, { ...request, redirect: 'manual' });
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
      if (location === null) return guardMetadata(url, response, origin);
      // A redirect somewhere the policy forbids is the server's own doing: refused, whoever follows it.
      const next = checkRedirect(location, url, origin, response);
      // A caller that handles redirects itself (the SDK's same-origin follower) gets the hop as it is;
      // its next request comes back through here and is checked like any other.
      if (init?.redirect === 'manual') return response;
      if (init?.redirect === 'error') throw new TypeError(`${url.href} answered with a redirect`);
      const method = (request.method ?? 'GET').toUpperCase();
      const keepsBody = response.status === 307 || response.status === 308;
      if ((method !== 'GET' && method !== 'HEAD' && !keepsBody) || hop === MAX_REDIRECTS) return response;
      await response.body?.cancel().catch(() => undefined);
      if (next.origin !== url.origin) request = withoutCredentials(request);
      url = next;
    }
  };
  return async (input, init) => {
    try {
      return await guarded(input, init);
    } catch (error) {
      if (error instanceof UrlPolicyError || error instanceof SignInAnswerError) options.onRefused?.(error);
      throw error;
    }
  };
}

/**
 * `network` with each answer read whole within MAX_SIGN_IN_ANSWER_BYTES and `timeoutMs` (from the request
 * to the end of its answer), and given up when the request's own signal is (the person called it off).
 */
function bounded(network: FetchLike, timeoutMs: number): FetchLike {
  return async (input, init) => {
    const url = String(input);
    const own = new AbortController();
    const given = init?.signal ?? undefined;
    const giveUp = () => own.abort(given?.reason);
    if (given?.aborted) giveUp();
    else given?.addEventListener('abort', giveUp);
    const timer = setTimeout(() => own.abort(new SignInAnswerError(`${url} did not finish answering within ${seconds(timeoutMs)}`)), timeoutMs);
    try {
      const response = await network(input, { ...init, signal: own.signal });
      return await readBounded(response, {
        maxBytes: MAX_SIGN_IN_ANSWER_BYTES,
        tooLarge: () => new SignInAnswerError(`the answer from ${url} is larger than ${MAX_SIGN_IN_ANSWER_BYTES / 1024} KB; Atrium stopped reading it`),
      });
    } finally {
      clearTimeout(timer);
      given?.removeEventListener('abort', giveUp);
    }
  };
}

/** `fetchLike` whose requests also end when `signal` aborts. */
export function withSignal(fetchLike: FetchLike, signal: AbortSignal): FetchLike {
  return (input, init) => fetchLike(input, { ...init, signal: init?.signal ? AbortSignal.any([init.signal, signal]) : signal });
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

function checkRedirect(location: string, from: URL, origin: OriginReach, response: Response): URL {
  let target: string;
  try {
    target = new URL(location, from).href;
  } catch {
    target = location;
  }
  const verdict = checkServerUrl(target, origin);
  if (verdict.ok) return verdict.url;
  void response.body?.cancel().catch(() => undefined);
  throw new UrlPolicyError('follow a redirect to', target, verdict.reason);
}

function withoutCredentials(init: RequestInit): RequestInit {
  const headers = new Headers(init.headers);
  headers.delete('authorization');
  headers.delete('dpop');
  headers.delete('cookie');
  return { ...init, headers };
}

async function guardMetadata(url: URL, response: Response, origin: OriginReach): Promise<Response> {
  if (!url.pathname.includes('/.well-known/') || !response.ok) return response;
  let document: unknown;
  try {
    document = await response.clone().json();
  } catch {
    // Not JSON: the SDK reports that itself.
    return response;
  }
  if (typeof document !== 'object' || document === null) return response;
  const fields = document as Record<string, unknown>;
  const named: [string, unknown][] = [
    ...METADATA_URL_FIELDS.map((field): [string, unknown] => [field, fields[field]]),
    ...(Array.isArray(fields.authorization_servers) ? fields.authorization_servers.map((value): [string, unknown] => ['authorization_servers', value]) : []),
  ];
  for (const [field, value] of named) {
    if (value === undefined) continue;
    const verdict = typeof value === 'string' ? checkServerUrl(value, origin) : { ok: false as const, reason: 'it is not a string' };
    if (!verdict.ok) throw new UrlPolicyError(`use the ${field} from ${url.href}`, String(value), verdict.reason);
  }
  return response;
}
