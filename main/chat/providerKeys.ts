// Where a provider's key may go. A key typed in Settings is stored (encrypted) together with the address
// it was typed for, and a provider is given it only while it still points there: an edit moves a key to a
// new address only when the person says so (main/api/providersApi.ts), and a provider whose address was
// changed outside Settings (providers.json edited by hand or by another program) is not given it. Keys
// from the environment are the person's own standing choice: they go wherever their provider points.

import { LlmError } from './llmTypes.ts';
import type { ProviderConfig } from './llmTypes.ts';
import type { SecretSource } from '../store/secrets.ts';
import { secretVariables } from '../store/secrets.ts';
import type { WritableSecrets } from '../store/encryptedSecrets.ts';
import { addressesInWords, providerAddress } from '../../shared/providerAddress.ts';

/** Names the secret, beside a stored key, that holds the address the key was set for. */
const ADDRESS_PREFIX = 'provider-key-address:';

export function keyAddressSecret(secret: string): string {
  return `${ADDRESS_PREFIX}${secret}`;
}

/** Where a provider's key comes from; a stored one with the address it was set for (none for a key stored before addresses were kept). */
export type KeyState = { source: 'none' } | { source: 'environment' } | { source: 'stored'; setFor: string | undefined };

/** A stored key and its address as they were, to put back when a change cannot be completed. */
export interface KeySnapshot {
  secret: string;
  key: string | undefined;
  setFor: string | undefined;
}

/** Why a provider is not given the key it names: said in the chat, in a connection test and in Settings. */
export function heldBackMessage(providerId: string, setFor: string, address: string | undefined): string {
  const [was, now] = address === undefined ? [setFor, 'an address without one'] : addressesInWords(setFor, address);
  return (
    `the key of provider "${providerId}" was not sent: it was set for ${was}, and the provider now points at ${now} ` +
    `(its address was changed outside Settings). Edit the provider in Settings to send the key there, or give it a new key.`
  );
}

export class ProviderKeys {
  /** Where keys are looked up: the environment first, then the store. */
  private readonly secrets: SecretSource;
  /** Where keys typed in a window are kept; absent where none can be (the command line). */
  private readonly store: WritableSecrets | undefined;

  constructor(secrets: SecretSource, store?: WritableSecrets) {
    this.secrets = secrets;
    this.store = store;
  }

  async state(secret: string | undefined): Promise<KeyState> {
    if (secret === undefined) return { source: 'none' };
    const value = await this.secrets.get(secret);
    return value === undefined ? { source: 'none' } : this.stateOf(secret, value);
  }

  /**
   * What `config`'s client reads its key through: a stored key set for another address is refused, saying
   * why; a missing one is said where this front end takes keys — Settings where keys can be stored, the
   * environment or a secrets file on the command line.
   */
  sourceFor(config: ProviderConfig): SecretSource {
    return {
      whereToGive: (name) => (this.store ? 'give it its key in Settings › Model providers' : `set the environment variable ${secretVariables(name).join(' or ')}, or give it in a --secrets file`),
      get: async (name) => {
        const value = await this.secrets.get(name);
        if (value === undefined || name !== config.apiKeySecret) return value;
        const state = await this.stateOf(name, value);
        const address = providerAddress(config.kind, config.baseUrl);
        if (state.source === 'stored' && state.setFor !== undefined && state.setFor !== address) throw new LlmError(config.id, heldBackMessage(config.id, state.setFor, address));
        return value;
      },
    };
  }

  /**
   * Stores `key` for `address`. The old key goes first, then the address, then the new key: a crash
   * between two writes leaves no key, never an old key set for a new address.
   */
  async set(secret: string, key: string, address: string): Promise<void> {
    const store = this.writable();
    await store.delete(secret);
    await store.set(keyAddressSecret(secret), address);
    await store.set(secret, key);
  }

  /** The person agreed: the stored key goes to `address` from now on. */
  async sendTo(secret: string, address: string): Promise<void> {
    await this.writable().set(keyAddressSecret(secret), address);
  }

  async remove(secret: string): Promise<void> {
    if (!this.store) return;
    await this.store.delete(secret);
    await this.store.delete(keyAddressSecret(secret));
  }

  async snapshot(secret: string): Promise<KeySnapshot> {
    return { secret, key: await this.store?.get(secret), setFor: await this.store?.get(keyAddressSecret(secret)) };
  }

  /** Puts a key and its address back as `snapshot` had them (the key last, as in `set`). */
  async restore({ secret, key, setFor }: KeySnapshot): Promise<void> {
    if (!this.store) return;
    await this.store.delete(secret);
    await (setFor === undefined ? this.store.delete(keyAddressSecret(secret)) : this.store.set(keyAddressSecret(secret), setFor));
    if (key !== undefined) await this.store.set(secret, key);
  }

  /**
   * Keys stored before their addresses were kept are set for where their provider points now, so that
   * a later change of that address outside Settings does not take them along. A key two providers name
   * with different addresses is left as it was: which one it was typed for cannot be known.
   */
  async bindUnbound(providers: readonly ProviderConfig[]): Promise<void> {
    if (!this.store) return;
    const addresses = new Map<string, Set<string | undefined>>();
    for (const provider of providers) {
      if (provider.apiKeySecret === undefined) continue;
      const seen = addresses.get(provider.apiKeySecret) ?? new Set();
      seen.add(providerAddress(provider.kind, provider.baseUrl));
      addresses.set(provider.apiKeySecret, seen);
    }
    for (const [secret, seen] of addresses) {
      const [address, ...others] = [...seen];
      if (address === undefined || others.length > 0) continue;
      const state = await this.state(secret);
      if (state.source === 'stored' && state.setFor === undefined) await this.sendTo(secret, address);
    }
  }

  /** Where `value`, found for `secret`, comes from: the store (with the address it was set for) or the environment. */
  private async stateOf(secret: string, value: string): Promise<KeyState> {
    if (!this.store || (await this.store.get(secret)) !== value) return { source: 'environment' };
    return { source: 'stored', setFor: await this.store.get(keyAddressSecret(secret)) };
  }

  private writable(): WritableSecrets {
    if (!this.store) throw new Error('keys cannot be stored here');
    return this.store;
  }
}
