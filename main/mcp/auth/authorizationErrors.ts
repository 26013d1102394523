// Whatever a sign-in threw, as one sentence for the person naming the server, and whether only they can
// fix it (by signing in again). What the authorization server or a redirect sent is untrusted: an
// issuer mismatch never repeats the value received (RFC 9207 §2.4: it may come from an attacker).

import { AuthorizationServerMismatchError, InsecureTokenEndpointError, IssuerMismatchError, OAuthError, RegistrationRejectedError } from '@modelcontextprotocol/client';
import { AuthorizationFailure } from '../connection/remoteAuthorization.ts';
import { PersonNeededError } from './atriumOAuthProvider.ts';
import { SignInError } from './loopbackRedirect.ts';
import { SignInAnswerError } from './policyFetch.ts';
import { UrlPolicyError } from './urlPolicy.ts';

export function toAuthorizationFailure(serverId: string, error: unknown): AuthorizationFailure {
  if (error instanceof AuthorizationFailure) return error;
  const fail = (text: string, needsPerson: boolean) => new AuthorizationFailure(`${serverId}: ${text}`, needsPerson, { cause: error });
  if (error instanceof PersonNeededError) return fail('sign in to connect to this server', true);
  if (error instanceof UrlPolicyError || error instanceof SignInAnswerError) return fail(`sign-in stopped: ${error.message}`, false);
  if (error instanceof IssuerMismatchError) {
    return error.kind === 'metadata'
      ? fail('sign-in stopped: the authorization server’s metadata names another issuer than the one it was fetched for (RFC 8414 §3.3)', false)
      : fail('sign-in stopped: the answer from the browser did not come from the authorization server Atrium asked (RFC 9207 issuer check)', false);
  }
  if (error instanceof AuthorizationServerMismatchError) return fail('the server moved to another authorization server during sign-in; sign in again', true);
  if (error instanceof InsecureTokenEndpointError) return fail(`sign-in stopped: the token endpoint ${JSON.stringify(error.tokenEndpoint)} is not https`, false);
  if (error instanceof RegistrationRejectedError) return fail(`the authorization server refused to register Atrium (HTTP ${error.status})`, false);
  if (error instanceof OAuthError) return fail(`the authorization server refused: ${error.code}${error.message && error.message !== error.code ? ` (${clip(error.message)})` : ''}`, true);
  if (error instanceof SignInError) return fail(`sign-in failed: ${error.message}`, true);
  const message = error instanceof Error ? error.message : String(error);
  return fail(`sign-in failed: ${clip(message)}`, false);
}

function clip(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
