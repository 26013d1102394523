import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { signInNeeded } from '../../ui/signInState.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';

/**
 * Under a failed tool call whose server now needs the person to sign in (again): a way to its Sign-in
 * tab. It goes once the server is signed in, so an old failure does not keep asking.
 */
export function SignInHint({ serverId }: { serverId: string }) {
  const needed = useAtriumStore((state) => {
    const server = state.servers.find((s) => s.id === serverId);
    return server !== undefined && signInNeeded(server);
  });
  const showSignIn = useAtriumStore((state) => state.showServerSignIn);
  if (!needed) return null;
  return (
    <p className="sign-in-hint">
      <span>
        <UntrustedText text={serverId} /> needs you to sign in before its tools work.
      </span>
      <button type="button" className="button button-small" onClick={() => showSignIn(serverId)}>
        Go to sign-in
      </button>
    </p>
  );
}
