// What each provider kind's API can do, known before its implementation (and its SDK) is loaded.
import type { ProviderKind } from '../../../shared/contract.ts';
import { OPENAI_API_ADDRESS } from '../../../shared/providerAddress.ts';

/** Whether each kind's API takes deferred tools (LlmProvider.defersTools): Anthropic's and the Responses API's do. */
export const DEFERS_TOOLS: Record<ProviderKind, boolean> = {
  anthropic: true,
  'openai-responses': true,
  openai: false,
  'openai-compatible': false,
};

/** Whether requests to a provider cannot go without a key: Anthropic's and OpenAI's own APIs need one; a server at a base URL may not. */
export function needsKey(kind: ProviderKind, baseUrl: string | undefined): boolean {
  return kind === 'anthropic' || kind === 'openai' || (kind === 'openai-responses' && (baseUrl ?? OPENAI_API_ADDRESS) === OPENAI_API_ADDRESS);
}
