// Under a failed tool call: what its server's sandbox kept from it during the call (a file it could not
// write or read, a host it could not reach), with "Allow for this server" — the card's button, here where
// the person meets the failure. It goes once allowed (the server starts again with it), saying so.

import { useState } from 'react';
import { KEPT_FROM } from '../contract/sandboxContract.ts';
import { errorMessage } from '../../../../../renderer/api/AtriumRequestError.ts';
import { useAtriumApi } from '../../../../../renderer/api/useAtriumApi.ts';
import { useAtriumStore } from '../../../../../renderer/store/useAtriumStore.ts';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';

/** A server's error line may come a moment after its call's result: what it blocked that soon after still belongs to the call. */
const AFTER_THE_CALL_MS = 2_000;

/** `since`/`until`: when the call went to its server and when it ended (the host's clock). */
export function SandboxCallHint({ serverId, since, until }: { serverId: string; since: number; until: number }) {
  const summary = useAtriumStore((state) => state.sandboxes[serverId]);
  const api = useAtriumApi();
  // The button goes with the click: the cursor goes where the next step is, asking for the call again.
  const requestComposerFocus = useAtriumStore((state) => state.requestComposerFocus);
  const [allowed, setAllowed] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const during = (summary?.blocked ?? []).filter((entry) => entry.at >= since && entry.at <= until + AFTER_THE_CALL_MS);
  if (allowed !== null) {
    return (
      <p className="sign-in-hint" role="status">
        {/* One span: the hint's line lays its parts out apart from one another. */}
        <span>
          Allowed: <UntrustedText text={serverId} /> starts again with <UntrustedText text={allowed} /> in its sandbox. Ask for the call again.
        </span>
      </p>
    );
  }
  if (during.length === 0) return null;
  return (
    <div className="sandbox-call-hint">
      {during.map((entry) => (
        <p key={`${entry.kind} ${entry.target}`} className="sign-in-hint">
          <span>
            Its sandbox kept <UntrustedText text={serverId} /> from {KEPT_FROM[entry.kind]} <UntrustedText text={entry.target} />.
          </span>
          {entry.allow !== undefined ? (
            <button
              type="button"
              className="button button-small"
              aria-label={`Allow ${KEPT_FROM[entry.kind]} ${entry.allow} for ${serverId}`}
              onClick={() => {
                const allow = entry.allow ?? entry.target;
                setProblem(null);
                api.allowSandboxAccess({ serverId, kind: entry.kind, target: allow }).then(
                  () => {
                    setAllowed(allow);
                    requestComposerFocus();
                  },
                  (failure: unknown) => setProblem(errorMessage(failure)),
                );
              }}
            >
              Allow for this server
            </button>
          ) : (
            <span className="muted">Atrium’s own data: never allowed.</span>
          )}
        </p>
      ))}
      {problem ? <p role="alert">{problem}</p> : null}
    </div>
  );
}
