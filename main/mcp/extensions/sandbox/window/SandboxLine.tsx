// A local server's sandbox on its card: sandboxed or not and why, what it can touch (on demand), what
// to install where a tool is missing with the explicit choice to run it without the sandbox, and what
// the sandbox blocked, each with "Allow for this server" (which changes servers.json only on that click).

import { useState } from 'react';
import type { BlockedAccess, SandboxSummary } from '../contract/sandboxContract.ts';
import { KEPT_FROM } from '../contract/sandboxContract.ts';
import { errorMessage } from '../../../../../renderer/api/AtriumRequestError.ts';
import { useAtriumApi } from '../../../../../renderer/api/useAtriumApi.ts';
import { useAtriumStore } from '../../../../../renderer/store/useAtriumStore.ts';
import { InlineConfirmation } from '../../../../../renderer/ui/InlineConfirmation.tsx';
import { useInPlaceConfirmation } from '../../../../../renderer/ui/useInPlaceConfirmation.ts';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';

const LABEL: Record<SandboxSummary['state'], string> = { sandboxed: 'Sandboxed', 'not-sandboxed': 'Not sandboxed', 'cannot-start': 'Sandbox unavailable' };

export function SandboxLine({ serverId }: { serverId: string }) {
  const summary = useAtriumStore((state) => state.sandboxes[serverId]);
  const api = useAtriumApi();
  const optOut = useInPlaceConfirmation();
  const [problem, setProblem] = useState<string | null>(null);
  if (!summary) return null;
  const act = (action: () => Promise<unknown>) => {
    setProblem(null);
    action().catch((failure: unknown) => setProblem(errorMessage(failure)));
  };
  return (
    <section className="card-sandbox" aria-label={`${serverId}'s sandbox`}>
      <details>
        <summary>
          <span className={`chip sandbox-${summary.state}`}>{LABEL[summary.state]}</span> {besideLabel(summary.reason)}
        </summary>
        <ul aria-label={`What ${serverId} can touch`}>
          {summary.touches.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
      </details>
      {summary.install ? <p className="card-note">{summary.install}</p> : null}
      {summary.state === 'cannot-start' ? (
        optOut.confirming ? (
          <InlineConfirmation
            question={`Run ${serverId} without the sandbox?`}
            confirmLabel="Run without the sandbox"
            keepLabel="Keep it stopped"
            onConfirm={() => {
              optOut.close();
              act(() => api.runWithoutSandbox({ serverId }));
            }}
            onKeep={optOut.keep}
          >
            It will reach all your files, your SSH keys and Atrium’s data included, and any address. You approve it once more before it starts.
          </InlineConfirmation>
        ) : (
          <button ref={optOut.trigger} type="button" className="button button-danger" onClick={optOut.ask}>
            Run without the sandbox…
          </button>
        )
      ) : null}
      {summary.blocked.length ? <BlockedList serverId={serverId} blocked={summary.blocked} onAllow={(entry) => act(() => api.allowSandboxAccess({ serverId, kind: entry.kind, target: entry.allow ?? entry.target }))} /> : null}
      {problem ? (
        <p className="card-error" role="alert">
          {problem}
        </p>
      ) : null}
    </section>
  );
}

const WHAT: Record<BlockedAccess['kind'], string> = { read: 'Read', write: 'Write', host: 'Connect to' };

function BlockedList({ serverId, blocked, onAllow }: { serverId: string; blocked: BlockedAccess[]; onAllow(entry: BlockedAccess): void }) {
  return (
    <div className="sandbox-blocked">
      <p className="card-note">The sandbox blocked:</p>
      <ul aria-label={`What the sandbox blocked for ${serverId}`}>
        {blocked.map((entry) => (
          <li key={`${entry.kind} ${entry.target}`}>
            {WHAT[entry.kind]} <UntrustedText text={entry.target} />
            {entry.count > 1 ? <span className="muted"> ({entry.count} times)</span> : null}{' '}
            {entry.allow !== undefined ? (
              <button type="button" className="button" aria-label={`Allow ${KEPT_FROM[entry.kind]} ${entry.allow} for ${serverId}`} onClick={() => onAllow(entry)}>
                Allow for this server
              </button>
            ) : (
              <span className="muted"> (Atrium’s own data: never allowed)</span>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

/** The reason without the words the chip beside it already says ("Sandboxed: it reaches…" → "It reaches…"). */
function besideLabel(reason: string): string {
  const rest = reason.replace(/^(Sandboxed|Not sandboxed):\s*/, '');
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}
