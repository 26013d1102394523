import { useEffect, useState } from 'react';
import type { ViewedCall } from './viewedCall.ts';
import type { ToolSummary } from '../../../../../shared/domain.ts';
import { declaredOrigins } from '../contract/viewSandbox.ts';
import type { ToolViewDocument } from '../contract/viewSandbox.ts';
import { errorMessage } from '../../../../../renderer/api/AtriumRequestError.ts';
import { useAtriumApi } from '../../../../../renderer/api/useAtriumApi.ts';
import { useAtriumStore } from '../../../../../renderer/store/useAtriumStore.ts';
import { UntrustedText } from '../../../../../renderer/ui/UntrustedText.tsx';
import { ViewFrame } from './ViewFrame.tsx';
import { ViewPermissions } from './ViewPermissions.tsx';

/**
 * MCP Apps: the view a tool's result comes with, inline in its card. The view's page is read from its
 * server; from a server the person has not marked trusted it is shown only on their click, after the card
 * says what it is and what it may reach. It runs in the view sandbox (a relay page on an origin of its own,
 * the view framed inside with scripts only), and what it asks for goes through Atrium's own consent:
 * tool calls through the approval dialog; a message to send, a link to open, files to save and a bigger
 * display mode through the one question it may have open in its card (ViewFrame.tsx).
 */
export function ToolView({ call, tool }: { call: ViewedCall; tool: ToolSummary & { view: { resourceUri: string } } }) {
  const api = useAtriumApi();
  const sandbox = useAtriumStore((state) => state.hostInfo?.viewSandbox);
  // A trusted server's views, or a server whose views the person chose to see, show without a click.
  const showsWithoutAsking = useAtriumStore(
    (state) => state.viewTrust.some((trust) => trust.serverId === call.serverId && trust.showsSince !== undefined) || state.servers.some((server) => server.id === call.serverId && server.trusted),
  );
  const granted = useAtriumStore((state) => state.viewTrust.find((trust) => trust.serverId === call.serverId)?.permissions);
  const [trustError, setTrustError] = useState<string | null>(null);
  const [document, setDocument] = useState<ToolViewDocument | null>(() => cachedDocument(call.serverId, call.tool));
  const [failure, setFailure] = useState<string | null>(null);
  // Each Try again reads the page once more: a server that was busy or restarting may send it now.
  const [attempt, setAttempt] = useState(0);
  const [shown, setShown] = useState(() => shownCalls.has(call.id));
  const [closedNote, setClosedNote] = useState<string | null>(null);

  useEffect(() => {
    if (document || !sandbox) return;
    let current = true;
    api.openToolView({ serverId: call.serverId, tool: call.tool }).then(
      (read) => {
        rememberDocument(read);
        if (current) setDocument(read);
      },
      (error: unknown) => current && setFailure(errorMessage(error)),
    );
    return () => {
      current = false;
    };
  }, [api, call.serverId, call.tool, document, sandbox, attempt]);

  const label = `View of ${call.serverId}/${call.tool}`;
  if (!sandbox) {
    return (
      <p className="tool-view-note muted">
        This result has a view (<UntrustedText text={tool.view.resourceUri} />), which this window cannot show.
      </p>
    );
  }
  if (failure) {
    return (
      <div className="tool-view-note tool-view-failure row-actions">
        <p role="alert">The view could not be shown: {failure}</p>
        <button
          type="button"
          className="button button-small"
          onClick={() => {
            setFailure(null);
            setAttempt((count) => count + 1);
          }}
        >
          Try again
        </button>
      </div>
    );
  }
  if (!document) return <p className="tool-view-note muted">Loading the view…</p>;
  // Of what the view asks for, what the person allowed the server's views: the frame gets only these.
  const allowed = document.permissions.filter((permission) => granted?.some((grant) => grant.permission === permission) === true);
  const permissions = <ViewPermissions serverId={call.serverId} asked={document.permissions} allowed={allowed} />;
  // A view that was stopped or closed itself stays closed until the person shows it again, trusted or not.
  if (!shown && (!showsWithoutAsking || closedNote !== null)) {
    const origins = declaredOrigins(document.csp);
    return (
      <section className="tool-view-offer" aria-label={`${label}, not shown yet`}>
        <p>
          <UntrustedText text={call.serverId} /> offers a view of this result: <code><UntrustedText text={document.resourceUri} /></code>.
        </p>
        <p className="muted">
          {origins.length === 0 ? 'It declares no network access: it can reach nothing outside itself.' : 'It may reach: '}
          {origins.map((origin, index) => (
            <span key={origin}>
              {index > 0 ? ', ' : ''}
              <code>
                <UntrustedText text={origin} />
              </code>
            </span>
          ))}
          {closedNote ? ` ${closedNote}` : ''}
        </p>
        {document.dropped.length > 0 ? <p className="muted">Not allowed, as declared: {document.dropped.join('; ')}.</p> : null}
        {permissions}
        <div className="row-actions">
          <button
            type="button"
            className="button button-small"
            onClick={() => {
              shownCalls.add(call.id);
              setShown(true);
            }}
          >
            Show view
          </button>
          {showsWithoutAsking ? null : (
            <button
              type="button"
              className="button button-small"
              onClick={() => {
                setTrustError(null);
                // The store hears the change (viewTrustChanged) and every view of this server shows.
                api.setViewTrust({ serverId: call.serverId, trusted: true }).catch((error: unknown) => setTrustError(errorMessage(error)));
              }}
            >
              Always show views from <UntrustedText text={call.serverId} />
            </button>
          )}
        </div>
        {trustError ? <p role="alert">{trustError}</p> : null}
      </section>
    );
  }
  return (
    <>
      <ViewFrame
        // A frame's permissions are fixed when it loads: one allowed or revoked starts the view again.
        key={`${call.id} ${allowed.join(' ')}`}
        api={api}
        call={call}
        tool={tool}
        document={document}
        allowed={allowed}
        sandbox={sandbox}
        label={label}
        onClosed={(note) => {
          shownCalls.delete(call.id);
          setClosedNote(note);
          setShown(false);
        }}
      />
      {permissions}
    </>
  );
}

// The list is virtualised: a card scrolled away unmounts (and its view with it) and mounts again when it
// comes back. The page read and the person's click are kept for this window's life so it shows straight away.
const shownCalls = new Set<string>();
const documents = new Map<string, ToolViewDocument>();
const MAX_DOCUMENTS = 8;

function cachedDocument(serverId: string, tool: string): ToolViewDocument | null {
  return documents.get(`${serverId}\n${tool}`) ?? null;
}

function rememberDocument(document: ToolViewDocument): void {
  const key = `${document.serverId}\n${document.tool}`;
  documents.delete(key);
  documents.set(key, document);
  if (documents.size > MAX_DOCUMENTS) documents.delete(documents.keys().next().value as string);
}
