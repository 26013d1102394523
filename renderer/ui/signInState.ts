import type { AuthState, ServerSnapshot } from '../../shared/domain.ts';

const headlines: Record<AuthState, string> = {
  'signed-in': 'Signed in',
  'signing-in': 'Signing in…',
  'signed-out': 'Not signed in',
  failed: 'Sign-in failed',
};

/** A remote server's sign-in in two words; undefined for a server that never asked for one. */
export function signInHeadline(server: ServerSnapshot): string | undefined {
  return server.auth ? headlines[server.auth.state] : undefined;
}

/**
 * Whether only the person signing in (again) lets the server work: it waits for a sign-in, is signed
 * out or failed to sign in, or asks for more than was granted (a signed-in view with an error).
 */
export function signInNeeded(server: ServerSnapshot): boolean {
  if (server.status.kind === 'needs-sign-in') return true;
  const auth = server.auth;
  return auth !== undefined && (auth.state !== 'signed-in' || auth.error !== undefined);
}
