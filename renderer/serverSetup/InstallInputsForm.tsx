import { useId } from 'react';
import type { InstallInput } from '../../shared/installs.ts';
import { UntrustedText } from '../ui/UntrustedText.tsx';

const KIND_WORDS: Record<InstallInput['kind'], string> = {
  environment: 'environment variable',
  header: 'header',
  url: 'part of its address',
  argument: 'argument',
  setting: 'setting',
};

/**
 * The values a server asks for before it can be installed, one field each: a secret's field hides what is
 * typed and says it goes to Atrium's encrypted store (never servers.json); a choice is a list; a setting
 * that takes several values takes one per line. Every label and description is the publisher's text.
 */
export function InstallInputsForm({ inputs, values, onChange }: { inputs: readonly InstallInput[]; values: Readonly<Record<string, string>>; onChange(key: string, value: string): void }) {
  if (inputs.length === 0) return <p className="muted">It asks for nothing.</p>;
  return (
    <div className="install-inputs">
      {inputs.map((input) => (
        <InputField key={input.key} input={input} value={values[input.key] ?? ''} onChange={(value) => onChange(input.key, value)} />
      ))}
    </div>
  );
}

function InputField({ input, value, onChange }: { input: InstallInput; value: string; onChange(value: string): void }) {
  const id = useId();
  const noteId = `${id}-note`;
  const label = input.title ?? input.key;
  const placeholder = input.default !== undefined && !input.secret ? `${input.default} (if left empty)` : undefined;
  return (
    <div className="field install-input">
      <label htmlFor={id}>
        <UntrustedText text={label} />
        {input.required ? <span className="install-required"> (required)</span> : null}
      </label>
      {input.choices?.length ? (
        <select id={id} value={value} aria-describedby={noteId} onChange={(event) => onChange(event.target.value)}>
          <option value="">{input.default !== undefined ? `Its default (${input.default})` : 'Not set'}</option>
          {input.choices.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      ) : input.multiple ? (
        <textarea id={id} rows={3} value={value} placeholder={placeholder} aria-describedby={noteId} spellCheck={false} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input
          id={id}
          type={input.secret ? 'password' : 'text'}
          autoComplete="off"
          spellCheck={false}
          value={value}
          placeholder={placeholder}
          aria-describedby={noteId}
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
    </div>
  );
}
