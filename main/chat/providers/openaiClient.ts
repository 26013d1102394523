// What the OpenAI providers (Chat Completions, Responses) share: the SDK client made from the person's
// configuration and key, the model list, and the sentences for errors a person can act on.

import { DEFERS_TOOLS, NO_KEY_PLACEHOLDER, needsKey } from './providerKinds.ts';
import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai';
import type { SecretSource } from '../../store/secrets.ts';
import { LlmError } from '../llmTypes.ts';
import type { LlmProvider, ModelRequest, ModelStreamEvent, ProviderConfig } from '../llmTypes.ts';
import type { ProviderKind } from '../../../shared/contract.ts';
import { OPENAI_API_ADDRESS } from '../../../shared/providerAddress.ts';
import { cancellableTurn } from './cancellableTurn.ts';
import { missingKeyMessage, toLlmError } from './providerErrors.ts';
import type { ProviderErrorContext } from './providerErrors.ts';
import type { TokenUsage } from '../../../shared/domain.ts';

export const DEFAULT_BASE_URL = OPENAI_API_ADDRESS;
export { NO_KEY_PLACEHOLDER };

export type OpenAiKind = Exclude<ProviderKind, 'anthropic'>;

export interface OpenAiClientOptions {
  /** Retries of a request that failed before any output (429, 5xx, network); the SDK's default is 2. */
  maxRetries?: number;
  /** How long a request may take before it fails as timed out; the SDK's default is 10 minutes. */
  timeoutMs?: number;
}

export interface OpenAiClientSource {
  kind: OpenAiKind;
  baseURL: string;
  /** Reads the key on every turn, so a key the person changes applies without a restart. */
  client(): Promise<{ key: string; client: OpenAI }>;
  listModels(): Promise<string[]>;
  errors(key: string | undefined, model?: string): ProviderErrorContext<APIError>;
}

export function openAiClientSource(config: ProviderConfig, secrets: SecretSource, options: OpenAiClientOptions = {}): OpenAiClientSource {
  if (config.kind === 'anthropic') throw new Error(`provider ${config.id} is an Anthropic provider, not an OpenAI one`);
  const kind: OpenAiKind = config.kind;
  // An explicit default, so that OPENAI_BASE_URL in the environment cannot send the key elsewhere.
  const baseURL = config.baseUrl ?? DEFAULT_BASE_URL;
  // OpenAI itself always needs a key; a compatible server by base URL may need none.
  const keyRequired = needsKey(kind, baseURL);
  let cached: { key: string; client: OpenAI } | undefined;
  const errors = (key: string | undefined, model?: string) => errorContext(config, baseURL, key, model);

  async function client(): Promise<{ key: string; client: OpenAI }> {
    const stored = config.apiKeySecret === undefined ? undefined : await secrets.get(config.apiKeySecret);
    if (stored === undefined && keyRequired) throw new LlmError(config.id, missingKeyMessage(config, secrets));
    const key = stored ?? NO_KEY_PLACEHOLDER;
    if (cached?.key !== key) {
      cached = {
        key,
        client: new OpenAI({
          apiKey: key,
          baseURL,
          // Nothing ambient: no organisation, project or admin key from OPENAI_* variables rides along.
          organization: null,
          project: null,
          adminAPIKey: null,
          // The SDK retries only before any output arrives and honours retry-after; aborting stops it.
          maxRetries: options.maxRetries ?? 2,
          ...(options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {}),
          // Failures come back as LlmError values; the SDK's own console lines would reach no log a person reads.
          logLevel: 'off',
        }),
      };
    }
    return cached;
  }

  return {
    kind,
    baseURL,
    client,
    errors,
    async listModels() {
      try {
        const { client: openai } = await client();
        const ids: string[] = [];
        for await (const model of openai.models.list()) ids.push(model.id);
        if (ids.length > 0) return ids;
      } catch (error) {
        if (!config.models?.length) throw error instanceof LlmError ? error : toLlmError(config.id, error, errors(cached?.key));
      }
      return config.models ?? [];
    },
  };
}

/** A provider over one of OpenAI's APIs: `turn` streams one turn (updating `usage`); cancellation is handled around it. */
export function openAiProviderOver(
  config: ProviderConfig,
  secrets: SecretSource,
  options: OpenAiClientOptions,
  turn: (source: OpenAiClientSource, request: ModelRequest, usage: TokenUsage) => AsyncGenerator<ModelStreamEvent>,
): LlmProvider {
  const source = openAiClientSource(config, secrets, options);
  return {
    id: config.id,
    kind: source.kind,
    // Only the Responses API has a tool search of its own; Chat Completions (and the servers that copy it) get the found tools added.
    defersTools: DEFERS_TOOLS[source.kind],
    listModels: () => source.listModels(),
    stream: (request) => {
      const usage: TokenUsage = { inputTokens: 0, outputTokens: 0 };
      return cancellableTurn(request.signal, usage, () => turn(source, request, usage));
    },
  };
}

function errorContext(config: ProviderConfig, baseURL: string, key: string | undefined, model?: string): ProviderErrorContext<APIError> {
  const compatible = config.kind === 'openai-compatible';
  const keyless = key === NO_KEY_PLACEHOLDER;
  return {
    label: `${config.kind === 'openai-compatible' ? 'OpenAI-compatible' : 'OpenAI'} provider "${config.id}"`,
    baseURL,
    // The placeholder is no secret, and scrubbing it would mangle messages that happen to contain it.
    key: keyless ? undefined : key,
    apiKeySecret: config.apiKeySecret,
    model,
    sdk: { APIError, APIConnectionError, APIConnectionTimeoutError },
    serverMessage: (error) => {
      const body = error.error as { message?: unknown } | undefined;
      return typeof body?.message === 'string' ? body.message : undefined;
    },
    unreachableHint: compatible ? 'Is the server running?' : 'Check the address and your network.',
    keyless: config.apiKeySecret === undefined && keyless,
    notFoundHint: compatible ? ` Does the base URL ${baseURL} end with the API path (often /v1)?` : '',
    statusWording: { 429: (says) => ` is rate-limiting requests or the quota is spent (HTTP 429)${says}` },
  };
}
