// Every web address a server hands the person (a URL-mode elicitation, a link in a reply or a result)
// is judged by the sign-in URL policy and described for them before anything opens it: the policy
// (https, plain http only to this computer, no private, link-local or cloud-metadata address, no
// credentials); the registrable domain, found with the Public Suffix List (tldts), which is what the
// person must recognise (`accounts.google.com.evil.example` belongs to evil.example); an
// internationalised name shown in Unicode beside its punycode, with a warning; and a name that mixes
// scripts (a Cyrillic "а" among Latin letters) flagged.

import { parse } from 'tldts';
import { addressKind, checkServerUrl } from './urlPolicy.ts';

export interface OfferedAddress {
  /** The address as it will be opened (the URL parser's form: the host name in punycode). */
  href: string;
  /** The host name as the URL parser gives it (ASCII, punycode for an internationalised name). */
  host: string;
  /** The host name in Unicode; the same as `host` for a plain ASCII name. */
  unicodeHost: string;
  /** The part of the host the person must recognise (ASCII): `evil.example`, `bbc.co.uk`, or the IP. */
  registrableDomain: string;
  /** The same in Unicode. */
  unicodeRegistrableDomain: string;
  /** Warnings for the person, in words: an internationalised name, mixed scripts. */
  warnings: string[];
}

export type OfferedAddressVerdict = { ok: true; address: OfferedAddress } | { ok: false; reason: string };

/** Judges an address a server handed over by the sign-in URL policy and describes it for the person. */
export function checkOfferedAddress(raw: string): OfferedAddressVerdict {
  // Loopback is as close as an address may be; a private-network address is refused below, since a
  // page a server offers has no business on the person's network.
  const verdict = checkServerUrl(raw, 'loopback');
  if (!verdict.ok) {
    // Where the address points says more to the person than its scheme: name a metadata or router address first.
    const closer = verdict.reason.startsWith('plain http') ? whereItPoints(raw) : undefined;
    return closer ? { ok: false, reason: closer } : verdict;
  }
  const closer = whereItPoints(raw);
  if (closer) return { ok: false, reason: closer };
  return { ok: true, address: describeAddress(verdict.url) };
}

function whereItPoints(raw: string): string | undefined {
  switch (addressKind(new URL(raw).hostname)) {
    case 'metadata':
      return 'it points at a cloud metadata service';
    case 'link-local':
      return 'it points at a link-local address (169.254.0.0/16, fe80::/10)';
    case 'private':
      return 'it points at a private network address (such as a router or another computer on your network)';
    default:
      return undefined;
  }
}

export function describeAddress(url: URL): OfferedAddress {
  const host = url.hostname;
  // Private suffixes count too: someone.github.io belongs to someone, not to GitHub.
  const parsed = parse(host, { allowPrivateDomains: true });
  const registrableDomain = (parsed.isIp ? host : parsed.domain) || host;
  const unicodeHost = toUnicodeHost(host);
  const warnings: string[] = [];
  if (unicodeHost !== host) {
    warnings.push(`This name uses letters outside plain English (${host} is how it is written for the network): it may imitate another site's name.`);
  }
  const mixed = mixedScriptLabels(unicodeHost);
  if (mixed.length > 0) {
    warnings.push(`The name mixes alphabets (${mixed.join('; ')}), a common way to imitate a familiar name.`);
  }
  return { href: url.href, host, unicodeHost, registrableDomain, unicodeRegistrableDomain: toUnicodeHost(registrableDomain), warnings };
}

const SCRIPTS: [string, RegExp][] = [
  ['Latin', /\p{Script=Latin}/u],
  ['Cyrillic', /\p{Script=Cyrillic}/u],
  ['Greek', /\p{Script=Greek}/u],
  ['Armenian', /\p{Script=Armenian}/u],
  ['Hebrew', /\p{Script=Hebrew}/u],
  ['Arabic', /\p{Script=Arabic}/u],
  ['Cherokee', /\p{Script=Cherokee}/u],
  ['Georgian', /\p{Script=Georgian}/u],
  ['Han', /\p{Script=Han}/u],
  ['Hiragana', /\p{Script=Hiragana}/u],
  ['Katakana', /\p{Script=Katakana}/u],
  ['Hangul', /\p{Script=Hangul}/u],
  ['Thai', /\p{Script=Thai}/u],
  ['Devanagari', /\p{Script=Devanagari}/u],
];
// Scripts that are written together: UTS #39's "highly restrictive" sets (Japanese, Korean, Chinese with Latin).
const ALLOWED_TOGETHER = [new Set(['Han', 'Hiragana', 'Katakana', 'Latin']), new Set(['Han', 'Hangul', 'Latin'])];

/** Each label of `host` that mixes scripts, described as "label: Latin and Cyrillic". */
export function mixedScriptLabels(host: string): string[] {
  const found: string[] = [];
  for (const label of host.split('.')) {
    const scripts = new Set<string>();
    for (const ch of label) {
      if (!/\p{L}/u.test(ch)) continue;
      const script = SCRIPTS.find(([, pattern]) => pattern.test(ch))?.[0] ?? 'Other';
      scripts.add(script);
    }
    if (scripts.size < 2) continue;
    if (ALLOWED_TOGETHER.some((allowed) => [...scripts].every((s) => allowed.has(s)))) continue;
    const order = SCRIPTS.map(([name]) => name);
    found.push(`${label}: ${[...scripts].sort((a, b) => order.indexOf(a) - order.indexOf(b)).join(' and ')}`);
  }
  return found;
}

/** A host name with each `xn--` label decoded (RFC 3492); a label that does not decode stays as it is. */
export function toUnicodeHost(host: string): string {
  return host
    .split('.')
    .map((label) => {
      if (!label.toLowerCase().startsWith('xn--')) return label;
      try {
        return decodePunycode(label.slice(4).toLowerCase());
      } catch {
        return label;
      }
    })
    .join('.');
}

// RFC 3492 section 6.2, the decoding procedure with the bootstring parameters for IDNA.
const BASE = 36;
const T_MIN = 1;
const T_MAX = 26;
const SKEW = 38;
const DAMP = 700;

function decodePunycode(input: string): string {
  const output: number[] = [];
  const basicEnd = input.lastIndexOf('-');
  for (let i = 0; i < Math.max(basicEnd, 0); i++) output.push(input.charCodeAt(i));
  let n = 128;
  let bias = 72;
  let i = 0;
  for (let index = basicEnd > 0 ? basicEnd + 1 : 0; index < input.length; ) {
    const oldi = i;
    for (let w = 1, k = BASE; ; k += BASE) {
      if (index >= input.length) throw new Error('bad punycode');
      const digit = digitOf(input.charCodeAt(index++));
      i += digit * w;
      const t = k <= bias ? T_MIN : k >= bias + T_MAX ? T_MAX : k - bias;
      if (digit < t) break;
      w *= BASE - t;
      if (w > 0x7fffffff) throw new Error('bad punycode');
    }
    bias = adapt(i - oldi, output.length + 1, oldi === 0);
    n += Math.floor(i / (output.length + 1));
    i %= output.length + 1;
    if (n > 0x10ffff) throw new Error('bad punycode');
    output.splice(i++, 0, n);
  }
  return String.fromCodePoint(...output);
}

function digitOf(code: number): number {
  if (code >= 0x30 && code <= 0x39) return code - 22;
  if (code >= 0x61 && code <= 0x7a) return code - 0x61;
  throw new Error('bad punycode');
}

function adapt(delta: number, points: number, first: boolean): number {
  let d = first ? Math.floor(delta / DAMP) : delta >> 1;
  d += Math.floor(d / points);
  let k = 0;
  while (d > ((BASE - T_MIN) * T_MAX) >> 1) {
    d = Math.floor(d / (BASE - T_MIN));
    k += BASE;
  }
  return k + Math.floor(((BASE - T_MIN + 1) * d) / (d + SKEW));
}
