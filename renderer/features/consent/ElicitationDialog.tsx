import { useMemo, useState } from 'react';
import type { PendingOf } from '../../../shared/pendingPayloads.ts';
import type { ElicitationAnswer, ElicitationFormPayload, ElicitationUrlPayload, FormField } from '../../../shared/pendingPayloads.ts';
import { AddressWithDomain } from '../../ui/AddressWithDomain.tsx';
import { FieldProblem, FormProblemsSummary } from '../../ui/FieldProblem.tsx';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { useFormProblems } from '../../ui/useFormProblems.ts';
import { ConsentDialog, SafeAnswer, safely } from '../../ui/ConsentDialog.tsx';
import { withoutMarks } from '../../../shared/serverText.ts';

type Values = Record<string, string | boolean | string[]>;

interface ElicitationDialogProps {
  record: PendingOf<'elicitation'>;
  /** Resolves when the host took the answer; rejects with the reason when it did not (the form stays). */
  answer(outcome: ElicitationAnswer): Promise<void>;
  /** Opens an address the person agreed to open. */
  openUrl(url: string): void;
}

/** A server asks the person for input: a form made from its schema, or a web page to open. */
export function ElicitationDialog({ record, answer, openUrl }: ElicitationDialogProps) {
  const { payload } = record;
  return payload.mode === 'url' ? <UrlElicitation record={record} payload={payload} answer={answer} openUrl={openUrl} /> : <FormElicitation record={record} payload={payload} answer={answer} />;
}

function UrlElicitation({ record, payload, answer, openUrl }: ElicitationDialogProps & { payload: ElicitationUrlPayload }) {
  return (
    <ConsentDialog title="Open a web page?" from={<>Server <strong><UntrustedText text={record.serverId} /></strong> asks you to open a page.</>} onDismiss={() => safely(answer, { action: 'cancel' })}>
      <p className="consent-description">
        <UntrustedText text={payload.message} />
      </p>
      <AddressWithDomain url={payload.url} label="Full address" />
      <p>
        It goes to <strong className="consent-domain-name">{payload.domain}</strong>. Atrium has not opened or fetched it.
      </p>
      <div className="consent-actions">
        <button
          type="button"
          className="button"
          onClick={() =>
            answer({ action: 'accept' }).then(
              () => openUrl(payload.url),
              () => undefined,
            )
          }
        >
          Open page
        </button>
        <SafeAnswer onClick={() => safely(answer, { action: 'decline' })}>Decline</SafeAnswer>
        <button type="button" className="button" onClick={() => safely(answer, { action: 'cancel' })}>
          Cancel
        </button>
      </div>
    </ConsentDialog>
  );
}

function initialValues(fields: readonly FormField[]): Values {
  const values: Values = {};
  for (const field of fields) {
    if (field.kind === 'boolean') values[field.name] = field.default === true;
    else if (field.kind === 'choices') values[field.name] = Array.isArray(field.default) ? (field.default as string[]) : [];
    // A default is the server's text: the field holds it without the neutraliser's marks.
    else values[field.name] = field.default === undefined ? '' : withoutMarks(String(field.default));
  }
  return values;
}

/** The answer's content: typed values, with untouched optional fields left out (their defaults apply). */
function contentOf(fields: readonly FormField[], values: Values): Record<string, unknown> {
  const content: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field.name];
    if (field.kind === 'boolean') content[field.name] = value === true;
    else if (field.kind === 'choices') {
      if ((value as string[]).length > 0 || field.required) content[field.name] = value;
    } else if (value !== '') content[field.name] = field.kind === 'number' || field.kind === 'integer' ? Number(value) : value;
  }
  return content;
}

const inputType: Record<string, string> = { email: 'email', uri: 'url', date: 'date', 'date-time': 'datetime-local' };

function FormElicitation({ record, payload, answer }: { record: PendingOf<'elicitation'>; payload: ElicitationFormPayload; answer: ElicitationDialogProps['answer'] }) {
  const [values, setValues] = useState<Values>(() => initialValues(payload.fields));
  const names = useMemo(() => payload.fields.map((field) => field.name), [payload.fields]);
  // The host checks the answer against the form and names every field at fault; each problem shows under its field.
  const { problems, report, clear, formRef, describe, messageFor } = useFormProblems(names, `elicitation-${record.id}`);
  const set = (name: string, value: Values[string]) => setValues((current) => ({ ...current, [name]: value }));
  const submit = () => {
    clear();
    answer({ action: 'accept', content: contentOf(payload.fields, values) }).catch(report);
  };
  return (
    <ConsentDialog title="Information requested" from={<>Server <strong><UntrustedText text={record.serverId} /></strong> asks:</>} onDismiss={() => safely(answer, { action: 'cancel' })}>
      <p className="consent-description">
        <UntrustedText text={payload.message} />
      </p>
      {payload.asksForSecrets ? (
        <p className="consent-warning" role="alert">
          ⚠ This form seems to ask for a password, key or token. Servers must not ask for secrets this way; answer only if you trust it.
        </p>
      ) : null}
      <form
        ref={formRef}
        className="consent-form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        {payload.fields.map((field) => (
          <div key={field.name} className="consent-field">
            <FieldInput field={field} value={values[field.name] ?? ''} onChange={(value) => set(field.name, value)} invalid={describe(field.name)} />
            <FieldProblem {...messageFor(field.name)} />
          </div>
        ))}
        <FormProblemsSummary problems={problems} notDone="Not sent" />
        <div className="consent-actions">
          <button type="submit" className="button">
            Send answer
          </button>
          <SafeAnswer onClick={() => safely(answer, { action: 'decline' })}>Decline</SafeAnswer>
          <button type="button" className="button" onClick={() => safely(answer, { action: 'cancel' })}>
            Cancel
          </button>
        </div>
      </form>
    </ConsentDialog>
  );
}

/** `invalid`: the attributes that mark the input as wrong and point at its problem (empty when it is fine). */
type InvalidProps = { 'aria-invalid'?: true; 'aria-describedby'?: string };

function FieldInput({ field, value, onChange, invalid }: { field: FormField; value: Values[string]; onChange(value: Values[string]): void; invalid: InvalidProps }) {
  const label = (
    <span className="field-label">
      <UntrustedText text={field.title ?? field.name} />
      {field.required ? <span className="required" aria-hidden="true"> *</span> : null}
      {field.secretLooking ? <span className="secret-flag"> (looks like a secret)</span> : null}
    </span>
  );
  const description = field.description ? (
    <span className="field-description">
      <UntrustedText text={field.description} />
    </span>
  ) : null;
  if (field.kind === 'boolean') {
    return (
      <label className="field-check">
        <input type="checkbox" checked={value === true} onChange={(event) => onChange(event.target.checked)} {...invalid} />
        {label}
        {description}
      </label>
    );
  }
  if (field.kind === 'choices') {
    const chosen = value as string[];
    return (
      <fieldset className="field" aria-describedby={invalid['aria-describedby']}>
        <legend>{label}</legend>
        {description}
        {field.options?.map((option) => (
          <label key={option.value} className="field-check">
            <input
              type="checkbox"
              checked={chosen.includes(option.value)}
              onChange={(event) => onChange(event.target.checked ? [...chosen, option.value] : chosen.filter((v) => v !== option.value))}
            />
            <UntrustedText text={option.label} />
          </label>
        ))}
      </fieldset>
    );
  }
  if (field.kind === 'choice') {
    return (
      <label className="field">
        {label}
        {description}
        <select value={value as string} required={field.required} onChange={(event) => onChange(event.target.value)} {...invalid}>
          {field.required && value !== '' ? null : <option value="">—</option>}
          {field.options?.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      </label>
    );
  }
  const type = field.kind === 'number' || field.kind === 'integer' ? 'number' : field.secretLooking ? 'password' : (inputType[field.format ?? ''] ?? 'text');
  return (
    <label className="field">
      {label}
      {description}
      <input type={type} value={value as string} required={field.required} step={field.kind === 'integer' ? 1 : 'any'} autoComplete="off" onChange={(event) => onChange(event.target.value)} {...invalid} />
    </label>
  );
}
