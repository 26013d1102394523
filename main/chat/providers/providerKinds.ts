// What each provider kind's API can do, known before its implementation (and its SDK) is loaded.
import type { ProviderKind } from '../../../shared/contract.ts';
import { providerAddress } from '../../../shared/providerAddress.ts';

/** Whether each kind's API takes deferred tools (LlmProvider.defersTools): Anthropic's and the Responses API's do. */
export const DEFERS_TOOLS: Record<ProviderKind, boolean> = {
  anthropic: true,
  'openai-responses': true,
  openai: false,
  'openai-compatible': false,
};

/**
 * Whether requests to a provider cannot go without a key: Anthropic's and OpenAI's own APIs need one; a
 * server at another base URL (a compatible server, a proxy that adds the key itself) may not, and is
 * asked without one.
 */
export function needsKey(kind: ProviderKind, baseUrl: string | undefined): boolean {
  if (kind === 'openai-compatible') return false;
  return providerAddress(kind, baseUrl) === providerAddress(kind, undefined);
}

/** Sent where a server needs no key: the SDKs refuse to run without one, and such servers ignore it. */
export const NO_KEY_PLACEHOLDER = 'not-needed';
