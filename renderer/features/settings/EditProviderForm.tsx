import { useState } from 'react';
import type { ConfiguredProviderView, ProviderEdit, ProviderKind } from '../../../shared/contract.ts';
import { addressesInWords, addressInWords, providerAddress } from '../../../shared/providerAddress.ts';
import { FieldProblem, FormProblemsSummary } from '../../ui/FieldProblem.tsx';
import { useFormProblems } from '../../ui/useFormProblems.ts';
import { API_NAMES, ProviderFields, providerOfDraft } from './ProviderFields.tsx';
import type { ProviderDraft } from './ProviderFields.tsx';

/** The request keys of the fields Edit shows, so the host's problems land beside them. */
const editFields = ['provider.kind', 'provider.baseUrl', 'provider.models', 'key', 'keepKey'] as const;

export interface ProviderEditRequest {
  provider: { kind: ProviderKind; baseUrl?: string; models?: string[]; imageGeneration?: boolean };
  key?: string;
  removeKey?: boolean;
  keepKey?: { from: string; to: string };
}

interface EditProviderFormProps {
  provider: ConfiguredProviderView;
  /** Whether a key typed here can be kept (a store exists, and a weak one was accepted). */
  canStore: boolean;
  /** Rejects with the host's refusal, which the form shows beside its fields; resolves with what became of the key. */
  onSave(edit: ProviderEditRequest): Promise<ProviderEdit>;
  onDone(summary: string): void;
  onCancel(): void;
}

type KeyAction = 'keep' | 'replace' | 'remove';

/**
 * A provider's API, base URL, models and key, changed in place. The key is never shown: it is set or not,
 * and can be replaced or removed. When the address it goes to would change, it goes there only if the
 * person ticks the box that names both addresses; otherwise saving removes it.
 */
export function EditProviderForm({ provider, canStore, onSave, onDone, onCancel }: EditProviderFormProps) {
  const [draft, setDraft] = useState<ProviderDraft>({ kind: provider.kind, baseUrl: provider.baseUrl ?? '', models: provider.models?.join(', ') ?? '' });
  const [keyAction, setKeyAction] = useState<KeyAction>('keep');
  // The address the person agreed to send the key to: a tick counts only for the address it was given for.
  const [keepFor, setKeepFor] = useState<string | null>(null);
  const { problems, report, clear, formRef, describe, messageFor } = useFormProblems(editFields, `edit-provider-${provider.id}`);
  const stored = provider.key?.source === 'stored';
  const from = provider.key?.source === 'stored' ? (provider.key.heldFor ?? provider.address) : undefined;
  const to = providerAddress(draft.kind, draft.baseUrl.trim() || undefined);
  const moves = stored && keyAction === 'keep' && from !== undefined && to !== undefined && (from !== to || draft.kind !== provider.kind);
  const keepKey = moves && keepFor === to && from !== undefined && to !== undefined ? { from, to } : undefined;

  return (
    <form
      ref={formRef}
      className="consent-form provider-edit"
      aria-label={`Edit ${provider.id}`}
      noValidate
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.stopPropagation();
        onCancel();
      }}
      onSubmit={(event) => {
        event.preventDefault();
        clear();
        const keyField = event.currentTarget.elements.namedItem('key') as HTMLInputElement | null;
        const key = keyField?.value ?? '';
        const request: ProviderEditRequest = {
          provider: { ...providerOfDraft(draft), ...(provider.imageGeneration ? { imageGeneration: true } : {}) },
          ...(key ? { key } : {}),
          ...(keyAction === 'remove' ? { removeKey: true } : {}),
          ...(keepKey ? { keepKey } : {}),
        };
        void onSave(request).then((edit) => {
          if (keyField) keyField.value = '';
          onDone(savedSummary(provider.id, edit, from, to));
        }, report);
      }}
    >
      <h4 className="consent-subtitle">Edit {provider.id}</h4>
      <ProviderFields draft={draft} onChange={setDraft} describe={describe} problem={(field) => <FieldProblem {...messageFor(field)} />} />
      <fieldset className="field">
        <legend>API key</legend>
        <KeyState provider={provider} />
        {provider.key?.source === 'environment' || !canStore ? null : keyAction === 'replace' || provider.key === undefined ? (
          <label className="field">
            {provider.key === undefined ? 'API key (stored encrypted; a server on this computer may need none)' : 'New API key (stored encrypted; never shown again)'}
            <input type="password" name="key" autoComplete="off" {...describe('key')} />
          </label>
        ) : keyAction === 'remove' ? (
          <p>The key is removed when you save.</p>
        ) : null}
        {stored && canStore ? (
          <span className="row-actions">
            {keyAction === 'keep' ? (
              <>
                <button type="button" className="button button-small" onClick={() => setKeyAction('replace')}>
                  Replace key
                </button>
                <button type="button" className="button button-small button-danger" onClick={() => setKeyAction('remove')}>
                  Remove key
                </button>
              </>
            ) : (
              <button type="button" className="button button-small" onClick={() => setKeyAction('keep')}>
                Keep the key
              </button>
            )}
          </span>
        ) : null}
        <FieldProblem {...messageFor('key')} />
        {moves && from !== undefined && to !== undefined ? (
          <>
            <label className="field-check">
              <input type="checkbox" checked={keepFor === to} onChange={(event) => setKeepFor(event.target.checked ? to : null)} {...describe('keepKey')} />
              {keepKeyLabel(from, to, draft.kind, provider.kind)}
            </label>
            <span className="muted">{keepFor === to ? '' : `Left unticked, the key is removed when you save: it was set for ${addressInWords(from)}.`}</span>
            <FieldProblem {...messageFor('keepKey')} />
          </>
        ) : null}
      </fieldset>
      <FormProblemsSummary problems={problems} notDone="Not saved" />
      <span className="row-actions">
        <button type="submit" className="button button-primary">
          Save
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </span>
    </form>
  );
}

/** What the key is now, in a sentence; never the key. */
function KeyState({ provider }: { provider: ConfiguredProviderView }) {
  const key = provider.key;
  if (key === undefined) return <p className="muted">No key set.</p>;
  if (key.source === 'environment') {
    return <p className="muted">Its key comes from Atrium’s environment ({key.variables.join(' or ')}) and goes wherever this provider points; Settings cannot change it.</p>;
  }
  if (key.heldFor !== undefined && provider.address !== undefined) {
    const [was, now] = addressesInWords(key.heldFor, provider.address);
    return (
      <p className="chip-warn provider-note">
        A key is set for {was}, but it is not sent to {now}: this provider’s address was changed outside Settings.
      </p>
    );
  }
  return <p className="muted">Key set (stored encrypted; never shown).</p>;
}

function keepKeyLabel(from: string, to: string, kind: ProviderKind, before: ProviderKind): string {
  if (from === to) return `Keep the key: send it to ${addressInWords(to)} over ${API_NAMES[kind]} from now on, not ${API_NAMES[before]}`;
  const [was, now] = addressesInWords(from, to);
  return `Send the key set for ${was} to ${now} from now on`;
}

function savedSummary(id: string, edit: ProviderEdit, from: string | undefined, to: string | undefined): string {
  const [was, now] = from !== undefined && to !== undefined ? addressesInWords(from, to) : [from ?? 'its old address', to ?? 'its new address'];
  switch (edit.key) {
    case 'replaced':
      return `Saved ${id} with its new key`;
    case 'removed':
      return `Saved ${id}; its key is removed`;
    case 'moved':
      return `Saved ${id}; its key goes to ${now} from now on`;
    case 'dropped':
      return `Saved ${id}; its key, set for ${was}, was removed: give it one for ${now} if it needs one`;
    case 'unchanged':
      return `Saved ${id}`;
  }
}
