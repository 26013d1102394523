// The one place that knows which implementation serves which provider kind. Each is loaded when first
// used, not when the host starts: the Anthropic and OpenAI SDKs take a good part of a second to load, and
// most commands (and a window that has not sent a message yet) never need them.

import type { SecretSource } from '../../store/secrets.ts';
import type { LlmProvider, ProviderConfig } from '../llmTypes.ts';
import { DEFERS_TOOLS } from './providerKinds.ts';

export interface ProviderOptions {
  /** Retries of a request that failed before any output (429, 5xx, network); the SDKs' default is 2. */
  maxRetries?: number;
  /** How long a request may take before it fails as timed out; the SDK's default is 10 minutes. */
  timeoutMs?: number;
}

export function createProvider(config: ProviderConfig, secrets: SecretSource, options: ProviderOptions = {}): LlmProvider {
  let loading: Promise<LlmProvider> | undefined;
  const provider = () => (loading ??= load(config, secrets, options));
  return {
    id: config.id,
    kind: config.kind,
    defersTools: DEFERS_TOOLS[config.kind],
    listModels: async () => (await provider()).listModels(),
    async *stream(request) {
      yield* (await provider()).stream(request);
    },
  };
}

async function load(config: ProviderConfig, secrets: SecretSource, options: ProviderOptions): Promise<LlmProvider> {
  switch (config.kind) {
    case 'anthropic':
      return (await import('./anthropicProvider.ts')).createAnthropicProvider(config, secrets, options);
    case 'openai':
    case 'openai-compatible':
      return (await import('./openaiProvider.ts')).createOpenAiProvider(config, secrets, options);
    case 'openai-responses':
      return (await import('./openaiResponsesProvider.ts')).createOpenAiResponsesProvider(config, secrets, options);
  }
}
