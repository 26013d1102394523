import { useMemo, useState } from 'react';
import type { ServerSnapshot } from '../../../shared/domain.ts';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { ServerToolRules } from './ServerToolRules.tsx';
import { viewPermissionNames } from '../../../main/mcp/extensions/apps/contract/viewSandbox.ts';

/**
 * What decides this server's tool calls and views without asking: the rules ("always" answers, set here
 * or in a question), the answers given for one conversation, and what its views may do; each can be revoked.
 */
export function ServerGrantsPanel({ server }: { server: ServerSnapshot }) {
  const api = useAtriumApi();
  // The grants as the host's ledger announces them; this server's only.
  const allGrants = useAtriumStore((state) => state.grants);
  const grants = useMemo(() => allGrants.filter((grant) => grant.target.serverId === server.id), [allGrants, server.id]);
  // "Always" answers are the rules, set and shown by ServerToolRules; the rest are listed here.
  const forConversations = grants.filter((grant) => grant.scope !== 'always');
  const hasTools = useAtriumStore((state) => (state.catalogs[server.id]?.tools?.length ?? 0) > 0);
  const [error, setError] = useState<string | null>(null);

  const viewTrust = useAtriumStore((state) => state.viewTrust.find((trust) => trust.serverId === server.id));
  const [viewTrustError, setViewTrustError] = useState<string | null>(null);

  if (grants.length === 0 && !viewTrust && !hasTools) return <EmptyState title="No saved permissions">Answers you give “for this conversation” or “always” appear here.</EmptyState>;
  return (
    <div className="panel-pad grants-panel">
      <ServerToolRules server={server} grants={grants} />
      {forConversations.length > 0 || viewTrust ? (
        <ul className="grants-list" aria-label={`Permissions for ${server.id}`}>
          {viewTrust?.showsSince !== undefined ? (
            <li className="grant-row">
              <span>
                <strong>Show its views</strong> without asking <span className="muted">since {new Date(viewTrust.showsSince).toLocaleString()}</span>
              </span>
              <button
                type="button"
                className="button button-small"
                aria-label="Revoke: Show its views without asking"
                onClick={() => {
                  setViewTrustError(null);
                  api.setViewTrust({ serverId: server.id, trusted: false }).catch((failure: unknown) => setViewTrustError(errorMessage(failure)));
                }}
              >
                Revoke
              </button>
            </li>
          ) : null}
          {viewTrust?.permissions.map(({ permission, since }) => (
            <li key={permission} className="grant-row">
              <span>
                <strong>Its views may use your {viewPermissionNames[permission]}</strong> <span className="muted">since {new Date(since).toLocaleString()}</span>
              </span>
              <button
                type="button"
                className="button button-small"
                aria-label={`Revoke: its views may use your ${viewPermissionNames[permission]}`}
                onClick={() => {
                  setViewTrustError(null);
                  api.setViewPermission({ serverId: server.id, permission, allowed: false }).catch((failure: unknown) => setViewTrustError(errorMessage(failure)));
                }}
              >
                Revoke
              </button>
            </li>
          ))}
          {error ? (
            <li role="alert" className="grant-row">
              {error}
            </li>
          ) : null}
          {viewTrustError ? (
            <li role="alert" className="grant-row">
              {viewTrustError}
            </li>
          ) : null}
          {forConversations.map((grant) => {
            const what = grant.target.tool ? <UntrustedText text={grant.target.tool} /> : grant.target.only === 'read-only' ? 'its read-only tools' : 'every tool';
            const text = `${grant.effect === 'allow' ? 'Allow' : 'Deny'} ${grant.scope === 'once' ? 'once' : 'in one conversation'}`;
            return (
              <li key={grant.id} className="grant-row">
                <span>
                  <strong>{text}</strong>: {what} <span className="muted">since {new Date(grant.createdAt).toLocaleString()}</span>
                </span>
                <button
                  type="button"
                  className="button button-small"
                  aria-label={`Revoke: ${text} ${grant.target.tool ?? (grant.target.only === 'read-only' ? 'its read-only tools' : 'every tool')}`}
                  onClick={() => {
                    setError(null);
                    api.revokeGrant({ id: grant.id }).catch((failure: unknown) => setError(errorMessage(failure)));
                  }}
                >
                  Revoke
                </button>
              </li>
            );
          })}
        </ul>
      ) : null}
    </div>
  );
}
