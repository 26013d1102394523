// "Test connection": the provider's own client (the official SDK the chat uses), with its key as the
// chat would send it, asks for the provider's models, the cheapest request every API answers. What
// happened comes back as a sentence: reached it and what it offers, or why not (the key refused, nothing
// answers at the address, …) in the words the chat would use. The key is never in it.

import type { ProviderCheck } from '../../../shared/contract.ts';
import { addressInWords } from '../../../shared/providerAddress.ts';
import { asSentence } from '../../../shared/sentence.ts';
import { LlmError } from '../llmTypes.ts';
import type { LlmProvider, ProviderConfig } from '../llmTypes.ts';
import type { ProviderOptions } from './createProvider.ts';

/** Long enough for a slow API to list its models; a person waits for the answer. */
export const CONNECTION_CHECK_TIMEOUT_MS = 15_000;
/** How many model names the sentence gives before it counts the rest. */
const MODELS_NAMED = 8;

export interface ConnectionCheckOptions {
  /** Where the requests go, as the sentence names it. */
  address: string;
  /** Whether a key goes with them (a local server may need none). */
  keySent: boolean;
  timeoutMs?: number;
}

export async function checkConnection(
  config: ProviderConfig,
  make: (config: ProviderConfig, options: ProviderOptions) => LlmProvider,
  { address, keySent, timeoutMs = CONNECTION_CHECK_TIMEOUT_MS }: ConnectionCheckOptions,
): Promise<ProviderCheck> {
  // Without configured models the client reports a failure instead of falling back to them, and one
  // attempt says what happened now: a retry would only make the person wait.
  const { models: _configured, ...bare } = config;
  const started = performance.now();
  let models: string[];
  try {
    models = await make(bare, { maxRetries: 0, timeoutMs }).listModels();
  } catch (error) {
    return { ok: false, message: asSentence(error instanceof LlmError ? error.message : `the test failed: ${(error as Error).message}`) };
  }
  const reached = `Reached ${addressInWords(address)} in ${Math.round(performance.now() - started)} ms, ${keySent ? 'with its key' : 'without a key'}`;
  if (models.length === 0) return { ok: true, message: `${reached}, but it lists no models: name the models it offers when you edit it.`, models };
  const named = models.slice(0, MODELS_NAMED).join(', ');
  const more = models.length > MODELS_NAMED ? ` and ${models.length - MODELS_NAMED} more` : '';
  return { ok: true, message: `${reached}. It offers ${models.length === 1 ? 'one model' : `${models.length} models`}: ${named}${more}.`, models };
}


