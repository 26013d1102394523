// Where a model provider's requests, and so its key, go: its base URL, else its API's own address. The
// host binds a stored key to this address and the window names it when an edit would move the key, so
// both read it from here.

import type { ProviderKind } from './contract/settings.ts';

export const ANTHROPIC_API_ADDRESS = 'https://api.anthropic.com';
export const OPENAI_API_ADDRESS = 'https://api.openai.com/v1';

/** Each API's own address; an OpenAI-compatible server has none and is reached only by its base URL. */
export const DEFAULT_BASE_URLS: Readonly<Record<ProviderKind, string | undefined>> = {
  anthropic: ANTHROPIC_API_ADDRESS,
  openai: OPENAI_API_ADDRESS,
  'openai-responses': OPENAI_API_ADDRESS,
  'openai-compatible': undefined,
};

/**
 * The address a provider of `kind` at `baseUrl` sends its requests to, written one way (no trailing
 * slash, the host in lowercase), so two spellings of one address compare equal; undefined when it has none.
 */
export function providerAddress(kind: ProviderKind, baseUrl: string | undefined): string | undefined {
  const address = baseUrl ?? DEFAULT_BASE_URLS[kind];
  if (address === undefined) return undefined;
  try {
    return new URL(address).href.replace(/\/+$/, '');
  } catch {
    return address.replace(/\/+$/, '');
  }
}

/**
 * Two addresses as a sentence names them: by host and port where those differ ("api.openai.com",
 * "127.0.0.1:11434"), with the path where only the path does, else in full.
 */
export function addressesInWords(from: string, to: string): [string, string] {
  const a = parsed(from);
  const b = parsed(to);
  if (!a || !b) return [from, to];
  if (a.host !== b.host) return [a.host, b.host];
  if (a.pathname !== b.pathname) return [`${a.host}${a.pathname}`, `${b.host}${b.pathname}`];
  return [from, to];
}

/** One address as a sentence names it: its host and port. */
export function addressInWords(address: string): string {
  return parsed(address)?.host ?? address;
}

function parsed(address: string): URL | undefined {
  try {
    return new URL(address);
  } catch {
    return undefined;
  }
}
