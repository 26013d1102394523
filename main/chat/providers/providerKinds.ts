// What each provider kind's API can do, known before its implementation (and its SDK) is loaded.
import type { ProviderKind } from '../../../shared/contract.ts';

/** Whether each kind's API takes deferred tools (LlmProvider.defersTools): Anthropic's and the Responses API's do. */
export const DEFERS_TOOLS: Record<ProviderKind, boolean> = {
  anthropic: true,
  'openai-responses': true,
  openai: false,
  'openai-compatible': false,
};
