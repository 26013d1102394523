// The one rule for every URL a remote server hands Atrium during sign-in: its protected-resource
// metadata, its authorization server's endpoints, the redirects on the way, the page the browser opens.
// A server is untrusted, so its URLs must not reach anything the person's machine can reach but the
// server cannot: https only (plain http only to this computer), no file:/javascript:/data: or any other
// scheme, no link-local or cloud-metadata addresses, and nothing closer to the person than the server
// they configured (a public server may not send Atrium to a private or loopback address).
// Names are judged as written here; policyFetch also judges the addresses a name resolves to.

export type AddressKind = 'loopback' | 'private' | 'link-local' | 'metadata' | 'unusable' | 'public';

/** How close to the person the configured server is: it may name addresses as close, never closer. */
export type OriginReach = 'loopback' | 'private' | 'public';

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

export class UrlPolicyError extends Error {
  readonly url: string;
  readonly reason: string;

  constructor(what: string, url: string, reason: string) {
    super(`Atrium refused to ${what} ${JSON.stringify(shorten(url))}: ${reason}`);
    this.name = 'UrlPolicyError';
    this.url = url;
    this.reason = reason;
  }
}

const MAX_LENGTH = 8192;
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data']);
const METADATA_ADDRESSES = new Set(['169.254.169.254', '100.100.100.200', 'fd00:ec2:0:0:0:0:0:254']);
// RFC 3986 allows none of these anywhere in a URI; a string with them is not an address but a trick
// (a space before `$(…)` or `; rm -rf`), whatever a lenient parser would make of it.
// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused.
const NOT_IN_A_URI = /[\u0000-\u0020\u007f-\u009f"<>\\^`{|}]/;

/** The reach of the server the person configured, from its URL. */
export function reachOf(serverUrl: string | URL): OriginReach {
  const kind = addressKind(new URL(serverUrl).hostname);
  return kind === 'loopback' ? 'loopback' : kind === 'private' ? 'private' : 'public';
}

/** Checks a URL that came from a server (or its metadata, or a redirect) whose configured reach is `origin`. */
export function checkServerUrl(raw: string, origin: OriginReach): UrlVerdict {
  if (typeof raw !== 'string' || raw.length === 0) return { ok: false, reason: 'the address is empty' };
  if (raw.length > MAX_LENGTH) return { ok: false, reason: `the address is longer than ${MAX_LENGTH} characters` };
  if (NOT_IN_A_URI.test(raw)) return { ok: false, reason: 'it holds spaces, control characters or characters no URL may contain' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'it is not a valid absolute URL' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    return { ok: false, reason: `only https addresses are allowed, and ${url.protocol.replace(/:$/, '')}: is not one` };
  }
  if (url.username !== '' || url.password !== '') return { ok: false, reason: 'the address carries a user name or password' };
  const kind = addressKind(url.hostname);
  if (url.protocol === 'http:' && kind !== 'loopback') return { ok: false, reason: 'plain http is allowed only to this computer (localhost); use https' };
  const refusal = refusalFor(kind, origin);
  return refusal ? { ok: false, reason: refusal } : { ok: true, url };
}

/**
 * Checks the addresses a URL's host name resolved to, as checkServerUrl checks a literal address: a
 * public name that resolves to a cloud metadata service, a link-local or (from a public server) a
 * private address is refused as if it had been written so.
 */
export function checkResolvedAddresses(url: URL, addresses: readonly string[], origin: OriginReach): UrlVerdict {
  for (const address of addresses) {
    const refusal = refusalFor(addressKind(address.includes(':') ? `[${address}]` : address), origin);
    if (refusal) return { ok: false, reason: `${url.hostname} resolves to ${address}: ${refusal.replace(/^it points at /, '')}` };
  }
  return { ok: true, url };
}

function refusalFor(kind: AddressKind, origin: OriginReach): string | undefined {
  switch (kind) {
    case 'metadata':
      return 'it points at a cloud metadata service';
    case 'link-local':
      return 'it points at a link-local address (169.254.0.0/16, fe80::/10)';
    case 'unusable':
      return 'it points at an address that is not a single host';
    case 'loopback':
      return origin === 'loopback' ? undefined : `a ${origin} server may not send Atrium to this computer (a loopback address)`;
    case 'private':
      return origin === 'public' ? 'a public server may not send Atrium to a private network address' : undefined;
    case 'public':
      return undefined;
  }
}

/** checkServerUrl that throws a UrlPolicyError naming what Atrium was about to do. */
export function assertServerUrl(raw: string, origin: OriginReach, what: string): URL {
  const verdict = checkServerUrl(raw, origin);
  if (!verdict.ok) throw new UrlPolicyError(what, raw, verdict.reason);
  return verdict.url;
}

/** What a host name (as URL.hostname gives it: IPv6 in brackets, IPv4 normalised) points at. */
export function addressKind(hostname: string): AddressKind {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[')) return ipv6Kind(host.slice(1, -1));
  const v4 = parseIpv4(host);
  if (v4) return ipv4Kind(v4);
  if (host === 'localhost' || host.endsWith('.localhost')) return 'loopback';
  if (METADATA_NAMES.has(host)) return 'metadata';
  return 'public';
}

function parseIpv4(host: string): number[] | undefined {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (!match) return undefined;
  const octets = match.slice(1).map(Number);
  return octets.every((o) => o <= 255) ? octets : undefined;
}

function ipv4Kind(octets: number[]): AddressKind {
  const [a = 0, b = 0] = octets;
  if (METADATA_ADDRESSES.has(octets.join('.'))) return 'metadata';
  if (a === 127) return 'loopback';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127)) return 'private';
  if (a === 0 || a >= 224) return 'unusable';
  return 'public';
}

function ipv6Kind(host: string): AddressKind {
  const groups = expandIpv6(host);
  if (!groups) return 'unusable';
  if (METADATA_ADDRESSES.has(groups.map((g) => g.toString(16)).join(':'))) return 'metadata';
  const [first = 0] = groups;
  // IPv4-mapped (::ffff:a.b.c.d) is judged as the IPv4 address it carries.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return ipv4Kind([high >> 8, high & 0xff, low >> 8, low & 0xff]);
  }
  if (groups.slice(0, 7).every((g) => g === 0)) return groups[7] === 1 ? 'loopback' : 'unusable';
  if ((first & 0xffc0) === 0xfe80) return 'link-local';
  if ((first & 0xfe00) === 0xfc00) return 'private';
  if ((first & 0xff00) === 0xff00) return 'unusable';
  return 'public';
}

/** Eight 16-bit groups, or undefined for anything that is not an IPv6 literal the URL parser wrote. */
function expandIpv6(text: string): number[] | undefined {
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => (/^[0-9a-f]{1,4}$/.test(g) ? parseInt(g, 16) : NaN)));
  const head = parse(halves[0] ?? '');
  const tail = halves.length === 2 ? parse(halves[1] ?? '') : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const groups = [...head, ...new Array<number>(halves.length === 2 ? missing : 0).fill(0), ...tail];
  return groups.some(Number.isNaN) ? undefined : groups;
}

function shorten(url: string): string {
  return url.length > 200 ? `${url.slice(0, 200)}…` : url;
}
