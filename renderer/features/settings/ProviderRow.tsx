import { useEffect, useRef, useState } from 'react';
import type { ConfiguredProviderView, ProviderCheck, ProviderEdit } from '../../../shared/contract.ts';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { InlineConfirmation } from '../../ui/InlineConfirmation.tsx';
import { useInPlaceConfirmation } from '../../ui/useInPlaceConfirmation.ts';
import { EditProviderForm } from './EditProviderForm.tsx';
import type { ProviderEditRequest } from './EditProviderForm.tsx';

interface ProviderRowProps {
  provider: ConfiguredProviderView;
  /** Whether a key typed here can be kept (a store exists, and a weak one was accepted). */
  canStore: boolean;
  onEdit(edit: ProviderEditRequest): Promise<ProviderEdit>;
  onEdited(summary: string): void;
  onTest(): Promise<ProviderCheck>;
  onRemove(): void;
}

type Check = { state: 'running' } | { state: 'done'; check: ProviderCheck };

/**
 * One configured provider: where its requests go and whether its key goes with them; a connection test;
 * its edit form in place; and its removal, confirmed in place because it cannot be undone.
 */
export function ProviderRow({ provider, canStore, onEdit, onEdited, onTest, onRemove }: ProviderRowProps) {
  const removal = useInPlaceConfirmation();
  const [editing, setEditing] = useState(false);
  const [check, setCheck] = useState<Check | null>(null);
  const editButton = useRef<HTMLButtonElement>(null);
  const row = useRef<HTMLLIElement>(null);
  const wasEditing = useRef(false);
  // The form takes the keyboard when it opens, and gives it back to Edit when it closes.
  useEffect(() => {
    if (editing) row.current?.querySelector<HTMLElement>('form select')?.focus();
    else if (wasEditing.current) editButton.current?.focus();
    wasEditing.current = editing;
  }, [editing]);
  const test = () => {
    setCheck({ state: 'running' });
    onTest().then(
      (result) => setCheck({ state: 'done', check: result }),
      (failure: unknown) => setCheck({ state: 'done', check: { ok: false, message: errorMessage(failure) } }),
    );
  };

  return (
    <li className="provider-row" ref={row}>
      <div className="grant-row">
        <span>
          <strong>{provider.id}</strong> <span className="muted">{provider.kind}</span>
          {provider.address ? <span className="muted code-inline"> {provider.address}</span> : null} <KeyChip provider={provider} />
        </span>
        {removal.confirming ? (
          <InlineConfirmation
            question={`Remove ${provider.id}?`}
            confirmLabel="Remove"
            keepLabel={`Keep ${provider.id}`}
            onConfirm={() => {
              removal.close();
              onRemove();
            }}
            onKeep={removal.keep}
          >
            {provider.key?.source === 'stored' ? 'Its saved key is deleted too. ' : ''}Conversations that used it keep their messages; continue them with another model.
          </InlineConfirmation>
        ) : (
          <span className="row-actions">
            {/* Not disabled while it runs: a disabled button drops the keyboard that pressed it. */}
            <button type="button" className="button button-small" aria-label={`Test connection to ${provider.id}`} aria-disabled={check?.state === 'running'} onClick={() => {
                if (check?.state !== 'running') test();
              }}>
              {check?.state === 'running' ? 'Testing…' : 'Test connection'}
            </button>
            <button ref={editButton} type="button" className="button button-small" aria-label={`Edit ${provider.id}`} aria-expanded={editing} onClick={() => setEditing(!editing)}>
              Edit
            </button>
            <button ref={removal.trigger} type="button" className="button button-small button-danger" aria-label={`Remove ${provider.id}`} onClick={removal.ask}>
              Remove
            </button>
          </span>
        )}
      </div>
      <p className={check?.state === 'done' ? (check.check.ok ? 'provider-check provider-check-ok' : 'provider-check provider-check-failed') : 'provider-check'} role="status" aria-label={`Connection to ${provider.id}`}>
        {check?.state === 'running' ? `Asking ${provider.id} for its models…` : check?.state === 'done' ? `${check.check.ok ? '✓' : '✗'} ${check.check.message}` : null}
      </p>
      {editing ? (
        <EditProviderForm
          provider={provider}
          canStore={canStore}
          onSave={(edit) => {
            // What a test said was about the provider as it was. Cleared when the save starts, not when it
            // ends: a test started meanwhile is about the provider as saved, and is kept.
            setCheck(null);
            return onEdit(edit);
          }}
          onDone={(summary) => {
            setEditing(false);
            onEdited(summary);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : null}
    </li>
  );
}

function KeyChip({ provider }: { provider: ConfiguredProviderView }) {
  if (provider.key?.source === 'stored' && provider.key.heldFor !== undefined) return <span className="chip chip-warn">key not sent</span>;
  if (provider.key?.source === 'environment') return <span className="chip">key from the environment</span>;
  return <span className={provider.hasKey ? 'chip' : 'chip chip-warn'}>{provider.hasKey ? 'key set' : 'no key'}</span>;
}
