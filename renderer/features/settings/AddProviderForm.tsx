import { useState } from 'react';
import type { ProviderKind } from '../../../shared/contract.ts';
import { FieldProblem, FormProblemsSummary } from '../../ui/FieldProblem.tsx';
import { useFormProblems } from '../../ui/useFormProblems.ts';
import { ProviderFields, providerOfDraft } from './ProviderFields.tsx';
import type { ProviderDraft } from './ProviderFields.tsx';

/** The request keys of the fields Add a provider shows, so the host's problems land beside them. */
const providerFields = ['provider.id', 'provider.kind', 'provider.baseUrl', 'provider.models', 'key'] as const;

const empty: ProviderDraft = { kind: 'anthropic', baseUrl: '', models: '' };

interface AddProviderFormProps {
  canStore: boolean;
  /** Rejects with the host's refusal (a taken name, a field that does not fit), which the form shows beside its fields. */
  onAdd(provider: { id: string; kind: ProviderKind; baseUrl?: string; models?: string[] }, key: string): Promise<void>;
}

export function AddProviderForm({ canStore, onAdd }: AddProviderFormProps) {
  const [id, setId] = useState('');
  const [draft, setDraft] = useState<ProviderDraft>(empty);
  const { problems, report, clear, formRef, describe, messageFor } = useFormProblems(providerFields, 'add-provider');
  return (
    <form
      ref={formRef}
      className="consent-form"
      aria-label="Add a provider"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        clear();
        const keyField = event.currentTarget.elements.namedItem('key') as HTMLInputElement | null;
        const key = keyField?.value ?? '';
        // What was typed stays until the provider is added; then the key's field is cleared at once, so no copy stays in the page.
        void onAdd({ id: id.trim(), ...providerOfDraft(draft) }, key).then(() => {
          if (keyField) keyField.value = '';
          setId('');
          setDraft({ ...empty, kind: draft.kind });
        }, report);
      }}
    >
      <h4 className="consent-subtitle">Add a provider</h4>
      <label className="field">
        Name (lowercase, e.g. “claude”)
        <input value={id} onChange={(event) => setId(event.target.value)} {...describe('provider.id')} />
      </label>
      <FieldProblem {...messageFor('provider.id')} />
      <ProviderFields draft={draft} onChange={setDraft} describe={describe} problem={(field) => <FieldProblem {...messageFor(field)} />} />
      {canStore ? (
        <>
          <label className="field">
            API key (stored encrypted; never shown again)
            <input type="password" name="key" autoComplete="off" {...describe('key')} />
          </label>
          <FieldProblem {...messageFor('key')} />
        </>
      ) : (
        <p className="muted">Keys come from the environment here (ATRIUM_SECRET_&lt;NAME&gt;).</p>
      )}
      <FormProblemsSummary problems={problems} notDone="Not added" />
      <button type="submit" className="button button-primary">
        Add provider
      </button>
    </form>
  );
}
