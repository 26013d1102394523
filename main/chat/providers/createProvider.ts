// The one place that knows which implementation serves which provider kind.

import type { SecretSource } from '../../store/secrets.ts';
import type { LlmProvider, ProviderConfig } from '../llmTypes.ts';
import { createAnthropicProvider } from './anthropicProvider.ts';
import { createOpenAiProvider } from './openaiProvider.ts';
import { createOpenAiResponsesProvider } from './openaiResponsesProvider.ts';

export interface ProviderOptions {
  /** Retries of a request that failed before any output (429, 5xx, network); the SDKs' default is 2. */
  maxRetries?: number;
}

export function createProvider(config: ProviderConfig, secrets: SecretSource, options: ProviderOptions = {}): LlmProvider {
  switch (config.kind) {
    case 'anthropic':
      return createAnthropicProvider(config, secrets, options);
    case 'openai':
    case 'openai-compatible':
      return createOpenAiProvider(config, secrets, options);
    case 'openai-responses':
      return createOpenAiResponsesProvider(config, secrets, options);
  }
}
