// What a connection knows of OAuth: a seam the host injects (main/mcp/auth/ implements it). The
// connection hands every HTTP request through `wrapFetch`, shows `view` in its snapshot, and asks the
// person to sign in when a connect fails for want of authorization. It never sees a token.

import type { FetchLike } from '@modelcontextprotocol/client';
import type { ServerAuthView, SignOutReport } from '../../../shared/domain.ts';
import type { RemoteServerDefinition } from '../config/serverConfig.ts';

export interface RemoteAuthorization {
  /** The sign-in as the person sees it; undefined while the server has not asked for authorization. */
  readonly view: ServerAuthView | undefined;
  /** Adds the server's credentials to its requests and handles 401 / 403 insufficient_scope. */
  wrapFetch(next: FetchLike): FetchLike;
  /** Runs the sign-in with the person now (the browser opens); resolves once the server's tokens are stored. */
  signIn(signal?: AbortSignal): Promise<void>;
  /** Revokes what the authorization server lets Atrium revoke, then forgets the tokens. */
  signOut(): Promise<SignOutReport>;
}


export interface AuthorizationHooks {
  /** The view changed (signing in, signed in, failed…). */
  onChange(): void;
  /** A line for the server's log: never a token or a code. */
  log(level: 'info' | 'notice' | 'warning', text: string): void;
  /**
   * The server refused what Atrium sent and nothing but the person signing in again can renew it (the
   * sign-in expired or was revoked): a connected server cannot go on. `message` names the server.
   */
  signInLost(message: string): void;
}

/** Made by the host for each remote server; undefined when the host does no OAuth (stdio servers, tests). */
export type AuthorizationFactory = (definition: RemoteServerDefinition, hooks: AuthorizationHooks) => RemoteAuthorization;

/**
 * A request could not be authorized. `needsPerson` says whether only the person signing in (again) can
 * fix it; the message is a sentence for them, naming the server.
 */
export class AuthorizationFailure extends Error {
  readonly needsPerson: boolean;

  constructor(message: string, needsPerson: boolean, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AuthorizationFailure';
    this.needsPerson = needsPerson;
  }
}

/** The AuthorizationFailure somewhere in an error's cause chain (the SDK wraps what a fetch threw). */
export function findAuthorizationFailure(error: unknown): AuthorizationFailure | undefined {
  for (let current = error, depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    if (current instanceof AuthorizationFailure) return current;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}
