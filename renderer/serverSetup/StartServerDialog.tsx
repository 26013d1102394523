import { useEffect, useState } from 'react';
import { launchTarget } from '../../shared/domain.ts';
import type { LaunchReview, LaunchView, ServerSnapshot } from '../../shared/domain.ts';
import { errorMessage } from '../api/AtriumRequestError.ts';
import { useAtriumApi } from '../api/useAtriumApi.ts';
import { UntrustedText } from '../ui/UntrustedText.tsx';
import { ConsentDialog } from '../ui/ConsentDialog.tsx';
import { ProblemAlert } from '../ui/ProblemAlert.tsx';

/**
 * Asks before a server runs a definition the person has not approved: new, or changed since (then the
 * approved one is shown beside it), with the risky shapes the host found. "Start server" approves exactly
 * the definition shown; `onDone` says whether the person started it.
 */
export function StartServerDialog({ server, onDone }: { server: ServerSnapshot; onDone(started: boolean): void }) {
  const api = useAtriumApi();
  const [review, setReview] = useState<LaunchReview | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    api.reviewServerLaunch({ serverId: server.id }).then(setReview, (failure: unknown) => setProblem(errorMessage(failure)));
  }, [api, server.id]);
  const local = server.transport === 'stdio';
  const risky = (review?.risks.length ?? 0) > 0;
  const start = () => {
    if (!review) return;
    api.approveServerLaunch({ serverId: server.id, hash: review.hash }).then(
      () => onDone(true),
      (failure: unknown) => setProblem(errorMessage(failure)),
    );
  };
  const intro = review?.approved
    ? `${server.id} changed since you approved it. ${local ? 'Atrium will now run exactly this command, with your permissions:' : 'Atrium will now connect to exactly this address:'}`
    : local
      ? 'Atrium will run exactly this command, with your permissions:'
      : 'Atrium will connect to exactly this address:';
  return (
    <ConsentDialog title={`Start ${server.id}?`} from={intro} tone={risky ? 'danger' : 'normal'} onDismiss={() => onDone(false)}>
      {review ? (
        <>
          <LaunchDetails view={review.definition} label={review.approved ? 'Now' : undefined} />
          {review.approved ? <LaunchDetails view={review.approved} label="Approved before" /> : null}
          {risky ? (
            <div className="consent-warning" role="alert">
              <p className="launch-risks-title">Check this before you start it:</p>
              <ul aria-label="Risks">
                {review.risks.map((risk, index) => (
                  <li key={index}>{risk.message}</li>
                ))}
              </ul>
            </div>
          ) : null}
        </>
      ) : problem ? null : (
        <pre className="code-block" aria-label={local ? 'Command line' : 'Address'}>
          <UntrustedText text={server.target} />
        </pre>
      )}
      <ProblemAlert text={problem} />
      <div className="consent-actions">
        <button type="button" className={risky ? 'button button-danger' : 'button'} disabled={!review} onClick={start}>
          Start server
        </button>
        {/* The safe answer is both the focused and the coloured one, as in every consent dialog. */}
        <button type="button" className="button button-primary" data-autofocus onClick={() => onDone(false)}>
          Keep it off
        </button>
      </div>
    </ConsentDialog>
  );
}

/** One definition: the command line or address exactly, and the names (never the values) of its variables or headers. */
function LaunchDetails({ view, label }: { view: LaunchView; label: string | undefined }) {
  const local = view.transport === 'stdio';
  const what = local ? 'Command line' : 'Address';
  const names = local ? view.envNames : view.headerNames;
  return (
    <section className="launch-details">
      {label ? <h3 className="launch-details-label">{label}</h3> : null}
      <pre className="code-block" aria-label={label ? `${label}: ${what.toLowerCase()}` : what}>
        <UntrustedText text={launchTarget(view)} />
      </pre>
      {names.length ? (
        <p className="muted">
          {local ? 'Environment variables' : 'Headers'}: <UntrustedText text={names.join(', ')} />
        </p>
      ) : null}
      {local && view.cwd ? (
        <p className="muted">
          Working folder: <UntrustedText text={view.cwd} />
        </p>
      ) : null}
    </section>
  );
}
