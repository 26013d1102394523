// One sign-in with the person: the loopback redirect that will receive the answer, and the moment the
// authorization page is shown. The redirect URI stays the one the client was registered with when it
// can (the configured one, else the port of the last registration), and the page passes the URL policy
// once more before anything opens it.

import type { AuthorizationCallback, LoopbackRedirect } from './loopbackRedirect.ts';
import { openLoopbackRedirect } from './loopbackRedirect.ts';
import type { InteractiveFlow } from './atriumOAuthProvider.ts';
import { assertServerUrl } from './urlPolicy.ts';
import type { OriginReach } from './urlPolicy.ts';

export interface SignInFlow extends InteractiveFlow {
  readonly result: Promise<AuthorizationCallback>;
  close(): Promise<void>;
}

export interface SignInFlowOptions {
  /** The redirect URI the person registered for their own client, if any (always used as it is). */
  configuredRedirect?: string;
  /** Redirect URIs of earlier registrations: their loopback port is tried first. */
  registeredRedirects: string[];
  timeoutMs: number;
  signal?: AbortSignal;
  /** Reach of the server the sign-in is for: the authorization page must be allowed from it. */
  reach: OriginReach;
  /** Shows the checked page to the person. */
  show(authorizationUrl: string): Promise<void>;
}

/** Opens the loopback redirect; throws a plain Error when the configured port cannot be listened on. */
export async function openSignInFlow(options: SignInFlowOptions): Promise<SignInFlow> {
  const common = { timeoutMs: options.timeoutMs, ...(options.signal ? { signal: options.signal } : {}) };
  const configured = options.configuredRedirect ? new URL(options.configuredRedirect) : undefined;
  let receiver: LoopbackRedirect;
  if (configured) {
    receiver = await openLoopbackRedirect({ ...common, port: Number(configured.port), path: configured.pathname }).catch((error: unknown) => {
      throw new Error(`cannot receive the sign-in at ${configured.href}: ${(error as Error).message}`);
    });
  } else {
    const registered = options.registeredRedirects.find((uri) => uri.startsWith('http://127.0.0.1:'));
    const port = registered ? Number(new URL(registered).port) : 0;
    receiver = await openLoopbackRedirect({ ...common, port }).catch(() => openLoopbackRedirect(common));
  }
  return {
    redirectUrl: configured?.href ?? receiver.redirectUrl,
    expect: (state) => receiver.expect(state),
    open: async (authorizationUrl) => {
      const checked = assertServerUrl(authorizationUrl.href, options.reach, 'open for sign-in');
      await options.show(checked.href);
    },
    result: receiver.result,
    close: () => receiver.close(),
  };
}
