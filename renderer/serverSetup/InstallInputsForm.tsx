import { useId, useState } from 'react';
import type { InstallInput } from '../../shared/installs.ts';
import { FieldProblem } from '../ui/FieldProblem.tsx';
import { UntrustedText } from '../ui/UntrustedText.tsx';

const KIND_WORDS: Record<InstallInput['kind'], string> = {
  environment: 'environment variable',
  header: 'header',
  url: 'part of its address',
  argument: 'argument',
  setting: 'setting',
};

/** A field's problem after a failed install, keyed as the request names it (`values.KEY`): useFormProblems' pair. */
export interface InputProblems {
  describe(field: string): { 'aria-invalid'?: true; 'aria-describedby'?: string };
  messageFor(field: string): { id: string; message: string | undefined };
}

/** The request's key for one input's value. */
export const inputField = (input: InstallInput) => `values.${input.key}`;

/**
 * The values a server asks for before it can be installed, one field each: a secret's field hides what is
 * typed and says it goes to Atrium's encrypted store (never servers.json); a choice is a list; a setting
 * that takes several values takes one per line; a value the host found missing or wrong says so under its
 * field. Every label and description is the publisher's text.
 */
export function InstallInputsForm({ inputs, values, onChange, problems }: { inputs: readonly InstallInput[]; values: Readonly<Record<string, string>>; onChange(key: string, value: string): void; problems: InputProblems }) {
  if (inputs.length === 0) return <p className="muted">It asks for nothing.</p>;
  return (
    <div className="install-inputs">
      {inputs.map((input) => (
        <InputField key={input.key} input={input} value={values[input.key] ?? ''} onChange={(value) => onChange(input.key, value)} problems={problems} />
      ))}
    </div>
  );
}

function InputField({ input, value, onChange, problems }: { input: InstallInput; value: string; onChange(value: string): void; problems: InputProblems }) {
  const id = useId();
  const noteId = `${id}-note`;
  const field = inputField(input);
  const invalid = problems.describe(field);
  // The note is always read; the problem, when there is one, after it.
  const describedBy = [noteId, invalid['aria-describedby']].filter(Boolean).join(' ');
  const aria = { 'aria-describedby': describedBy, ...(invalid['aria-invalid'] ? { 'aria-invalid': true as const } : {}) };
  const label = input.title ?? input.key;
  const placeholder = input.default !== undefined && !input.secret ? `${input.default} (if left empty)` : undefined;
  return (
    <div className="field install-input">
      <label htmlFor={id}>
        <UntrustedText text={label} />
        {input.required ? <span className="install-required"> (required)</span> : null}
      </label>
      {input.choices?.length ? (
        <select id={id} value={value} {...aria} onChange={(event) => onChange(event.target.value)}>
          <option value="">{input.default !== undefined ? `Its default (${input.default})` : 'Not set'}</option>
          {input.choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      ) : input.multiple ? (
        <textarea id={id} rows={3} value={value} placeholder={placeholder} {...aria} spellCheck={false} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          id={id}
          type={input.secret ? 'password' : 'text'}
          autoComplete="off"
          spellCheck={false}
          value={value}
          placeholder={placeholder}
          {...aria}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
      <p id={noteId} className="field-note muted">
        {input.description ? (
          <>
            <UntrustedText text={input.description} />{' '}
          </>
        ) : null}
        <span>
          ({input.title ? `${input.key}, ` : ''}
          {input.format === 'directory' ? 'a folder, given to it as a root' : KIND_WORDS[input.kind]}
          {input.multiple ? ', one per line' : ''})
        </span>
        {input.secret ? <span className="install-secret"> A secret: kept in Atrium’s encrypted store, never in servers.json.</span> : null}
      </p>
      <FieldProblem {...problems.messageFor(field)} />
    </div>
  );
}

/**
 * Sends an install with the values the person gave (empty fields left out); while it runs the form is
 * busy, and a refusal's problems go beside their fields (useFormProblems' `report`).
 */
export function useInstallRequest(problems: { clear(): void; report(error: unknown): void }, send: (given: Record<string, string>) => Promise<unknown>, onDone: () => void) {
  const [busy, setBusy] = useState(false);
  const install = async (values: Readonly<Record<string, string>>) => {
    setBusy(true);
    problems.clear();
    try {
      await send(Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '')));
      onDone();
    } catch (failure) {
      problems.report(failure);
    } finally {
      setBusy(false);
    }
  };
  return { busy, install };
}
