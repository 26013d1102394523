// Where a remote server's sign-in lives between runs: its client registrations (one per authorization
// server issuer), its tokens and refresh token, the PKCE verifier and discovery state of a flow under
// way, and the DPoP key its tokens are bound to. Everything goes through the secrets interface (the
// encrypted store of the window's front end), one entry per server, keyed by the server's name and the
// exact URL the person configured: a token is found only for the server it was issued to, and editing
// the address starts afresh. Nothing here is ever logged.

import { createHash } from 'node:crypto';
import type { webcrypto } from 'node:crypto';
import type { OAuthDiscoveryState, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { WritableSecrets } from '../../store/encryptedSecrets.ts';

export type CredentialStore = Pick<WritableSecrets, 'get' | 'set' | 'delete'>;

export interface StoredCredentials {
  /** The server URL the person configured: the only place these tokens are ever sent. */
  serverUrl: string;
  /** Client registrations by the issuer that made them; a credential never crosses to another issuer. */
  clients: Record<string, StoredOAuthClientInformation>;
  /** The current tokens (stamped with their issuer), and when they were received, for expiry. */
  tokens?: StoredOAuthTokens & { receivedAt: number };
  codeVerifier?: string;
  discovery?: OAuthDiscoveryState;
  /** The private JWK of the key DPoP-bound tokens are tied to: without it they are useless. */
  dpopKey?: webcrypto.JsonWebKey;
  /** Every scope asked for so far, so a step-up asks for the union. */
  requestedScope?: string;
  /** The authorization server a pre-registered client was first used with; it goes to no other. */
  preRegisteredIssuer?: string;
  /** The server refused the sign-in and nothing could renew it: said until the person signs in or out. */
  signInLost?: true;
}

const PREFIX = 'mcp-oauth:';

/** The redirect URIs a stored registration names (dynamic registrations carry them; others may not). */
export function redirectUrisOf(client: StoredOAuthClientInformation | undefined): string[] {
  const uris = (client as { redirect_uris?: unknown } | undefined)?.redirect_uris;
  return Array.isArray(uris) ? uris.filter((uri): uri is string => typeof uri === 'string') : [];
}

/** The secret name of one server's entry: its name and a digest of its URL. */
export function credentialName(serverId: string, serverUrl: string): string {
  const digest = createHash('sha256').update(serverUrl).digest('hex').slice(0, 16);
  return `${PREFIX}${serverId}@${digest}`;
}

/** A store that lasts as long as the process: the conformance client, or a front end with no safe store. */
export function memoryCredentialStore(): CredentialStore {
  const table = new Map<string, string>();
  return {
    get: async (name) => table.get(name),
    set: async (name, value) => void table.set(name, value),
    delete: async (name) => void table.delete(name),
  };
}

/** One server's entry, read once and written through on every change. */
export class ServerCredentials {
  private readonly store: CredentialStore;
  private readonly name: string;
  private readonly serverUrl: string;
  private loaded: Promise<StoredCredentials> | undefined;
  private writes: Promise<unknown> = Promise.resolve();

  constructor(store: CredentialStore, serverId: string, serverUrl: string) {
    this.store = store;
    this.serverUrl = serverUrl;
    this.name = credentialName(serverId, serverUrl);
  }

  read(): Promise<StoredCredentials> {
    this.loaded ??= this.load();
    return this.loaded;
  }

  /** Applies a change and stores the result; changes are written one after another. */
  async update(change: (credentials: StoredCredentials) => void): Promise<void> {
    const credentials = await this.read();
    change(credentials);
    const text = JSON.stringify(credentials);
    const write = this.writes.then(() => this.store.set(this.name, text));
    this.writes = write.catch(() => undefined);
    await write;
  }

  private async load(): Promise<StoredCredentials> {
    const text = await this.store.get(this.name);
    if (!text) return empty(this.serverUrl);
    try {
      const parsed = JSON.parse(text) as StoredCredentials;
      // A stored entry for another address (a digest collision, or a hand-edited store) is not used.
      return parsed.serverUrl === this.serverUrl && typeof parsed.clients === 'object' ? parsed : empty(this.serverUrl);
    } catch {
      return empty(this.serverUrl);
    }
  }
}

function empty(serverUrl: string): StoredCredentials {
  return { serverUrl, clients: {} };
}
