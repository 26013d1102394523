// Signing out tells the authorization server, where it offers a revocation endpoint (RFC 7009): the
// refresh token first (revoking it ends the grant at most servers), then the access token. A failure
// is reported, never fatal: the tokens are forgotten either way.

import { selectClientAuthMethod } from '@modelcontextprotocol/client';
import type { AuthorizationServerMetadata, FetchLike, StoredOAuthClientInformation, StoredOAuthTokens } from '@modelcontextprotocol/client';

export interface RevocationInputs {
  metadata: AuthorizationServerMetadata | undefined;
  client: StoredOAuthClientInformation | undefined;
  tokens: StoredOAuthTokens;
  fetch: FetchLike;
}

export interface RevocationOutcome {
  /** The authorization server has a revocation endpoint Atrium can use with this client. */
  offered: boolean;
  /** What it revoked: 'refresh token', 'access token'. */
  revoked: string[];
  /** What went wrong, as sentences (empty when all went well). */
  problems: string[];
}

/** Revokes what can be revoked, and says what was and what went wrong. */
export async function revokeTokens({ metadata, client, tokens, fetch }: RevocationInputs): Promise<RevocationOutcome> {
  // Both metadata shapes (RFC 8414 and OpenID) may carry these; the SDK's union type names them on one only.
  const fields = (metadata ?? {}) as { revocation_endpoint?: string; revocation_endpoint_auth_methods_supported?: string[]; token_endpoint_auth_methods_supported?: string[] };
  const endpoint = fields.revocation_endpoint;
  if (!endpoint || !client) return { offered: false, revoked: [], problems: [] };
  const revoked: string[] = [];
  const problems: string[] = [];
  const supported = fields.revocation_endpoint_auth_methods_supported ?? fields.token_endpoint_auth_methods_supported ?? [];
  const method = selectClientAuthMethod(client, supported);
  const candidates: [string | undefined, string][] = [
    [tokens.refresh_token, 'refresh_token'],
    [tokens.access_token, 'access_token'],
  ];
  for (const [token, hint] of candidates) {
    if (!token) continue;
    const what = hint.replace('_', ' ');
    const body = new URLSearchParams({ token, token_type_hint: hint });
    const headers = new Headers({ 'content-type': 'application/x-www-form-urlencoded' });
    if (method === 'client_secret_basic' && client.client_secret) {
      headers.set('authorization', `Basic ${Buffer.from(`${encodeURIComponent(client.client_id)}:${encodeURIComponent(client.client_secret)}`).toString('base64')}`);
    } else {
      body.set('client_id', client.client_id);
      if (method === 'client_secret_post' && client.client_secret) body.set('client_secret', client.client_secret);
    }
    try {
      const response = await fetch(endpoint, { method: 'POST', headers, body });
      await response.body?.cancel().catch(() => undefined);
      if (response.ok) revoked.push(what);
      else problems.push(`revoking the ${what} failed (HTTP ${response.status})`);
    } catch (error) {
      problems.push(`revoking the ${what} failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return { offered: true, revoked, problems };
}
