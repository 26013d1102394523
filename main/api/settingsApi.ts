// The settings half of the typed contract: LLM providers and their keys (main/api/providersApi.ts), the
// default model, the tool-count threshold, how tool calls and sampling requests are approved. Keys go
// into the encrypted secret store and never come back out: the window only learns whether one is set.

import type { AtriumApi, ProviderSettingsView } from '../../shared/contract.ts';
import type { LiveApprovals } from '../host/approval/approvalChoices.ts';
import type { LlmProvider } from '../chat/llmTypes.ts';
import { ProviderKeys } from '../chat/providerKeys.ts';
import type { ProviderOptions } from '../chat/providers/createProvider.ts';
import type { ProviderConfig, SettingsStore } from '../store/settingsStore.ts';
import type { WritableSecrets } from '../store/encryptedSecrets.ts';
import type { SecretSource } from '../store/secrets.ts';
import { createProvidersApi, providerViews } from './providersApi.ts';
import { InvalidServerConfigError } from './serverConfigApi.ts';

type SettingsRequests = Pick<AtriumApi, 'getSettings' | 'saveProvider' | 'editProvider' | 'removeProvider' | 'testProvider' | 'saveDefaults'>;

export interface SettingsDeps {
  /** The saved settings: a change is written, then applies to the next turn, tool call and sampling request. */
  settings: SettingsStore;
  /** The approval choices in effect, defaults included, read from `settings`. */
  approvals: Pick<LiveApprovals, 'choices'>;
  /** Where keys are looked up (the store and, before it, the environment). */
  secrets: SecretSource;
  /** Where keys entered in the window are kept; absent where keys cannot be saved. */
  store?: WritableSecrets;
  /** Why that store is weak (or missing); with a store, a key is kept only when the person accepts it. */
  keyStorageWarning?: string;
}

/** The settings as the window sees them: whether each provider has a key, never the key. */
export async function settingsView(deps: Omit<SettingsDeps, 'settings'>, settings: SettingsDeps['settings']): Promise<ProviderSettingsView> {
  const current = settings.current();
  return {
    providers: await providerViews(current.providers, new ProviderKeys(deps.secrets, deps.store)),
    ...(current.default ? { default: { ...current.default } } : {}),
    ...(current.toolThreshold ? { toolThreshold: current.toolThreshold } : {}),
    ...(current.toolContextPercent ? { toolContextPercent: current.toolContextPercent } : {}),
    approvals: deps.approvals.choices(),
    canStoreKeys: deps.store !== undefined,
    ...(deps.keyStorageWarning ? { keyStorageWarning: deps.keyStorageWarning } : {}),
  };
}

/** `makeProvider` makes the client the chat uses for a provider, for "Test connection". */
export function createSettingsApi(deps: SettingsDeps, makeProvider: (config: ProviderConfig, options: ProviderOptions) => LlmProvider): SettingsRequests {
  const { settings } = deps;
  return {
    getSettings: () => settingsView(deps, settings),
    ...createProvidersApi({
      settings,
      keys: new ProviderKeys(deps.secrets, deps.store),
      canStoreKeys: deps.store !== undefined,
      ...(deps.keyStorageWarning ? { keyStorageWarning: deps.keyStorageWarning } : {}),
      makeProvider,
    }),
    saveDefaults: async ({ default: chosen, toolThreshold, toolContextPercent, approvals }) => {
      if (chosen && !settings.current().providers.some((p) => p.id === chosen.provider)) throw new InvalidServerConfigError(`there is no provider "${chosen.provider}"`);
      // Only what was chosen is written: a choice never made keeps following the default.
      await settings.update((current) => ({
        ...current,
        ...(chosen ? { default: chosen } : {}),
        ...(toolThreshold !== undefined ? { toolThreshold } : {}),
        ...(toolContextPercent !== undefined ? { toolContextPercent } : {}),
        ...(approvals ? { approvals: { ...current.approvals, ...approvals } } : {}),
      }));
      return null;
    },
  };
}
