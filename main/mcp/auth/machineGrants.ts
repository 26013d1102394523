// Grants that need nobody at a browser, for servers a person configured with credentials of their own
// (`oauth.grant` in servers.json): client_credentials with a client secret or a private_key_jwt key,
// the RFC 7523 jwt-bearer grant with a workload's assertion (workload identity federation), and
// enterprise-managed authorization (an ID token exchanged at the identity provider for an ID-JAG,
// then for an access token). The SDK's providers do the work; Atrium binds the credentials to the
// authorization server they were first used with, so a server cannot later send them elsewhere.

import { ClientCredentialsProvider, CrossAppAccessProvider, PrivateKeyJwtProvider, requestJwtAuthorizationGrant } from '@modelcontextprotocol/client';
import type { FetchLike, OAuthClientMetadata, OAuthClientProvider, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { OAuthServerConfig, SecretRef } from '../config/oauthConfig.ts';

const JWT_BEARER_GRANT = 'urn:ietf:params:oauth:grant-type:jwt-bearer';

export interface MachineGrantInputs {
  config: OAuthServerConfig;
  /** The authorization server these credentials belong to (configured, or bound on first use). */
  issuer: string;
  /** Reads a named secret, failing with a sentence naming the field when it is not set. */
  secret(ref: SecretRef, field: string): Promise<string>;
  /** The policy-checked fetch for the identity provider's token endpoint. */
  idpFetch: FetchLike;
}

/** A provider for the configured grant; undefined for the browser sign-in (authorization_code). */
export async function machineGrantProvider(inputs: MachineGrantInputs): Promise<OAuthClientProvider | undefined> {
  const { config, issuer } = inputs;
  const clientId = config.clientId ?? '';
  const scope = config.scopes?.join(' ') || undefined;
  const common = { clientId, clientName: 'Atrium', expectedIssuer: issuer, ...(scope ? { scope } : {}) };
  switch (config.grant ?? 'authorization_code') {
    case 'authorization_code':
      return undefined;
    case 'client_credentials':
      if (config.privateKey) {
        const privateKey = await inputs.secret(config.privateKey, 'oauth.privateKey');
        return new PrivateKeyJwtProvider({ ...common, privateKey, algorithm: config.signingAlgorithm ?? 'ES256' });
      }
      return new ClientCredentialsProvider({ ...common, clientSecret: await inputs.secret(config.clientSecret as SecretRef, 'oauth.clientSecret') });
    case 'jwt-bearer':
      return new JwtBearerProvider(clientId, issuer, await inputs.secret(config.assertion as SecretRef, 'oauth.assertion'), scope);
    case 'enterprise': {
      const idp = config.idp;
      if (!idp) return undefined;
      const idToken = await inputs.secret(idp.idToken, 'oauth.idp.idToken');
      const idpSecret = idp.clientSecret ? await inputs.secret(idp.clientSecret, 'oauth.idp.clientSecret') : undefined;
      return new CrossAppAccessProvider({
        ...common,
        clientSecret: await inputs.secret(config.clientSecret as SecretRef, 'oauth.clientSecret'),
        fetchFn: inputs.idpFetch,
        assertion: async (ctx) =>
          (
            await requestJwtAuthorizationGrant({
              tokenEndpoint: idp.tokenEndpoint,
              audience: ctx.authorizationServerUrl,
              resource: ctx.resourceUrl,
              idToken,
              clientId: idp.clientId,
              ...(idpSecret ? { clientSecret: idpSecret } : {}),
              ...(ctx.scope ? { scope: ctx.scope } : {}),
              fetchFn: inputs.idpFetch,
            })
          ).jwtAuthGrant,
      });
    }
  }
}

/**
 * RFC 7523 §2.1: the workload's JWT is the grant. A rejected assertion is reported, never retried
 * with the same assertion and never swapped for another grant: only a new assertion can fix it.
 */
class JwtBearerProvider implements OAuthClientProvider {
  private readonly clientId: string;
  private readonly issuer: string;
  private readonly assertion: string;
  private readonly scope: string | undefined;
  private stored: StoredOAuthTokens | undefined;
  private attempted = false;

  constructor(clientId: string, issuer: string, assertion: string, scope: string | undefined) {
    this.clientId = clientId;
    this.issuer = issuer;
    this.assertion = assertion;
    this.scope = scope;
  }

  get redirectUrl(): undefined {
    return undefined;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'Atrium', redirect_uris: [], grant_types: [JWT_BEARER_GRANT], token_endpoint_auth_method: 'none' };
  }

  clientInformation(): StoredOAuthClientInformation {
    return { client_id: this.clientId, issuer: this.issuer };
  }

  tokens(): StoredOAuthTokens | undefined {
    return this.stored;
  }

  saveTokens(tokens: StoredOAuthTokens): void {
    this.stored = tokens;
  }

  /** A new authorization (a restart, a sign-in the person asked for) may try the assertion once more. */
  beginAttempt(): void {
    this.attempted = false;
  }

  redirectToAuthorization(): void {
    throw new Error('the jwt-bearer grant opens no browser');
  }

  saveCodeVerifier(): void {}

  codeVerifier(): string {
    throw new Error('the jwt-bearer grant has no code verifier');
  }

  prepareTokenRequest(scope?: string): URLSearchParams {
    if (this.attempted) throw new Error('the authorization server refused the workload assertion; Atrium does not send it again');
    this.attempted = true;
    const params = new URLSearchParams({ grant_type: JWT_BEARER_GRANT, assertion: this.assertion });
    const effective = this.scope ?? scope;
    if (effective) params.set('scope', effective);
    return params;
  }
}
