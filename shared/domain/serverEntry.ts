// A server's entry in servers.json as it is stored: secrets named, never written; OAuth settings.

import type { SandboxSetting } from '../../main/mcp/extensions/sandbox/contract/sandboxContract.ts';

/** A secret named, never written: read from the secret store (or ATRIUM_SECRET_<NAME>). */
export interface SecretRef {
  secret: string;
}

/** How Atrium obtains tokens: the person in a browser (default), or a grant that needs nobody. */
export type OAuthGrant = 'authorization_code' | 'client_credentials' | 'jwt-bearer' | 'enterprise';

export interface OAuthServerConfig {
  grant?: OAuthGrant;
  /** A client the person registered with the authorization server (else CIMD or dynamic registration). */
  clientId?: string;
  clientSecret?: SecretRef;
  /** Scopes asked for on top of what the server asks for. */
  scopes?: string[];
  /** The loopback redirect URI registered for `clientId` (http://127.0.0.1:<port>/<path>). */
  redirectUri?: string;
  /** The authorization server `clientId` belongs to: its credentials go to no other. */
  issuer?: string;
  /** client_credentials with private_key_jwt: the PEM key and its algorithm (default ES256). */
  privateKey?: SecretRef;
  signingAlgorithm?: string;
  /** jwt-bearer: the workload's JWT assertion. */
  assertion?: SecretRef;
  /** enterprise: the identity provider that exchanges the person's ID token for an authorization grant. */
  idp?: { tokenEndpoint: string; clientId: string; clientSecret?: SecretRef; idToken: SecretRef };
}

type StoredEntryCommon = {
  disabled?: true;
  /** Folders this server gets as roots besides the workspace's (a bundle's folder settings). */
  roots?: string[];
  trusted?: true;
  /** Tools turned off for the model: some, or 'all'. */
  disabledTools?: string[] | 'all';
  /** Tools always sent to the model, even when it searches for the rest: some, or 'all'. */
  alwaysLoadedTools?: string[] | 'all';
  requestTimeoutMs?: number;
  /** The largest single message read from the server (a stdio line, an HTTP answer, an event). */
  maxMessageBytes?: number;
};

/**
 * A server's entry as servers.json holds it (Claude Desktop's shape), what the editor edits. A remote
 * server's `oauth` block is shown to no one and kept as written; its secrets are references, never values.
 */
export type StoredServerEntry =
  | (StoredEntryCommon & { command: string; args: string[]; env?: Record<string, string>; cwd?: string; sandbox?: SandboxSetting })
  | (StoredEntryCommon & { type: 'http' | 'sse'; url: string; headers?: Record<string, string>; oauth?: OAuthServerConfig });
