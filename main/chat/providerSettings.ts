// Which configured provider and model a message (or a server's sampling request) goes to, from the
// settings the store owns (main/store/settingsStore.ts): the person's pick, the conversation's, the
// default, or a provider named ad hoc by the CLI's flags.

import type { ProviderKind } from '../../shared/contract.ts';
import { providerKinds } from '../../shared/contract.ts';
import type { ProviderConfig, ProviderSettings } from '../store/settingsStore.ts';
import { ProviderSettingsError } from '../store/settingsStore.ts';

export type { ProviderSettings };

export interface ProviderChoice {
  /** A configured provider id, or a kind (anthropic | openai | openai-compatible | openai-responses) for one made from flags. */
  provider?: string;
  model?: string;
  baseUrl?: string;
}

const KINDS: readonly ProviderKind[] = providerKinds;

/**
 * Why no model can be used, in the words of the window (Settings, the model picker); `commandLine` says
 * the same for the CLI, whose flags the window has not got.
 */
export class ModelChoiceError extends ProviderSettingsError {
  readonly commandLine: string;
  /** The provider that has no model yet, when that is the problem: listing its models may give one. */
  readonly modelless: ProviderConfig | undefined;
  constructor(message: string, commandLine: string, modelless?: ProviderConfig) {
    super(message);
    this.commandLine = commandLine;
    this.modelless = modelless;
  }
}

/** The provider a new conversation uses: the default's, else the first configured. */
export function defaultProviderId(settings: ProviderSettings): string | undefined {
  return settings.default?.provider ?? settings.providers[0]?.id;
}

/** The model a provider answers with when none is picked: the default's, else the first configured, else the first its API listed. */
export function defaultModelOf(settings: ProviderSettings, providerId: string, configured: readonly string[] | undefined, listed: readonly string[] | undefined): string | undefined {
  return (settings.default?.provider === providerId ? settings.default.model : undefined) ?? configured?.[0] ?? listed?.[0];
}

/**
 * Which provider and model a turn uses: the flags (or the person's pick), else the conversation's, else
 * the settings' default; a provider without a default model uses the first it offers (`listed`, what its
 * API answered when asked). Every front end and sampling decide with this one function.
 */
export function chooseProvider(settings: ProviderSettings, choice: ProviderChoice, listed: (providerId: string) => readonly string[] | undefined = () => undefined): { config: ProviderConfig; model: string } {
  const wanted = choice.provider ?? defaultProviderId(settings);
  if (wanted === undefined) {
    throw new ModelChoiceError(
      'no model provider is set up yet: add one in Settings (Model providers)',
      'no LLM provider is configured: add one in the window (Settings, Model providers) or to providers.json in Atrium\'s data folder, or pass --provider anthropic|openai|openai-compatible|openai-responses --model M (its key in ANTHROPIC_API_KEY, OPENAI_API_KEY or ATRIUM_SECRET_<NAME>)',
    );
  }
  const configured = settings.providers.find((p) => p.id === wanted);
  const config: ProviderConfig | undefined = configured
    ? { ...configured, ...(choice.baseUrl ? { baseUrl: choice.baseUrl } : {}) }
    : (KINDS as readonly string[]).includes(wanted)
      ? { id: wanted, kind: wanted as ProviderKind, apiKeySecret: wanted, ...(choice.baseUrl ? { baseUrl: choice.baseUrl } : {}) }
      : undefined;
  const known = settings.providers.map((p) => p.id).join(', ') || 'none';
  if (!config) {
    const next = settings.providers.length > 0 ? `pick another model (set up: ${known})` : 'add a provider in Settings (Model providers)';
    throw new ModelChoiceError(`there is no provider "${wanted}" any more: ${next}`, `there is no provider "${wanted}" in providers.json (configured: ${known})`);
  }
  if (config.kind === 'openai-compatible' && !config.baseUrl) {
    throw new ModelChoiceError(
      `provider "${config.id}" is OpenAI-compatible and needs a base URL: edit it in Settings and give the address it answers at`,
      `provider "${config.id}" is OpenAI-compatible and needs a base URL (--base-url http://127.0.0.1:11434/v1 for Ollama)`,
    );
  }
  const model = choice.model ?? defaultModelOf(settings, config.id, config.models, listed(config.id));
  if (!model) {
    throw new ModelChoiceError(
      `provider "${config.id}" has no model to use: its models could not be listed (check its key and address in Settings), and none were given when it was added`,
      `no model chosen for provider "${config.id}": its models could not be listed (check its key and --base-url); pass --model, or set "default" or "models" in providers.json`,
      config,
    );
  }
  return { config, model };
}
