// A remote server's optional `oauth` block in servers.json: what the person knows about signing in to
// it that discovery cannot tell (a client they registered themselves, the scopes they want, a
// machine-to-machine grant). Secrets are never written here: a client secret, private key, assertion or
// ID token is named, `{"secret": "name"}`, and read from the secret store (or ATRIUM_SECRET_<NAME>).
//
//   "oauth": { "clientId": "my-app", "clientSecret": { "secret": "my-app-secret" }, "scopes": ["repo"] }

import type { OAuthGrant, OAuthServerConfig, SecretRef } from '../../../shared/domain.ts';

export type { OAuthGrant, OAuthServerConfig, SecretRef };

const secretRef = {
  type: 'object',
  required: ['secret'],
  additionalProperties: false,
  properties: { secret: { type: 'string', minLength: 1, maxLength: 100 } },
} as const;

export const oauthSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    grant: { enum: ['authorization_code', 'client_credentials', 'jwt-bearer', 'enterprise'] },
    clientId: { type: 'string', minLength: 1, maxLength: 2048 },
    clientSecret: secretRef,
    scopes: { type: 'array', maxItems: 100, items: { type: 'string', pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$' } },
    redirectUri: { type: 'string', pattern: '^http://(127\\.0\\.0\\.1|localhost|\\[::1\\]):\\d{1,5}/' },
    issuer: { type: 'string', pattern: '^https?://' },
    privateKey: secretRef,
    signingAlgorithm: { enum: ['ES256', 'ES384', 'ES512', 'RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'EdDSA'] },
    assertion: secretRef,
    idp: {
      type: 'object',
      required: ['tokenEndpoint', 'clientId', 'idToken'],
      additionalProperties: false,
      properties: {
        tokenEndpoint: { type: 'string', pattern: '^https?://' },
        clientId: { type: 'string', minLength: 1, maxLength: 2048 },
        clientSecret: secretRef,
        idToken: secretRef,
      },
    },
  },
} as const;

/** A secret written into the file itself (a string where a `{"secret": "name"}` belongs): its field. */
export function plaintextSecretField(oauth: unknown): string | undefined {
  if (typeof oauth !== 'object' || oauth === null) return undefined;
  const block = oauth as Record<string, unknown>;
  const direct = (['clientSecret', 'privateKey', 'assertion'] as const).find((field) => typeof block[field] === 'string');
  if (direct) return `oauth.${direct}`;
  const idp = block.idp as Record<string, unknown> | undefined;
  const nested = idp && typeof idp === 'object' ? (['clientSecret', 'idToken'] as const).find((field) => typeof idp[field] === 'string') : undefined;
  return nested ? `oauth.idp.${nested}` : undefined;
}

/** What the schema cannot say: which fields each grant needs. Returns [field, message] for the first gap. */
export function oauthProblem(config: OAuthServerConfig): [string, string] | undefined {
  switch (config.grant ?? 'authorization_code') {
    case 'authorization_code':
      if (config.clientSecret && !config.clientId) return ['oauth.clientId', 'a client secret needs the "clientId" it belongs to'];
      return undefined;
    case 'client_credentials':
      if (!config.clientId) return ['oauth.clientId', 'the client_credentials grant needs "clientId"'];
      if (!config.clientSecret && !config.privateKey) return ['oauth.clientSecret', 'the client_credentials grant needs "clientSecret" or "privateKey"'];
      return undefined;
    case 'jwt-bearer':
      if (!config.clientId) return ['oauth.clientId', 'the jwt-bearer grant needs "clientId"'];
      if (!config.assertion) return ['oauth.assertion', 'the jwt-bearer grant needs "assertion"'];
      return undefined;
    case 'enterprise':
      if (!config.clientId || !config.clientSecret) return ['oauth.clientId', 'the enterprise grant needs "clientId" and "clientSecret"'];
      if (!config.idp) return ['oauth.idp', 'the enterprise grant needs "idp"'];
      return undefined;
  }
}
