import { useEffect, useRef, useState } from 'react';
import type { ProviderSettingsView } from '../../../shared/contract.ts';
import { InlineConfirmation } from '../../ui/InlineConfirmation.tsx';

type ConfiguredProvider = ProviderSettingsView['providers'][number];

interface ProviderRowProps {
  provider: ConfiguredProvider;
  /** Whether a key typed here can be kept (a store exists, and a weak one was accepted). */
  canStore: boolean;
  onSaveKey(key: string): Promise<void>;
  onRemove(): void;
}

/** One configured provider: its key, and its removal, confirmed in place because it cannot be undone. */
export function ProviderRow({ provider, canStore, onSaveKey, onRemove }: ProviderRowProps) {
  const [confirmingRemoval, setConfirmingRemoval] = useState(false);
  const removeButton = useRef<HTMLButtonElement>(null);
  const kept = useRef(false);
  // Keeping the provider puts the keyboard back on Remove, where the person was.
  useEffect(() => {
    if (confirmingRemoval || !kept.current) return;
    kept.current = false;
    removeButton.current?.focus();
  }, [confirmingRemoval]);

  return (
    <li className="grant-row">
      <span>
        <strong>{provider.id}</strong> <span className="muted">{provider.kind}</span>
        {provider.baseUrl ? <span className="muted code-inline"> {provider.baseUrl}</span> : null}{' '}
        <span className={provider.hasKey ? 'chip' : 'chip chip-warn'}>{provider.hasKey ? 'key set' : 'no key'}</span>
      </span>
      {confirmingRemoval ? (
        <InlineConfirmation
          question={`Remove ${provider.id}?`}
          confirmLabel="Remove"
          keepLabel={`Keep ${provider.id}`}
          onConfirm={() => {
            setConfirmingRemoval(false);
            onRemove();
          }}
          onKeep={() => {
            kept.current = true;
            setConfirmingRemoval(false);
          }}
        >
          {provider.hasKey ? 'Its saved key is deleted too. ' : ''}Conversations that used it keep their messages; continue them with another model.
        </InlineConfirmation>
      ) : (
        <span className="row-actions">
          <KeyForm providerId={provider.id} canStore={canStore} onSave={onSaveKey} />
          <button ref={removeButton} type="button" className="button button-small button-danger" aria-label={`Remove ${provider.id}`} onClick={() => setConfirmingRemoval(true)}>
            Remove
          </button>
        </span>
      )}
    </li>
  );
}

/** The provider as saved, without what the window only shows (whether a key is set). */
export function withoutKeyState(provider: ConfiguredProvider) {
  return {
    id: provider.id,
    kind: provider.kind,
    ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}),
    ...(provider.models ? { models: provider.models } : {}),
    ...(provider.imageGeneration ? { imageGeneration: true } : {}),
  };
}

/** Keys are read from the field once, on submit, and the field is cleared at once: no copy stays in the page. */
function KeyForm({ providerId, canStore, onSave }: { providerId: string; canStore: boolean; onSave(key: string): Promise<void> }) {
  if (!canStore) return null;
  return (
    <form
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        const form = event.currentTarget;
        const key = String(new FormData(form).get('key') ?? '');
        form.reset();
        if (key) void onSave(key);
      }}
    >
      <input type="password" name="key" autoComplete="off" className="conversations-search" aria-label={`New key for ${providerId}`} placeholder="New key" />
      <button type="submit" className="button button-small">
        Save key
      </button>
    </form>
  );
}
