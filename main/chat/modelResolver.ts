// Which provider and model a message or a server's sampling request goes to, and the models each
// configured provider offers. One object for both, so a model list fetched for the picker also serves
// the next turn and the next sampling request.

import type { ProviderView } from '../../shared/contract.ts';
import type { ProviderConfig, LlmProvider } from './llmTypes.ts';
import type { ProviderOptions } from './providers/createProvider.ts';
import type { ProviderChoice, ProviderSettings } from './providerSettings.ts';
import { ModelChoiceError, chooseProvider, defaultModelOf, defaultProviderId } from './providerSettings.ts';
import { modelBound } from './modelBound.ts';

export class ModelResolver {
  private readonly settings: () => ProviderSettings;
  /**
   * Makes the client of a configured provider (tests and the CLI may supply their own). Every provider a
   * turn or a sampling request uses comes from here, so every request is made plain for the model here.
   */
  readonly makeProvider: (config: ProviderConfig, options?: ProviderOptions) => LlmProvider;
  /** What each provider's API listed when last asked: a provider without a default model uses the first. */
  private readonly listed = new Map<string, string[]>();

  /** The base URL this run gives (the CLI's --base-url), for the provider it names (any, when it names none). */
  private readonly runBaseUrl: { provider?: string; baseUrl: string } | undefined;

  constructor(settings: () => ProviderSettings, makeProvider: (config: ProviderConfig, options?: ProviderOptions) => LlmProvider, runChoice?: ProviderChoice) {
    this.settings = settings;
    this.makeProvider = (config) => modelBound(makeProvider(config));
    this.runBaseUrl = runChoice?.baseUrl ? { baseUrl: runChoice.baseUrl, ...(runChoice.provider ? { provider: runChoice.provider } : {}) } : undefined;
  }

  /**
   * The provider and model a message or a server's sampling request uses (see chooseProvider). A provider
   * with no default model is asked for its models first, so one whose list loads is always usable.
   */
  async resolveModel(asked: ProviderChoice): Promise<{ config: ProviderConfig; model: string }> {
    const settings = this.settings();
    const run = this.runBaseUrl;
    const provider = asked.provider ?? defaultProviderId(settings);
    const choice = run && asked.baseUrl === undefined && (run.provider === undefined || run.provider === provider) ? { ...asked, baseUrl: run.baseUrl } : asked;
    try {
      return chooseProvider(settings, choice, (id) => this.listed.get(id));
    } catch (error) {
      if (!(error instanceof ModelChoiceError) || error.modelless === undefined) throw error;
      // The provider as this turn would use it (a flag's base URL included), configured or named ad hoc.
      const config = error.modelless;
      const listing = await this.makeProvider(config)
        .listModels()
        .then((models) => ({ models, why: undefined }), (failure: unknown) => ({ models: [] as string[], why: failure instanceof Error ? failure.message : String(failure) }));
      if (listing.models.length > 0) this.listed.set(config.id, listing.models);
      try {
        return chooseProvider(settings, choice, (id) => this.listed.get(id));
      } catch (still) {
        // Why the list could not be had (nothing answers, the key was refused or not sent) is what to act on.
        if (!(still instanceof ModelChoiceError) || still.modelless === undefined || listing.why === undefined) throw still;
        throw new ModelChoiceError(
          `provider "${config.id}" has no model to use, as its models could not be listed: ${listing.why} Check its key and address in Settings, or give the models it offers when you edit it.`,
          `${still.commandLine} (${listing.why})`,
          config,
        );
      }
    }
  }

  /**
   * The configured providers and the models each offers (fetched where the API lists them), each with the
   * model it uses when none is picked, and which one a new conversation uses; one that cannot answer says why.
   */
  async listProviders(): Promise<ProviderView[]> {
    const settings = this.settings();
    const defaultId = defaultProviderId(settings);
    return Promise.all(
      settings.providers.map(async (config): Promise<ProviderView> => {
        const base = { id: config.id, kind: config.kind, ...(config.id === defaultId ? { isDefault: true as const } : {}) };
        const withDefault = (models: string[], listed: string[] | undefined) => {
          const defaultModel = defaultModelOf(settings, config.id, config.models, listed);
          return { ...base, models, ...(defaultModel ? { defaultModel } : {}) };
        };
        try {
          const models = await this.makeProvider(config).listModels();
          if (models.length > 0) this.listed.set(config.id, models);
          else this.listed.delete(config.id);
          return withDefault(models, models);
        } catch (error) {
          return { ...withDefault(config.models ?? [], this.listed.get(config.id)), error: (error as Error).message };
        }
      }),
    );
  }
}
