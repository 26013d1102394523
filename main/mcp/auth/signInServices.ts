// What one server's sign-in coordinator (serverAuthorization.ts) is given and works with: the front end's
// services, what a 401 or 403 asked for, the bounds it keeps, and how a response's challenge is read and a
// token put on a request.

import { extractWWWAuthenticateParams } from '@modelcontextprotocol/client';
import type { FetchLike, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { SecretSource } from '../../store/secrets.ts';
import type { CredentialStore } from './credentialVault.ts';
import { SIGN_IN_REQUEST_TIMEOUT_MS } from './policyFetch.ts';

export type SignInMode = 'automatic' | 'when-asked';

export interface SignInServices {
  mode: SignInMode;
  /** Shows the person the authorization page: the system browser, the window, or (headless) a fetch. */
  openAuthorizationUrl(url: string, serverId: string): void | Promise<void>;
  /** Where sign-ins are kept (encrypted); they outlive the process only if the store does. */
  store: CredentialStore;
  /** Where secrets named in a server's `oauth` block are read. */
  secrets: SecretSource;
  /** Where Atrium's Client ID Metadata Document is published, if anywhere. */
  clientMetadataUrl?: string;
  softwareVersion: string;
  /** The network beneath the URL policy; global fetch unless a test records what is fetched. */
  fetch?: FetchLike;
  /** How long a sign-in waits for the browser to come back. */
  timeoutMs?: number;
}

export interface Challenge {
  resourceMetadataUrl?: URL;
  scope?: string;
  /** The person is asked for more scope than they granted (a 403 insufficient_scope). */
  stepUp?: boolean;
}

export type Need = Challenge & {
  reason: 'unauthorized' | 'insufficient-scope' | 'asked' | 'expiring';
  /** The request carried a token the server refused: its authorization server may have changed. */
  rejectedToken?: boolean;
};

/** Step-ups after which Atrium stops asking (with the sign-in that came first, three authorizations). */
export const MAX_STEP_UPS = 2;
export const REFRESH_MARGIN_MS = 60_000;
export const DEFAULT_SIGN_IN_TIMEOUT_MS = 10 * 60_000;
/** One request of a sign-in never takes longer than the whole sign-in may. */
export const requestTimeoutMs = (services: SignInServices) => Math.min(SIGN_IN_REQUEST_TIMEOUT_MS, services.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS);

export function challengeOf(response: Response): Challenge & { error?: string } {
  const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(response);
  return { ...(resourceMetadataUrl ? { resourceMetadataUrl } : {}), ...(scope ? { scope } : {}), ...(error ? { error } : {}) };
}

export function withBearer(init: RequestInit | undefined, tokens: StoredOAuthTokens | undefined): RequestInit | undefined {
  if (!tokens?.access_token) return init;
  const headers = new Headers(init?.headers);
  // A DPoP-bound token is presented by the DPoP layer beneath, with its proof.
  headers.set('authorization', `Bearer ${tokens.access_token}`);
  return { ...init, headers };
}

export async function discard(response: Response): Promise<void> {
  await response.body?.cancel().catch(() => undefined);
}
