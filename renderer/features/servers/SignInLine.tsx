import type { ServerSnapshot } from '../../../shared/domain.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { useNow } from '../../ui/useNow.ts';
import { expiryText } from '../../../shared/timeFromNow.ts';
import { signInHeadline } from '../../ui/signInState.ts';

/** A remote server's sign-in in one line on its card: "Signed in as alice · expires in 52 min", "Not signed in". */
export function SignInLine({ server }: { server: ServerSnapshot }) {
  const now = useNow();
  const headline = signInHeadline(server);
  const auth = server.auth;
  if (!auth || !headline) return null;
  const signedIn = auth.state === 'signed-in';
  return (
    <p className={`card-auth card-auth-${auth.state}`}>
      {signedIn && auth.subject ? (
        <>
          Signed in as <UntrustedText className="card-auth-subject" text={auth.subject} />
        </>
      ) : (
        headline
      )}
      {signedIn && auth.expiresAt !== undefined ? <span className="muted"> · {expiryText(auth.expiresAt, now)}</span> : null}
    </p>
  );
}
