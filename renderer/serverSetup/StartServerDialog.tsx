import { useEffect, useState } from 'react';
import { describeVariable, launchTarget, missingPathSentence } from '../../shared/domain.ts';
import type { LaunchReview, LaunchView, ServerSnapshot } from '../../shared/domain.ts';
import { errorMessage } from '../api/AtriumRequestError.ts';
import { useAtriumApi } from '../api/useAtriumApi.ts';
import { UntrustedText } from '../ui/UntrustedText.tsx';
import { ConsentDialog, SafeAnswer } from '../ui/ConsentDialog.tsx';
import { ProblemAlert } from '../ui/ProblemAlert.tsx';
import { describeBlock } from '../../shared/installs.ts';
import { ServerOriginDetails, ServerReachDetails } from './ServerOriginDetails.tsx';
import { missingProgramSentence } from '../../shared/missingProgram.ts';

/**
 * Asks before a server runs a definition the person has not approved: new, or changed since (then the
 * approved one is shown beside it), where an installed one came from and what it asks for, what it will be
 * able to touch, and the risky shapes the host found. "Start server" approves exactly the definition
 * shown; one the organisation's policy blocks cannot be started here. `onDone` says whether it started.
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
  const blocked = review?.blocked;
  const start = () => {
    if (!review) return;
    api.approveServerLaunch({ serverId: server.id, hash: review.hash }).then(
      () => onDone(true),
      (failure: unknown) => setProblem(errorMessage(failure)),
    );
  };
  const intro = blocked
    ? `What it would ${local ? 'run' : 'connect to'}, were it allowed:`
    : review?.approved
      ? `${server.id} changed since you approved it. ${local ? 'Atrium will now run exactly this command, with your permissions:' : 'Atrium will now connect to exactly this address:'}`
      : local
        ? 'Atrium will run exactly this command, with your permissions:'
        : 'Atrium will connect to exactly this address:';
  return (
    <ConsentDialog title={blocked ? `${server.id} cannot start` : `Start ${server.id}?`} from={intro} tone={risky || blocked ? 'danger' : 'normal'} onDismiss={() => onDone(false)}>
      {review ? (
        <>
          {blocked ? (
            <div className="consent-warning" role="alert">
              <p className="launch-risks-title">Blocked by your organisation’s policy: it cannot start, whatever you approve.</p>
              <p>{describeBlock(blocked)}</p>
            </div>
          ) : null}
          <LaunchDetails view={review.definition} label={review.approved ? 'Now' : undefined} />
          {(review.missing ?? []).map((missing) => (
            <p key={`${missing.what} ${missing.path}`} className="consent-warning" role="alert">
              <UntrustedText text={`${capitalised(missingPathSentence(missing))} Correct it with Edit on its card in Servers.`} />
            </p>
          ))}
          {review.changes.length ? (
            <div className="launch-changes">
              <p className="launch-risks-title">Why Atrium asks:</p>
              <ul aria-label="Changes">
                {review.changes.map((change, index) => (
                  <li key={index}>
                    <UntrustedText text={change} />
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          {review.approved ? <LaunchDetails view={review.approved} label="Approved before" /> : null}
          {review.origin ? <ServerOriginDetails origin={review.origin} /> : null}
          <ServerReachDetails reach={review.reach} />
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
          {review.sandbox ? (
            <div className="launch-sandbox">
              <p className="launch-risks-title">{review.sandbox.reason}</p>
              <ul aria-label="What it can touch">
                {review.sandbox.touches.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
              {review.sandbox.install ? <p>{review.sandbox.install}</p> : null}
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
        {blocked ? null : (
          <button type="button" className={risky ? 'button button-danger' : 'button'} disabled={!review} onClick={start}>
            Start server
          </button>
        )}
        <SafeAnswer onClick={() => onDone(false)}>{blocked ? 'Close' : 'Keep it off'}</SafeAnswer>
      </div>
    </ConsentDialog>
  );
}

/**
 * One definition: the command line or address exactly; for a local server its variables (a secret's
 * value never), its working folder, the program its command finds and the scripts pinned by content.
 */
function LaunchDetails({ view, label }: { view: LaunchView; label: string | undefined }) {
  const local = view.transport === 'stdio';
  const what = local ? 'Command line' : 'Address';
  const variables = local ? view.env.map(describeVariable) : view.headerNames;
  return (
    <section className="launch-details">
      {label ? <h3 className="launch-details-label">{label}</h3> : null}
      <pre className="code-block" aria-label={label ? `${label}: ${what.toLowerCase()}` : what}>
        <UntrustedText text={launchTarget(view)} />
      </pre>
      {variables.length ? (
        <p className="muted">
          {local ? 'Environment variables' : 'Headers'}: <UntrustedText text={variables.join(', ')} />
        </p>
      ) : null}
      {local && view.cwd ? (
        <p className="muted">
          Working folder: <UntrustedText text={view.cwd} />
        </p>
      ) : null}
      {local && view.program === null ? (
        <p className="consent-warning" role="alert">
          <UntrustedText text={`${missingProgramSentence(view.command)} Correct the command with Edit on its card in Servers, or install the program first.`} />
        </p>
      ) : null}
      {local && view.program && view.program !== view.command ? (
        <p className="muted">
          Program: <UntrustedText text={view.program} />
        </p>
      ) : null}
      {local && view.scripts?.length ? (
        <p className="muted">
          Scripts, pinned by their content: <UntrustedText text={view.scripts.join(', ')} />
        </p>
      ) : null}
    </section>
  );
}

function capitalised(sentence: string): string {
  return sentence.charAt(0).toUpperCase() + sentence.slice(1);
}
