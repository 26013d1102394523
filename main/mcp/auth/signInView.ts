// What the person sees of a sign-in, made from the stored tokens: who, until when, which scopes, from
// which authorization server. Never the tokens themselves.

import type { StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { ServerAuthView } from '../../../shared/domain.ts';

/** When the access token stops working (epoch ms), if the authorization server said. */
export function expiryOf(tokens: (StoredOAuthTokens & { receivedAt?: number }) | undefined): number | undefined {
  if (!tokens?.expires_in || tokens.receivedAt === undefined) return undefined;
  return tokens.receivedAt + tokens.expires_in * 1000;
}

export function signedInView(tokens: StoredOAuthTokens & { receivedAt?: number }): ServerAuthView {
  const subject = subjectOf(tokens);
  const expiresAt = expiryOf(tokens);
  const scopes = tokens.scope?.split(/\s+/).filter(Boolean);
  return {
    state: 'signed-in',
    ...(subject ? { subject } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
    ...(scopes?.length ? { scopes } : {}),
    ...(tokens.issuer ? { issuer: tokens.issuer } : {}),
  };
}

/**
 * Who signed in, as the tokens claim it: the ID token's, else a JWT access token's name for the person.
 * Shown as untrusted text; it is never used to decide anything, so the signature is not checked here.
 */
function subjectOf(tokens: StoredOAuthTokens): string | undefined {
  for (const jwt of [tokens.id_token, tokens.access_token]) {
    const claims = jwt ? claimsOf(jwt) : undefined;
    const name = claims && [claims.preferred_username, claims.email, claims.name, claims.sub].find((v): v is string => typeof v === 'string' && v !== '');
    if (name) return name.slice(0, 200);
  }
  return undefined;
}

function claimsOf(jwt: string): Record<string, unknown> | undefined {
  const payload = jwt.split('.')[1];
  if (!payload || jwt.split('.').length !== 3) return undefined;
  try {
    const claims: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    return typeof claims === 'object' && claims !== null ? (claims as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
