import { useId, useState } from 'react';
import { canRestart } from '../../../shared/domain.ts';
import { describeBlock } from '../../../shared/installs.ts';
import { withoutNamesInView } from '../../../shared/sentence.ts';
import type { ServerSnapshot, ServerStatus, StoredServerEntry } from '../../../shared/domain.ts';
import { useActionProblem } from '../../ui/useActionProblem.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { InlineConfirmation } from '../../ui/InlineConfirmation.tsx';
import { useInPlaceConfirmation } from '../../ui/useInPlaceConfirmation.ts';
import { StatusBadge } from '../../ui/StatusBadge.tsx';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { ChangedToolsNotice } from './ChangedToolsNotice.tsx';
import { ServerCounts } from './ServerCounts.tsx';
import { SignInLine } from './SignInLine.tsx';
import { SandboxLine } from '../../../main/mcp/extensions/sandbox/window/SandboxLine.tsx';
import { signInNeeded } from '../../ui/signInState.ts';

interface ServerCardProps {
  server: ServerSnapshot;
  selected: boolean;
  onSelect(): void;
  /** Opens the editor with the server's stored entry. */
  onEdit(entry: StoredServerEntry): void;
}

/** One configured server: its state, what it offers, and the controls that change it. */
export function ServerCard({ server, selected, onSelect, onEdit }: ServerCardProps) {
  const api = useAtriumApi();
  const nameId = useId();
  const [busy, setBusy] = useState(false);
  const actionProblem = useActionProblem();
  const removal = useInPlaceConfirmation();
  const showSignIn = useAtriumStore((state) => state.showServerSignIn);
  const reviewLaunch = useAtriumStore((state) => state.reviewLaunch);
  const { status } = server;

  // While one action runs the others wait: its controls say so (aria-disabled) but keep the keyboard, so
  // the person who pressed Restart or Enabled is still on it when it is done.
  const act = async (action: () => Promise<unknown>) => {
    if (busy) return;
    setBusy(true);
    actionProblem.clear();
    try {
      await action();
    } catch (error) {
      actionProblem.fail(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <article className={`card${selected ? ' card-selected' : ''}`} aria-labelledby={nameId}>
      <header className="card-head">
        <h3 className="card-name" id={nameId}>
          <button type="button" className="card-select" aria-current={selected} onClick={onSelect}>
            {server.id}
          </button>
        </h3>
        <StatusBadge status={status} />
      </header>
      <p className="card-meta">
        <span className="chip">{server.transport}</span>
        {server.serverInfo ? (
          <span>
            <UntrustedText text={`${server.serverInfo.title ?? server.serverInfo.name} ${server.serverInfo.version}`} />
          </span>
        ) : null}
        {server.protocolVersion ? <span>MCP {server.protocolVersion}</span> : null}
      </p>
      <p className="card-target" title={server.target}>
        {server.target}
      </p>
      <StatusDetail serverId={server.id} status={status} />
      <SignInLine server={server} />
      {server.transport === 'stdio' ? <SandboxLine serverId={server.id} /> : null}
      <ServerCounts counts={server.counts} serverId={server.id} />
      <ChangedToolsNotice server={server} />
      {removal.confirming ? (
        <InlineConfirmation
          question={`Remove ${server.id}?`}
          confirmLabel="Remove"
          keepLabel={`Keep ${server.id}`}
          onConfirm={() => {
            removal.close();
            void act(() => api.removeServer({ serverId: server.id }));
          }}
          onKeep={removal.keep}
        >
          {server.id} stops, its entry leaves servers.json, and the secrets Atrium keeps for it are deleted.
        </InlineConfirmation>
      ) : (
        <div className="card-actions">
          <Switch
            checked={status.kind !== 'disabled'}
            label={`${server.id} enabled`}
            busy={busy}
            onChange={(enabled) => act(() => api.setServerEnabled({ serverId: server.id, enabled }))}
          >
            Enabled
          </Switch>
          <button type="button" className="button" aria-label={`Edit ${server.id}`} aria-disabled={busy} onClick={() => act(async () => onEdit(await api.getServerConfig({ serverId: server.id })))}>
            Edit
          </button>
          <button ref={removal.trigger} type="button" className="button button-danger" aria-label={`Remove ${server.id}`} aria-disabled={busy} onClick={() => (busy ? undefined : removal.ask())}>
            Remove
          </button>
          {status.kind === 'needs-approval' ? (
            <button type="button" className="button button-primary" aria-label={`Review and start ${server.id}…`} onClick={() => reviewLaunch(server.id)}>
              Review and start…
            </button>
          ) : null}
          {signInNeeded(server) && status.kind !== 'disabled' ? (
            <button type="button" className="button button-primary" aria-label={`Sign in to ${server.id}…`} onClick={() => showSignIn(server.id)}>
              Sign in…
            </button>
          ) : null}
          {/* Kept in place while a start runs (unavailable then), so the person who pressed it keeps the keyboard on it through Starting. */}
          {canRestart(status) || status.kind === 'starting' ? (
            <button
              type="button"
              className="button"
              aria-label={`Restart ${server.id}`}
              aria-disabled={busy || !canRestart(status)}
              onClick={() => (canRestart(status) ? act(() => api.restartServer({ serverId: server.id })) : undefined)}
            >
              Restart
            </button>
          ) : null}
        </div>
      )}
      {actionProblem.problem ? (
        <p className="card-error" role="alert">
          {actionProblem.problem}
        </p>
      ) : null}
    </article>
  );
}

function StatusDetail({ serverId, status }: { serverId: string; status: ServerStatus }) {
  // The card is titled with the server's name: its errors need not begin with it again.
  const said = (text: string) => withoutNamesInView(text, serverId);
  if (status.kind === 'blocked')
    return (
      <p className="card-error">
        Not started: {describeBlock(status.block)}. It cannot start while the policy says so, whatever you approve.
      </p>
    );
  if (status.kind === 'needs-approval')
    return <p className="card-note">{status.reason === 'new' ? 'Not started: Atrium has not run this server before.' : 'Not started: what it runs changed since you approved it.'}</p>;
  if (status.kind === 'error')
    return (
      <p className="card-error">
        <UntrustedText text={said(status.message)} />
      </p>
    );
  if (status.kind === 'starting' && status.lastError !== undefined) {
    return (
      <p className="card-error">
        <UntrustedText text={said(status.lastError)} /> <span className="muted">Trying again (attempt {status.attempt}).</span>
      </p>
    );
  }
  if (status.kind === 'restarting') {
    const at = new Date(status.retryAt).toLocaleTimeString();
    return (
      <p className="card-error">
        <UntrustedText text={said(status.lastError)} /> <span className="muted">Retrying at {at}.</span>
      </p>
    );
  }
  return null;
}
