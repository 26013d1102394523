// Atrium as an OAuth client of one remote server's authorization server, in the shape the SDK's
// `auth()` drives: the SDK discovers, registers, builds the PKCE authorization request, redeems the code
// and refreshes; this class says who Atrium is (a native app named Atrium with a loopback redirect),
// where things are kept (the server's credential entry), and how the person is reached (the flow the
// coordinator opened, or none: then the person must be asked first).
//
// How Atrium identifies itself, in the order the SDK applies it: a client the person pre-registered
// (the server's `oauth.clientId`), a Client ID Metadata Document when the authorization server supports
// it and Atrium has one, else Dynamic Client Registration.

import { randomBytes } from 'node:crypto';
import type {
  DpopSession,
  OAuthClientInformationContext,
  OAuthClientMetadata,
  OAuthClientProvider,
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from '@modelcontextprotocol/client';
import type { OAuthServerConfig } from '../config/oauthConfig.ts';
import { redirectUrisOf } from './credentialVault.ts';
import type { ServerCredentials, StoredCredentials } from './credentialVault.ts';
import { openDpopSession } from './dpopKey.ts';

/** One sign-in with the person under way: where the browser comes back, and how the page is opened. */
export interface InteractiveFlow {
  readonly redirectUrl: string;
  /** Told the request's single-use state before the page opens. */
  expect(state: string): void;
  open(authorizationUrl: URL): Promise<void>;
}

/** Thrown where the SDK would open the authorization page but nobody asked Atrium to. */
export class PersonNeededError extends Error {
  constructor() {
    super('the authorization server needs the person to sign in');
    this.name = 'PersonNeededError';
  }
}

export interface ProviderOptions {
  credentials: ServerCredentials;
  /** Already read: the SDK reads some fields synchronously. */
  stored: StoredCredentials;
  config?: OAuthServerConfig;
  /** An https URL where Atrium's Client ID Metadata Document is published, if it has one. */
  clientMetadataUrl?: string;
  softwareVersion: string;
}

const FALLBACK_REDIRECT = 'http://127.0.0.1/callback';
const DPOP_ALGORITHM = 'ES256';

export class AtriumOAuthProvider implements OAuthClientProvider {
  /** Set by the coordinator for the length of one sign-in with the person. */
  flow: InteractiveFlow | undefined;
  /** The pre-registered client's secret, read from the secret store when a sign-in starts. */
  clientSecret: string | undefined;
  private readonly options: ProviderOptions;
  private dpopSession: Promise<DpopSession> | undefined;

  constructor(options: ProviderOptions) {
    this.options = options;
  }

  private get stored(): StoredCredentials {
    return this.options.stored;
  }

  get redirectUrl(): string {
    return this.flow?.redirectUrl ?? this.options.config?.redirectUri ?? registeredRedirect(this.stored) ?? FALLBACK_REDIRECT;
  }

  get clientMetadataUrl(): string | undefined {
    return this.options.clientMetadataUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    const scope = this.options.config?.scopes?.join(' ');
    return {
      client_name: 'Atrium',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A desktop app keeps no secret worth the name: it is a public client that proves itself with PKCE.
      token_endpoint_auth_method: 'none',
      application_type: 'native',
      software_id: 'atrium',
      software_version: this.options.softwareVersion,
      ...(scope ? { scope } : {}),
    };
  }

  state(): string {
    const state = randomBytes(32).toString('base64url');
    this.flow?.expect(state);
    return state;
  }

  async clientInformation(ctx?: OAuthClientInformationContext): Promise<StoredOAuthClientInformation | undefined> {
    const preRegistered = this.preRegistered(ctx);
    if (preRegistered) return preRegistered;
    if (!ctx) return undefined;
    const client = this.stored.clients[ctx.issuer];
    // A registration made for another redirect URI (another port) is made again rather than refused.
    if (client && this.flow && isDynamic(client) && !redirectUrisOf(client).includes(this.flow.redirectUrl)) return undefined;
    return client;
  }

  async saveClientInformation(client: StoredOAuthClientInformation, ctx?: OAuthClientInformationContext): Promise<void> {
    const issuer = ctx?.issuer ?? client.issuer;
    if (!issuer) return;
    await this.options.credentials.update((c) => void (c.clients[issuer] = { ...client, issuer }));
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.stored.tokens;
  }

  async saveTokens(tokens: StoredOAuthTokens): Promise<void> {
    await this.options.credentials.update((c) => {
      c.tokens = { ...tokens, receivedAt: Date.now() };
      delete c.codeVerifier;
    });
  }

  async redirectToAuthorization(authorizationUrl: URL): Promise<void> {
    if (!this.flow) throw new PersonNeededError();
    await this.flow.open(authorizationUrl);
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.options.credentials.update((c) => void (c.codeVerifier = codeVerifier));
  }

  codeVerifier(): string {
    if (!this.stored.codeVerifier) throw new Error('no sign-in is under way for this server');
    return this.stored.codeVerifier;
  }

  async saveDiscoveryState(state: OAuthDiscoveryState): Promise<void> {
    await this.options.credentials.update((c) => void (c.discovery = state));
  }

  discoveryState(): OAuthDiscoveryState | undefined {
    return this.stored.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.options.credentials.update((c) => {
      if (scope === 'all' || scope === 'client') c.clients = {};
      if (scope === 'all' || scope === 'tokens') delete c.tokens;
      if (scope === 'all' || scope === 'verifier') delete c.codeVerifier;
      if (scope === 'all' || scope === 'discovery') delete c.discovery;
    });
  }

  /** DPoP (RFC 9449) where the authorization server offers it with an algorithm Atrium signs with. */
  async dpop(): Promise<DpopSession | undefined> {
    const metadata = this.stored.discovery?.authorizationServerMetadata as { dpop_signing_alg_values_supported?: unknown } | undefined;
    const algorithms = metadata?.dpop_signing_alg_values_supported;
    const tokenIsDpop = this.stored.tokens?.token_type?.toLowerCase() === 'dpop';
    if (!tokenIsDpop && !(Array.isArray(algorithms) && algorithms.includes(DPOP_ALGORITHM))) return undefined;
    this.dpopSession ??= (async () => {
      const { session, privateJwk } = await openDpopSession(this.stored.dpopKey);
      if (this.stored.dpopKey !== privateJwk) await this.options.credentials.update((c) => void (c.dpopKey = privateJwk));
      return session;
    })();
    return this.dpopSession;
  }

  /**
   * The client the person registered, offered only to the authorization server it belongs to: the one
   * named in the config, else the first one it was used with (a server cannot later send it elsewhere).
   */
  private preRegistered(ctx?: OAuthClientInformationContext): StoredOAuthClientInformation | undefined {
    const config = this.options.config;
    if (!config?.clientId) return undefined;
    const boundTo = config.issuer ?? this.stored.preRegisteredIssuer ?? ctx?.issuer;
    if (ctx && !config.issuer && this.stored.preRegisteredIssuer === undefined) void this.options.credentials.update((c) => void (c.preRegisteredIssuer = ctx.issuer));
    return {
      client_id: config.clientId,
      ...(this.clientSecret ? { client_secret: this.clientSecret } : {}),
      ...(config.redirectUri ? { redirect_uris: [config.redirectUri] } : {}),
      ...(boundTo ? { issuer: boundTo } : {}),
    };
  }
}

function registeredRedirect(stored: StoredCredentials): string | undefined {
  const issuer = stored.tokens?.issuer;
  const client = issuer ? stored.clients[issuer] : Object.values(stored.clients)[0];
  return redirectUrisOf(client)[0];
}

/** A client Atrium registered itself (a CIMD client id is a URL, and its document is not ours to change). */
function isDynamic(client: StoredOAuthClientInformation): boolean {
  return !/^https:\/\//.test(client.client_id);
}
