// The model providers of the settings: add (a name that is taken is refused), edit (what becomes of the
// key is main/api/providerKeyEdit.ts's rule), remove, and test a connection. Keys go into the encrypted
// store, set for the address they may go to (main/chat/providerKeys.ts), and never come back out: the
// window only learns whether one is set and where it comes from. Every rule is here, in the host, so the
// window, the browser bridge and any other client meet the same ones.

import type { AtriumApi, ConfiguredProviderView, ProviderKind } from '../../shared/contract.ts';
import { FieldProblemsError } from '../../shared/fieldProblems.ts';
import type { FieldProblem } from '../../shared/fieldProblems.ts';
import { providerAddress } from '../../shared/providerAddress.ts';
import type { LlmProvider } from '../chat/llmTypes.ts';
import type { ProviderKeys } from '../chat/providerKeys.ts';
import { checkConnection } from '../chat/providers/connectionCheck.ts';
import type { ProviderOptions } from '../chat/providers/createProvider.ts';
import { needsKey } from '../chat/providers/providerKinds.ts';
import type { ProviderConfig, SettingsStore } from '../store/settingsStore.ts';
import { secretVariables } from '../store/secrets.ts';
import { NotFoundError } from './conversationApi.ts';
import { planKeyEdit } from './providerKeyEdit.ts';
import type { KeyPlan } from './providerKeyEdit.ts';
import { InvalidServerConfigError } from './serverConfigApi.ts';

type ProviderRequests = Pick<AtriumApi, 'saveProvider' | 'editProvider' | 'removeProvider' | 'testProvider'>;

export interface ProvidersDeps {
  settings: SettingsStore;
  keys: ProviderKeys;
  /** Whether keys typed in the window can be kept (encrypted); else they come from the environment. */
  canStoreKeys: boolean;
  /** Why the key store is weak; with one, a key is kept only when the person accepts it. */
  keyStorageWarning?: string;
  /** Makes the client the chat would use for a provider (the official SDK), to test its connection. */
  makeProvider: (config: ProviderConfig, options: ProviderOptions) => LlmProvider;
}

/** Each configured provider as the window sees it: where it sends its requests and whether a key goes with them, never the key. */
export async function providerViews(providers: readonly ProviderConfig[], keys: ProviderKeys): Promise<ConfiguredProviderView[]> {
  return Promise.all(
    providers.map(async (p): Promise<ConfiguredProviderView> => {
      const state = await keys.state(p.apiKeySecret);
      const address = providerAddress(p.kind, p.baseUrl);
      const heldFor = state.source === 'stored' && state.setFor !== undefined && state.setFor !== address ? state.setFor : undefined;
      return {
        id: p.id,
        kind: p.kind,
        ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}),
        ...(p.models ? { models: [...p.models] } : {}),
        ...(p.imageGeneration ? { imageGeneration: true } : {}),
        ...(address ? { address } : {}),
        hasKey: state.source !== 'none' && heldFor === undefined,
        ...(state.source === 'stored' ? { key: { source: 'stored' as const, ...(heldFor ? { heldFor } : {}) } } : {}),
        ...(state.source === 'environment' && p.apiKeySecret ? { key: { source: 'environment' as const, variables: secretVariables(p.apiKeySecret) } } : {}),
      };
    }),
  );
}

export function createProvidersApi(deps: ProvidersDeps): ProviderRequests {
  const { settings, keys } = deps;
  // One change at a time: each is a key and a settings write that must not interleave with another's.
  let changing: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(change: () => Promise<T>): Promise<T> => {
    const next = changing.then(change);
    changing = next.catch(() => undefined);
    return next;
  };
  const known = (id: string): ProviderConfig => {
    const found = settings.current().providers.find((p) => p.id === id);
    if (!found) throw new NotFoundError(`there is no provider "${id}" any more`);
    return found;
  };
  const checkKeyStorage = (key: string | undefined, accepted: boolean | undefined) => {
    if (key === undefined) return;
    if (!deps.canStoreKeys) throw new InvalidServerConfigError('keys cannot be saved here: set ATRIUM_SECRET_<NAME> in the environment instead');
    // A weak store is never written silently: the person must have read the warning and accepted it.
    if (deps.keyStorageWarning && accepted !== true) {
      throw new InvalidServerConfigError('the key was not saved: keys are weakly protected here, and storing one needs your explicit agreement');
    }
  };

  return {
    saveProvider: ({ provider, key, acceptWeakKeyStorage }) =>
      oneAtATime(async () => {
        checkKeyStorage(key, acceptWeakKeyStorage);
        const taken = (id: string) => settings.current().providers.some((p) => p.id === id);
        const problems = fieldProblems(provider);
        if (taken(provider.id)) problems.unshift(nameTaken(provider.id));
        if (problems.length > 0) throw new FieldProblemsError(problems);
        const config = configOf(provider.id, provider.id, provider);
        const address = providerAddress(config.kind, config.baseUrl);
        // A key left stored under this name with no address (kept from before addresses were, its provider
        // gone) cannot be known to be for this one: it goes. One with its address is given only there.
        const left = await keys.state(config.id);
        const orphan = key === undefined && left.source === 'stored' && left.setFor === undefined;
        // The key is kept first: a provider is never saved as if it had a key that could not be stored.
        const before = key !== undefined || orphan ? await keys.snapshot(config.id) : undefined;
        if (orphan) await keys.remove(config.id);
        if (key !== undefined && address !== undefined) await keptKey(() => keys.set(config.id, key, address));
        await savedOrUndone(
          () =>
            settings.update((current) => {
              if (current.providers.some((p) => p.id === config.id)) throw new FieldProblemsError([nameTaken(config.id)]);
              return { ...current, providers: [...current.providers, config] };
            }),
          before,
        );
        return null;
      }),

    editProvider: ({ id, provider, key, removeKey, keepKey, acceptWeakKeyStorage }) =>
      oneAtATime(async () => {
        const existing = known(id);
        checkKeyStorage(key, acceptWeakKeyStorage);
        const secret = existing.apiKeySecret ?? id;
        const next = configOf(id, secret, provider);
        const plan = planKeyEdit({
          before: { kind: existing.kind, address: providerAddress(existing.kind, existing.baseUrl) },
          after: { kind: next.kind, address: providerAddress(next.kind, next.baseUrl) },
          key: await keys.state(secret),
          variables: secretVariables(secret),
          asked: { ...(key !== undefined ? { key } : {}), ...(removeKey !== undefined ? { removeKey } : {}), ...(keepKey ? { keepKey } : {}) },
        });
        const problems = [...fieldProblems(provider), ...('problem' in plan ? [plan.problem] : [])];
        if (problems.length > 0 || 'problem' in plan) throw new FieldProblemsError(problems);
        const before = plan.act === 'none' ? undefined : await keys.snapshot(secret);
        await keptKey(() => applyKeyPlan(keys, secret, plan));
        // Written even when only the key changed: every window hears of the change with the settings.
        await savedOrUndone(() => settings.update((current) => ({ ...current, providers: current.providers.map((p) => (p.id === id ? next : p)) })), before);
        return { key: plan.outcome };
      }),

    removeProvider: ({ id }) =>
      oneAtATime(async () => {
        const existed = settings.current().providers.some((p) => p.id === id);
        await settings.update(({ default: chosen, ...current }) => ({
          ...current,
          providers: current.providers.filter((p) => p.id !== id),
          ...(chosen && chosen.provider !== id ? { default: chosen } : {}),
        }));
        // Only a provider's own key goes: the store also holds other secrets (servers' sign-ins).
        if (existed) await keys.remove(id);
        return null;
      }),

    testProvider: async ({ id }) => {
      const config = known(id);
      const address = providerAddress(config.kind, config.baseUrl);
      if (address === undefined) return { ok: false, message: `${id} has no address: an OpenAI-compatible server is reached by its base URL. Edit it and give one.` };
      const state = await keys.state(config.apiKeySecret);
      if (state.source === 'none' && needsKey(config.kind, config.baseUrl)) return { ok: false, message: `${id} has no key yet, and ${address} needs one: edit it and give its key.` };
      return checkConnection(config, deps.makeProvider, { address, keySent: state.source !== 'none' });
    },
  };

  /** Writes the settings; when that fails, the key goes back to what it was, and the failure is said. */
  async function savedOrUndone(save: () => Promise<unknown>, before: Awaited<ReturnType<ProviderKeys['snapshot']>> | undefined): Promise<void> {
    try {
      await save();
    } catch (error) {
      // The settings stay as they were (the store swaps them only once written); the key goes back too.
      if (before) await keys.restore(before);
      throw error instanceof FieldProblemsError ? error : new InvalidServerConfigError((error as Error).message);
    }
  }
}

async function keptKey(change: () => Promise<void>): Promise<void> {
  try {
    await change();
  } catch (error) {
    throw new InvalidServerConfigError(`the key was not saved, so neither was the provider: ${(error as Error).message}`);
  }
}

async function applyKeyPlan(keys: ProviderKeys, secret: string, plan: Exclude<KeyPlan, { problem: unknown }>): Promise<void> {
  if (plan.act === 'set') await keys.set(secret, plan.key, plan.address);
  else if (plan.act === 'send') await keys.sendTo(secret, plan.address);
  else if (plan.act === 'remove') await keys.remove(secret);
}

interface ProviderFields {
  kind: ProviderKind;
  baseUrl?: string | undefined;
  models?: string[] | undefined;
  imageGeneration?: boolean | undefined;
}

function configOf(id: string, secret: string, provider: ProviderFields): ProviderConfig {
  return {
    id,
    kind: provider.kind,
    apiKeySecret: secret,
    ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
    ...(provider.models?.length ? { models: provider.models } : {}),
    ...(provider.imageGeneration ? { imageGeneration: true } : {}),
  };
}

/** What the schema cannot say: an OpenAI-compatible server is reached only by its base URL. */
function fieldProblems(provider: ProviderFields): FieldProblem[] {
  if (provider.kind === 'openai-compatible' && !provider.baseUrl) {
    return [{ field: 'provider.baseUrl', message: 'Base URL is needed for an OpenAI-compatible server: the address it answers at, for example http://127.0.0.1:11434/v1.' }];
  }
  return [];
}

function nameTaken(id: string): FieldProblem {
  return { field: 'provider.id', message: `A provider called "${id}" exists: edit it, or choose another name.` };
}
