// The settings half of the typed contract: LLM providers and their keys, the default model, the
// tool-count threshold, how tool calls and sampling requests are approved. Keys go into the encrypted secret store and never come back out: the window
// only learns whether one is set.

import type { AtriumApi, ProviderSettingsView } from '../../shared/contract.ts';
import type { LiveApprovals } from '../host/approval/approvalChoices.ts';
import type { ProviderConfig, SettingsStore } from '../store/settingsStore.ts';
import type { WritableSecrets } from '../store/encryptedSecrets.ts';
import type { SecretSource } from '../store/secrets.ts';
import { InvalidServerConfigError } from './serverConfigApi.ts';

type SettingsRequests = Pick<AtriumApi, 'getSettings' | 'saveProvider' | 'removeProvider' | 'saveDefaults'>;

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
    providers: await Promise.all(
      current.providers.map(async (p) => ({
        id: p.id,
        kind: p.kind,
        ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}),
        ...(p.models ? { models: [...p.models] } : {}),
        ...(p.imageGeneration ? { imageGeneration: true } : {}),
        hasKey: p.apiKeySecret !== undefined && (await deps.secrets.get(p.apiKeySecret)) !== undefined,
      })),
    ),
    ...(current.default ? { default: { ...current.default } } : {}),
    ...(current.toolThreshold ? { toolThreshold: current.toolThreshold } : {}),
    ...(current.toolContextPercent ? { toolContextPercent: current.toolContextPercent } : {}),
    approvals: deps.approvals.choices(),
    canStoreKeys: deps.store !== undefined,
    ...(deps.keyStorageWarning ? { keyStorageWarning: deps.keyStorageWarning } : {}),
  };
}

export function createSettingsApi(deps: SettingsDeps): SettingsRequests {
  const { settings } = deps;
  return {
    getSettings: () => settingsView(deps, settings),
    saveProvider: async ({ provider, key, acceptWeakKeyStorage }) => {
      if (key !== undefined && !deps.store) throw new InvalidServerConfigError('keys cannot be saved here: set ATRIUM_SECRET_<NAME> in the environment instead');
      // A weak store is never written silently: the person must have read the warning and accepted it.
      if (key !== undefined && deps.keyStorageWarning && acceptWeakKeyStorage !== true) {
        throw new InvalidServerConfigError('the key was not saved: keys are weakly protected here, and storing one needs your explicit agreement');
      }
      const config: ProviderConfig = {
        id: provider.id,
        kind: provider.kind,
        apiKeySecret: provider.id,
        ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
        ...(provider.models?.length ? { models: provider.models } : {}),
        ...(provider.imageGeneration ? { imageGeneration: true } : {}),
      };
      // The key is kept first: a provider is never saved as if it had a key that could not be stored.
      const keptKey = key !== undefined && deps.store ? { store: deps.store, previous: await deps.store.get(config.id) } : undefined;
      if (key !== undefined && keptKey) {
        try {
          await keptKey.store.set(config.id, key);
        } catch (error) {
          throw new InvalidServerConfigError(`the key was not saved, so neither was the provider: ${(error as Error).message}`);
        }
      }
      try {
        await settings.update((current) => ({ ...current, providers: [...current.providers.filter((p) => p.id !== config.id), config] }));
      } catch (error) {
        // The settings stay as they were (the store swaps them only once written); the key goes back too.
        if (keptKey) await (keptKey.previous === undefined ? keptKey.store.delete(config.id) : keptKey.store.set(config.id, keptKey.previous));
        throw new InvalidServerConfigError((error as Error).message);
      }
      return null;
    },
    removeProvider: async ({ id }) => {
      const existed = settings.current().providers.some((p) => p.id === id);
      await settings.update(({ default: chosen, ...current }) => ({
        ...current,
        providers: current.providers.filter((p) => p.id !== id),
        ...(chosen && chosen.provider !== id ? { default: chosen } : {}),
      }));
      // Only a provider's own key goes: the store also holds other secrets (servers' sign-ins).
      if (existed) await deps.store?.delete(id);
      return null;
    },
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
