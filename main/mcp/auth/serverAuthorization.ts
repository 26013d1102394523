// One remote server's OAuth, from its first 401 to sign-out. Every HTTP request to the server passes
// through `wrapFetch`: it carries the server's token (and only to that server's origin), refreshes it
// before it expires, answers a 401 by refreshing or signing in, and a 403 insufficient_scope by asking
// for the union of scopes, a bounded number of times. The SDK's `auth()` does the OAuth itself; this
// decides when, with which scope, and whether the person may be asked right now:
//  - 'automatic': a sign-in the server needs starts at once (the headless client, which answers the
//    authorization page itself);
//  - 'when-asked': the server waits in "needs sign-in" until the person asks (signIn), so nothing opens
//    a browser behind their back. Refreshing needs nobody and always happens.

import { auth, computeScopeUnion, discoverOAuthServerInfo, isStrictScopeSuperset, withDpopFromProvider } from '@modelcontextprotocol/client';
import type { AuthOptions, FetchLike, OAuthClientProvider, StoredOAuthTokens } from '@modelcontextprotocol/client';
import type { ServerAuthView } from '../../../shared/domain.ts';
import type { SecretRef } from '../config/oauthConfig.ts';
import type { RemoteServerDefinition } from '../config/serverConfig.ts';
import { AuthorizationFailure } from '../connection/remoteAuthorization.ts';
import type { SignOutReport } from '../../../shared/domain.ts';
import type { AuthorizationFactory, AuthorizationHooks, RemoteAuthorization } from '../connection/remoteAuthorization.ts';
import { challengeOf, DEFAULT_SIGN_IN_TIMEOUT_MS, discard, MAX_STEP_UPS, REFRESH_MARGIN_MS, requestTimeoutMs, withBearer } from './signInServices.ts';
import type { Challenge, Need, SignInServices } from './signInServices.ts';
import { AtriumOAuthProvider, PersonNeededError } from './atriumOAuthProvider.ts';
import { toAuthorizationFailure } from './authorizationErrors.ts';
import { redirectUrisOf, ServerCredentials } from './credentialVault.ts';
import { machineGrantProvider } from './machineGrants.ts';
import { policyFetch, withSignal } from './policyFetch.ts';
import type { SignInRefusal } from './policyFetch.ts';
import { expiryOf, signedInView } from './signInView.ts';
import { openSignInFlow } from './signInFlow.ts';
import type { SignInFlow } from './signInFlow.ts';
import { revokeTokens } from './tokenRevocation.ts';
import type { RevocationOutcome } from './tokenRevocation.ts';
import { reachOf } from './urlPolicy.ts';
import type { OriginReach } from './urlPolicy.ts';

export type { SignInMode, SignInServices } from './signInServices.ts';

export function authorizationFactory(services: SignInServices): AuthorizationFactory {
  return (definition, hooks) => new ServerAuthorization(definition, hooks, services);
}

class ServerAuthorization implements RemoteAuthorization {
  private readonly definition: RemoteServerDefinition;
  private readonly hooks: AuthorizationHooks;
  private readonly services: SignInServices;
  private readonly reach: OriginReach;
  private readonly origin: string;
  private readonly authFetch: FetchLike;
  private readonly credentials: ServerCredentials;
  private loading: Promise<void> | undefined;
  private browserProvider: AtriumOAuthProvider | undefined;
  private machine: OAuthClientProvider | undefined;
  private current: ServerAuthView | undefined;
  private running: Promise<void> | undefined;
  /** What the next sign-in must answer: the last challenge that needed the person. */
  private pending: Challenge = {};
  private stepUpsSinceSuccess = 0;
  /** What the URL policy refused, or an answer without end, during the authorization under way: any of it ends it. */
  private refusals: SignInRefusal[] = [];

  constructor(definition: RemoteServerDefinition, hooks: AuthorizationHooks, services: SignInServices) {
    this.definition = definition;
    this.hooks = hooks;
    this.services = services;
    this.reach = reachOf(definition.url);
    this.origin = new URL(definition.url).origin;
    const guarded = policyFetch(this.reach, {
      ...(services.fetch ? { base: services.fetch } : {}),
      onRefused: (refusal) => this.refusals.push(refusal),
      chosenHost: new URL(definition.url).hostname,
      timeoutMs: requestTimeoutMs(this.services),
    });
    // After one refusal nothing else is fetched in that sign-in: the SDK must not route around it.
    this.authFetch = (input, init) => (this.refusals[0] ? Promise.reject(this.refusals[0]) : guarded(input, init));
    this.credentials = new ServerCredentials(services.store, definition.id, definition.url);
    void this.load().catch((error: unknown) => hooks.log('warning', `the stored sign-in could not be read: ${(error as Error).message}`));
  }

  get view(): ServerAuthView | undefined {
    return this.current;
  }

  wrapFetch(next: FetchLike): FetchLike {
    return async (input, init) => {
      // A token goes to the server it was issued for, never to another origin the transport is sent to.
      if (new URL(String(input)).origin !== this.origin) return next(input, init);
      await this.load();
      let refusedAfterSignIn = false;
      for (;;) {
        const provider = this.browserProvider ?? this.machine;
        if (provider) await this.refreshIfExpiring();
        const tokens = await provider?.tokens();
        const send = provider?.dpop ? withDpopFromProvider(provider)(next) : next;
        const response = await send(input, withBearer(init, tokens));
        // Ending a session (DELETE) never starts a sign-in: nobody is waiting for it.
        if ((response.status === 401 || response.status === 403) && init?.method === 'DELETE') return response;
        if (response.status === 401) {
          const challenge = challengeOf(response);
          await discard(response);
          if (refusedAfterSignIn) throw new AuthorizationFailure(`${this.definition.id}: the server refused Atrium even after signing in (HTTP 401)`, true);
          refusedAfterSignIn = true;
          await this.authorize({ ...challenge, reason: 'unauthorized', rejectedToken: tokens !== undefined });
          continue;
        }
        if (response.status === 403) {
          const challenge = challengeOf(response);
          if (challenge.error === 'insufficient_scope') {
            await discard(response);
            if (this.stepUpsSinceSuccess >= MAX_STEP_UPS) {
              throw new AuthorizationFailure(
                `${this.definition.id}: the server still asks for more permission${challenge.scope ? ` (${challenge.scope})` : ''} after ${MAX_STEP_UPS} sign-ins for it; Atrium stopped asking`,
                false,
              );
            }
            await this.authorize({ ...challenge, reason: 'insufficient-scope' });
            // Only a step-up that was actually authorized counts; one waiting for the person has not happened.
            this.stepUpsSinceSuccess++;
            continue;
          }
        }
        if (response.ok && tokens) this.stepUpsSinceSuccess = 0;
        return response;
      }
    };
  }

  async signIn(signal?: AbortSignal): Promise<void> {
    await this.load();
    const answersStepUp = this.pending.stepUp === true;
    await this.authorize({ ...this.pending, reason: 'asked' }, true, signal);
    if (answersStepUp) this.stepUpsSinceSuccess++;
  }

  async signOut(): Promise<SignOutReport> {
    await this.load();
    await this.running?.catch(() => undefined);
    this.refusals = [];
    const provider = this.browserProvider ?? this.machine;
    const tokens = await provider?.tokens();
    let outcome: RevocationOutcome = { offered: false, revoked: [], problems: [] };
    if (provider && tokens) {
      await this.readClientSecret().catch(() => undefined);
      const stored = await this.credentials.read();
      const client = tokens.issuer ? await provider.clientInformation({ issuer: tokens.issuer }) : undefined;
      outcome = await revokeTokens({ metadata: stored.discovery?.authorizationServerMetadata, client, tokens, fetch: this.authFetch });
      for (const problem of outcome.problems) this.hooks.log('warning', `signing out: ${problem}`);
    }
    await this.credentials.update((c) => {
      delete c.tokens;
      delete c.codeVerifier;
      delete c.requestedScope;
      delete c.signInLost;
    });
    this.machine = undefined;
    this.pending = {};
    this.hooks.log('notice', 'signed out');
    this.show({ state: 'signed-out' });
    return { hadTokens: tokens !== undefined, revocationOffered: outcome.offered, revoked: outcome.revoked, problems: outcome.problems };
  }

  private load(): Promise<void> {
    this.loading ??= (async () => {
      const stored = await this.credentials.read();
      const config = this.definition.oauth;
      if ((config?.grant ?? 'authorization_code') === 'authorization_code') {
        this.browserProvider = new AtriumOAuthProvider({
          credentials: this.credentials,
          stored,
          ...(config ? { config } : {}),
          ...(this.services.clientMetadataUrl ? { clientMetadataUrl: this.services.clientMetadataUrl } : {}),
          softwareVersion: this.services.softwareVersion,
        });
      }
      if (stored.tokens && this.browserProvider) this.show(signedInView(stored.tokens));
      else if (stored.signInLost) this.show({ state: 'signed-out', error: this.lostMessage() });
      else if (config) this.show({ state: 'signed-out' });
    })().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    });
    return this.loading;
  }

  /** One authorization at a time: a request that needs one while another runs waits for its outcome. */
  private authorize(need: Need, interactive = this.services.mode === 'automatic', signal?: AbortSignal): Promise<void> {
    if (this.running && need.reason !== 'asked') return this.running;
    const run = (this.running ?? Promise.resolve()).catch(() => undefined).then(() => this.runAuthorization(need, interactive, signal));
    const tracked: Promise<void> = run.finally(() => {
      if (this.running === tracked) this.running = undefined;
    });
    this.running = tracked;
    return tracked;
  }

  private async runAuthorization(need: Need, interactive: boolean, signal?: AbortSignal): Promise<void> {
    const before = this.current;
    this.refusals = [];
    const stored = await this.credentials.read();
    const provider = this.browserProvider ?? (await this.machineProvider(need));
    (provider as { beginAttempt?: () => void }).beginAttempt?.();
    const previous = await provider.tokens();
    const configured = this.definition.oauth?.scopes?.join(' ');
    // SEP-2350: a step-up asks for everything asked or granted before as well as what is now missing.
    const scope = computeScopeUnion(stored.requestedScope, need.reason === 'insufficient-scope' ? previous?.scope : undefined, need.scope, configured);
    const force = need.reason === 'asked' || (need.reason === 'insufficient-scope' && isStrictScopeSuperset(scope, previous?.scope));
    const browser = this.browserProvider;
    const pendingChallenge: Challenge = {
      ...(need.resourceMetadataUrl ? { resourceMetadataUrl: need.resourceMetadataUrl } : {}),
      ...(scope ? { scope } : {}),
      ...(need.reason === 'insufficient-scope' || need.stepUp ? { stepUp: true } : {}),
    };
    if (browser && !interactive && (force || !previous?.refresh_token)) {
      // A token the server refused, with nothing to renew it, is of no more use: it is not sent again.
      if (need.reason === 'unauthorized' && previous) await provider.invalidateCredentials?.('tokens');
      throw await this.waitForPerson(need, pendingChallenge);
    }
    // A token the server no longer takes may mean its authorization server moved: discover afresh (SEP-2352).
    if (need.rejectedToken && need.reason === 'unauthorized') await provider.invalidateCredentials?.('discovery');
    if (signal?.aborted) throw this.cancelled(before, pendingChallenge);
    const flow = browser && interactive ? await this.openFlow(signal) : undefined;
    try {
      if (browser) {
        browser.flow = flow;
        await this.readClientSecret();
        if (scope) await this.credentials.update((c) => void (c.requestedScope = scope));
      }
      const options: AuthOptions = {
        serverUrl: this.definition.url,
        // Calling the sign-in off stops the request under way too, not only the wait for the browser.
        fetchFn: signal ? withSignal(this.authFetch, signal) : this.authFetch,
        ...(need.resourceMetadataUrl ? { resourceMetadataUrl: need.resourceMetadataUrl } : {}),
        ...(scope ? { scope } : {}),
        ...(force ? { forceReauthorization: true } : {}),
      };
      let result = await auth(provider, options);
      if (result === 'REDIRECT') {
        if (!flow) throw new PersonNeededError();
        const callback = await flow.result;
        result = await auth(provider, { ...options, authorizationCode: callback.code, ...(callback.iss !== undefined ? { iss: callback.iss } : {}) });
        if (result !== 'AUTHORIZED') throw new Error('the authorization server issued no tokens');
      }
      const [refused] = this.refusals;
      if (refused) throw refused;
      const tokens = await provider.tokens();
      this.pending = {};
      if (stored.signInLost) await this.credentials.update((c) => void delete c.signInLost);
      this.hooks.log('info', need.reason === 'expiring' ? 'refreshed the sign-in before it expired' : `signed in${tokens?.issuer ? ` with ${tokens.issuer}` : ''}`);
      this.show(tokens ? signedInView(tokens as StoredOAuthTokens & { receivedAt?: number }) : { state: 'signed-in' });
    } catch (error) {
      if (signal?.aborted) throw this.cancelled(before, pendingChallenge, error);
      // A refresh the authorization server refused ends where a sign-in would open a browser.
      if (error instanceof PersonNeededError && !flow && !this.refusals[0]) throw await this.waitForPerson(need, pendingChallenge);
      // A refusal explains more than what the SDK made of it (or of the fallback it tried instead).
      const failure = toAuthorizationFailure(this.definition.id, this.refusals[0] ?? error);
      if (failure.needsPerson) this.pending = pendingChallenge;
      if (need.reason !== 'expiring') this.show({ state: failure.needsPerson && !flow ? 'signed-out' : 'failed', error: failure.message });
      throw failure;
    } finally {
      if (browser) browser.flow = undefined;
      await flow?.close();
    }
  }

  /**
   * The person called the sign-in off. What Atrium held before stays: a sign-in again that was cancelled
   * leaves the earlier sign-in (and any need it had) as it was; otherwise the server waits, signed out.
   */
  private cancelled(before: ServerAuthView | undefined, pendingChallenge: Challenge, cause?: unknown): AuthorizationFailure {
    this.pending = pendingChallenge;
    const failure = new AuthorizationFailure(`${this.definition.id}: the sign-in was cancelled`, true, { cause });
    this.hooks.log('notice', 'the sign-in was cancelled');
    const stillSignedIn = before?.state === 'signed-in' && this.browserProvider?.tokens() !== undefined;
    this.show(stillSignedIn ? before : { state: 'signed-out', error: failure.message });
    return failure;
  }

  /**
   * Only the person can go on. A step-up keeps what was granted meanwhile; otherwise the server is
   * signed out, and a server that refused a sign-in Atrium held (it expired or was revoked) is told to
   * the connection, which cannot go on without one.
   */
  private async waitForPerson(need: Need, pending: Challenge): Promise<AuthorizationFailure> {
    this.pending = pending;
    const id = this.definition.id;
    // A refused refresh has discarded the tokens: then no grant is left to step up from.
    if (need.reason === 'insufficient-scope' && this.browserProvider?.tokens() !== undefined) {
      const failure = new AuthorizationFailure(`${id}: the server needs more permission (${pending.scope ?? 'unnamed scopes'}); sign in again to grant it`, true);
      this.show({ ...(this.current ?? { state: 'signed-in' }), error: failure.message });
      return failure;
    }
    // A refused token, or a refresh refused before a request (the view still says signed in): it was
    // lost, and stays known as lost (in a later run too) until the person signs in or out.
    const stored = await this.credentials.read();
    const lost = need.rejectedToken === true || this.current?.state === 'signed-in' || stored.signInLost === true;
    if (lost && !stored.signInLost) await this.credentials.update((c) => void (c.signInLost = true));
    const failure = lost ? new AuthorizationFailure(this.lostMessage(), true) : toAuthorizationFailure(id, new PersonNeededError());
    if (need.reason === 'expiring') return failure;
    this.show({ state: 'signed-out', error: failure.message });
    if (lost) {
      this.hooks.log('warning', failure.message);
      this.hooks.signInLost(failure.message);
    }
    return failure;
  }

  private lostMessage(): string {
    return `${this.definition.id}: the sign-in expired or was revoked; sign in again`;
  }

  /** The refresh token is used before the access token runs out; a failure leaves it to the 401 path. */
  private async refreshIfExpiring(): Promise<void> {
    const tokens = this.browserProvider?.tokens();
    const expiry = expiryOf(tokens);
    if (this.running || !tokens?.refresh_token || expiry === undefined || expiry - Date.now() > REFRESH_MARGIN_MS) return;
    await this.authorize({ reason: 'expiring' }, false).catch((error: unknown) =>
      this.hooks.log('warning', `refreshing the sign-in before it expires failed: ${(error as Error).message}`),
    );
  }

  /** The configured machine grant, bound to the authorization server it is first used with. */
  private async machineProvider(need: Need): Promise<OAuthClientProvider> {
    if (this.machine) return this.machine;
    const config = this.definition.oauth ?? {};
    const stored = await this.credentials.read();
    let issuer = config.issuer ?? stored.preRegisteredIssuer;
    if (!issuer) {
      const info = await discoverOAuthServerInfo(this.definition.url, { fetchFn: this.authFetch, ...(need.resourceMetadataUrl ? { resourceMetadataUrl: need.resourceMetadataUrl } : {}) });
      const found = info.authorizationServerMetadata?.issuer ?? info.authorizationServerUrl;
      issuer = found;
      await this.credentials.update((c) => void (c.preRegisteredIssuer = found));
    }
    const idpEndpoint = config.idp?.tokenEndpoint;
    const provider = await machineGrantProvider({
      config,
      issuer,
      secret: (ref, field) => this.secret(ref, field),
      idpFetch: idpEndpoint
        ? policyFetch(reachOf(idpEndpoint), {
            ...(this.services.fetch ? { base: this.services.fetch } : {}),
            onRefused: (refusal) => this.refusals.push(refusal),
            chosenHost: new URL(idpEndpoint).hostname,
            timeoutMs: requestTimeoutMs(this.services),
          })
        : this.authFetch,
    });
    if (!provider) throw new AuthorizationFailure(`${this.definition.id}: the oauth block names no grant Atrium can use`, false);
    this.machine = provider;
    return provider;
  }

  private async openFlow(signal?: AbortSignal): Promise<SignInFlow> {
    const stored = await this.credentials.read();
    const configuredRedirect = this.definition.oauth?.redirectUri;
    try {
      return await openSignInFlow({
        ...(configuredRedirect ? { configuredRedirect } : {}),
        registeredRedirects: Object.values(stored.clients).flatMap(redirectUrisOf),
        timeoutMs: this.services.timeoutMs ?? DEFAULT_SIGN_IN_TIMEOUT_MS,
        ...(signal ? { signal } : {}),
        reach: this.reach,
        show: async (authorizationUrl) => {
          // The SDK may have carried on past a refusal (its discovery falls back); nothing opens then.
          if (this.refusals[0]) throw this.refusals[0];
          // Called off while the page was being prepared: the person must not be sent to it.
          if (signal?.aborted) throw new Error('the sign-in was cancelled');
          this.show({ state: 'signing-in', signInUrl: authorizationUrl });
          this.hooks.log('notice', `signing in at ${new URL(authorizationUrl).origin}`);
          await this.services.openAuthorizationUrl(authorizationUrl, this.definition.id);
        },
      });
    } catch (error) {
      throw new AuthorizationFailure(`${this.definition.id}: ${(error as Error).message}`, false);
    }
  }

  /** A pre-registered confidential client's secret, read when it is about to be used. */
  private async readClientSecret(): Promise<void> {
    const ref = this.definition.oauth?.clientSecret;
    if (this.browserProvider) this.browserProvider.clientSecret = ref ? await this.secret(ref, 'oauth.clientSecret') : undefined;
  }

  private async secret(ref: SecretRef, field: string): Promise<string> {
    const value = await this.services.secrets.get(ref.secret);
    if (value !== undefined) return value;
    const variable = `ATRIUM_SECRET_${ref.secret.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
    throw new AuthorizationFailure(`${this.definition.id}: the secret "${ref.secret}" named by ${field} is not set (store it in Atrium or set ${variable})`, false);
  }

  private show(view: ServerAuthView): void {
    this.current = view;
    this.hooks.onChange();
  }
}
