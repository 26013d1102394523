import { useState } from 'react';
import type { ServerAuthView, ServerSnapshot } from '../../../shared/domain.ts';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { AddressWithDomain } from '../../ui/AddressWithDomain.tsx';
import { Fact } from '../../ui/Fact.tsx';
import { InlineConfirmation } from '../../ui/InlineConfirmation.tsx';
import { useInPlaceConfirmation } from '../../ui/useInPlaceConfirmation.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { useNow } from '../../ui/useNow.ts';
import { expiryText } from '../../../shared/timeFromNow.ts';
import { signInHeadline } from '../../ui/signInState.ts';
import { SignInProgress } from './SignInProgress.tsx';

/**
 * A remote server's sign-in: who is signed in, with which authorization server, for which scopes and
 * until when, what went wrong last; signing in (again), following a sign-in under way, calling it off,
 * and signing out after a confirmation. Everything the authorization server said is untrusted text, and
 * no token ever reaches the window.
 */
export function ServerSignInPanel({ server }: { server: ServerSnapshot }) {
  const api = useAtriumApi();
  const serverId = server.id;
  const auth = server.auth;
  // A sign-in this window asked for whose page is not ready yet; the snapshot says the rest.
  const [requested, setRequested] = useState(false);
  const [cancelling, setCancelling] = useState(false);
  const signOutQuestion = useInPlaceConfirmation();
  const [problem, setProblem] = useState<string | null>(null);

  if (!auth) {
    return (
      <div className="panel-pad">
        <p className="muted">{serverId} has not asked Atrium to sign in. If it answers that it needs a sign-in, it shows here as Sign-in needed.</p>
      </div>
    );
  }

  const attempt = async (action: () => Promise<unknown>) => {
    setProblem(null);
    try {
      await action();
    } catch (failure) {
      setProblem(errorMessage(failure));
    }
  };
  const signIn = () => {
    setRequested(true);
    void attempt(() => api.signIn({ serverId })).finally(() => setRequested(false));
  };
  const cancel = () => {
    setCancelling(true);
    void attempt(() => api.cancelSignIn({ serverId })).finally(() => setCancelling(false));
  };
  const signOut = () => {
    signOutQuestion.close();
    void attempt(() => api.signOut({ serverId }));
  };
  // The host's own sentence is already shown as the last error; a request failing with it says no more.
  const shownProblem = problem !== null && problem !== auth.error && !(server.status.kind === 'needs-sign-in' && server.status.message === problem) ? problem : null;

  return (
    <div className="panel-pad sign-in">
      <h3 className="sign-in-headline" aria-live="polite">
        {auth.state === 'signed-in' && auth.subject ? (
          <>
            Signed in as <UntrustedText text={auth.subject} />
          </>
        ) : (
          signInHeadline(server)
        )}
      </h3>
      {auth.state === 'signing-in' && auth.signInUrl ? (
        <SignInProgress url={auth.signInUrl} takeFocus={requested} cancelling={cancelling} onCancel={cancel} />
      ) : requested ? (
        <div className="sign-in-progress" role="status">
          <p>Preparing the sign-in page…</p>
          <div className="sign-in-actions">
            <button type="button" className="button" disabled={cancelling} onClick={cancel}>
              {cancelling ? 'Cancelling…' : 'Cancel sign-in'}
            </button>
          </div>
        </div>
      ) : null}
      <SignInFacts serverId={serverId} auth={auth} />
      {shownProblem ? (
        <p className="card-error" role="alert">
          <UntrustedText text={shownProblem} />
        </p>
      ) : null}
      {signOutQuestion.confirming ? (
        <InlineConfirmation
          question={`Sign out of ${serverId}?`}
          confirmLabel="Sign out"
          keepLabel="Keep signed in"
          onConfirm={signOut}
          onKeep={signOutQuestion.keep}
        >
          Atrium asks the authorization server to revoke its tokens where it allows, forgets them, and disconnects {serverId}. Using it again needs a new sign-in.
        </InlineConfirmation>
      ) : auth.state === 'signing-in' || requested ? null : (
        <div className="sign-in-actions">
          <button type="button" className={auth.state === 'signed-in' ? 'button' : 'button button-primary'} onClick={signIn}>
            {auth.state === 'signed-in' ? 'Sign in again' : 'Sign in'}
          </button>
          {auth.state === 'signed-in' ? (
            <button ref={signOutQuestion.trigger} type="button" className="button button-danger" onClick={signOutQuestion.ask}>
              Sign out
            </button>
          ) : null}
        </div>
      )}
    </div>
  );
}

/** What the host knows of the sign-in (the headline says who): never a token, and the authorization server's words as untrusted text. */
function SignInFacts({ serverId, auth }: { serverId: string; auth: ServerAuthView }) {
  const now = useNow();
  return (
    <dl className="about-facts" aria-label={`Sign-in to ${serverId}`}>
      {auth.issuer ? (
        <Fact term="Issued by">
          <AddressWithDomain url={auth.issuer} label="Authorization server address" />
        </Fact>
      ) : null}
      {auth.scopes ? (
        <Fact term="Scopes">
          <ul className="sign-in-scopes">
            {auth.scopes.map((scope) => (
              <li key={scope} className="chip">
                <UntrustedText text={scope} />
              </li>
            ))}
          </ul>
        </Fact>
      ) : null}
      {auth.expiresAt !== undefined ? (
        <Fact term="Expiry">
          {expiryText(auth.expiresAt, now)} <span className="muted">({new Date(auth.expiresAt).toLocaleString()}; Atrium renews it before then when it can)</span>
        </Fact>
      ) : null}
      {auth.error ? (
        <Fact term="Last error">
          <UntrustedText className="sign-in-error" text={auth.error} />
        </Fact>
      ) : null}
    </dl>
  );
}
