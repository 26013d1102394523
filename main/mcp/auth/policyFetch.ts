// The fetch every sign-in request goes through: discovery, registration, token, refresh, revocation.
// Each URL passes the URL policy before it is fetched, redirects are never followed blindly (each hop is
// checked again, and credentials never cross to another origin), and a metadata document whose
// endpoints break the policy is refused as a whole, with the offending field named, before the SDK
// reads it.

import type { FetchLike } from '@modelcontextprotocol/client';
import { assertServerUrl, checkServerUrl, UrlPolicyError } from './urlPolicy.ts';
import type { OriginReach } from './urlPolicy.ts';

const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** The fields of protected-resource and authorization-server metadata that Atrium fetches or opens. */
const METADATA_URL_FIELDS = ['authorization_endpoint', 'token_endpoint', 'registration_endpoint', 'revocation_endpoint'] as const;

export function policyFetch(origin: OriginReach, base: FetchLike = fetch): FetchLike {
  return async (input, init) => {
    let url = assertServerUrl(String(input), origin, 'fetch');
    let request: RequestInit = { ...init };
    for (let hop = 0; ; hop++) {
      const response = await base(url, { ...request, redirect: 'manual' });
      const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
      if (location === null) return guardMetadata(url, response, origin);
      // A caller that handles redirects itself (the SDK's same-origin follower) gets the hop as it is;
      // its next request comes back through here and is checked like any other.
      if (init?.redirect === 'manual') return response;
      if (init?.redirect === 'error') throw new TypeError(`${url.href} answered with a redirect`);
      const method = (request.method ?? 'GET').toUpperCase();
      const keepsBody = response.status === 307 || response.status === 308;
      if ((method !== 'GET' && method !== 'HEAD' && !keepsBody) || hop === MAX_REDIRECTS) return response;
      await response.body?.cancel().catch(() => undefined);
      const next = assertServerUrl(new URL(location, url).href, origin, 'follow a redirect to');
      if (next.origin !== url.origin) request = withoutCredentials(request);
      url = next;
    }
  };
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
