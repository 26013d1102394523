import type { ProviderSettingsView } from '../../../shared/contract.ts';
import { InlineConfirmation } from '../../ui/InlineConfirmation.tsx';
import { useInPlaceConfirmation } from '../../ui/useInPlaceConfirmation.ts';

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
  const removal = useInPlaceConfirmation();

  return (
    <li className="grant-row">
      <span>
        <strong>{provider.id}</strong> <span className="muted">{provider.kind}</span>
        {provider.baseUrl ? <span className="muted code-inline"> {provider.baseUrl}</span> : null}{' '}
        <span className={provider.hasKey ? 'chip' : 'chip chip-warn'}>{provider.hasKey ? 'key set' : 'no key'}</span>
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
          {provider.hasKey ? 'Its saved key is deleted too. ' : ''}Conversations that used it keep their messages; continue them with another model.
        </InlineConfirmation>
      ) : (
        <span className="row-actions">
          <KeyForm providerId={provider.id} canStore={canStore} onSave={onSaveKey} />
          <button ref={removal.trigger} type="button" className="button button-small button-danger" aria-label={`Remove ${provider.id}`} onClick={removal.ask}>
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
