import { useEffect, useId, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { ReactNode } from 'react';
import { FieldProblem } from './FieldProblem.tsx';
import { UntrustedText } from './UntrustedText.tsx';
import { withoutMarks } from '../../shared/serverText.ts';

const COMPLETION_DELAY_MS = 200;

interface CompletingInputProps {
  name: string;
  label: ReactNode;
  description?: ReactNode;
  value: string;
  required?: boolean;
  autoFocus?: boolean;
  /** Asks the server for completions of `value` (completion/complete). */
  complete(value: string): Promise<string[]>;
  /** Changes when what the completions depend on changes (the other arguments). */
  dependsOn: string;
  /** What is wrong with the value, said under the field (the field points at it). */
  problem?: { id: string; message: string } | undefined;
  onChange(value: string): void;
}

/**
 * A text field whose suggestions come from the server: asked once per pause in typing (debounced), and
 * an older answer never replaces a newer one. Suggestions are server text: shown, never trusted. A
 * combobox for the keyboard as for the pointer: arrows move through the suggestions, Enter picks the one
 * chosen, Escape closes them (and only them: the form around it is left as it is) until the next key.
 */
export function CompletingInput({ name, label, description, value, required, autoFocus, complete, dependsOn, problem, onChange }: CompletingInputProps) {
  const [focused, setFocused] = useState(false);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  // The suggestion the arrows chose (-1: none), and whether Escape closed them.
  const [active, setActive] = useState(-1);
  const [dismissed, setDismissed] = useState(false);
  const listId = useId();
  const latest = useRef(0);
  const completeRef = useRef(complete);
  completeRef.current = complete;

  useEffect(() => {
    if (!focused) return;
    const ticket = ++latest.current;
    const timer = setTimeout(() => {
      completeRef.current(value).then(
        (values) => {
          if (ticket !== latest.current) return;
          setSuggestions(values.filter((v) => v !== value).slice(0, 20));
          setActive(-1);
        },
        () => ticket === latest.current && setSuggestions([]),
      );
    }, COMPLETION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [focused, value, dependsOn]);

  const open = focused && !dismissed && suggestions.length > 0;
  const pick = (suggestion: string) => {
    // What the server suggested, without the neutraliser's marks: the field holds plain text.
    onChange(withoutMarks(suggestion));
    setActive(-1);
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if ((event.key === 'ArrowDown' || event.key === 'ArrowUp') && suggestions.length > 0) {
      event.preventDefault();
      setDismissed(false);
      const step = event.key === 'ArrowDown' ? 1 : suggestions.length - 1;
      setActive((current) => (current < 0 ? (event.key === 'ArrowDown' ? 0 : suggestions.length - 1) : (current + step) % suggestions.length));
      return;
    }
    const chosen = open && active >= 0 ? suggestions[active] : undefined;
    if (event.key === 'Enter' && chosen !== undefined) {
      event.preventDefault();
      pick(chosen);
      return;
    }
    if (event.key === 'Escape' && open) {
      event.stopPropagation();
      setDismissed(true);
      setActive(-1);
    }
  };

  return (
    <div className="field">
      <label className="field">
        <span className="field-label">
          {label}
          {required ? <span className="required" aria-hidden="true"> *</span> : null}
        </span>
        {description ? <span className="field-description">{description}</span> : null}
        <input
          name={name}
          value={value}
          required={required}
          {...(problem ? { 'aria-invalid': true, 'aria-describedby': problem.id } : {})}
          autoFocus={autoFocus}
          autoComplete="off"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={open}
          aria-controls={open ? listId : undefined}
          aria-activedescendant={open && active >= 0 ? `${listId}-${active}` : undefined}
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onKeyDown={onKeyDown}
          onChange={(event) => {
            setDismissed(false);
            onChange(event.target.value);
          }}
        />
      </label>
      {problem ? <FieldProblem id={problem.id} message={problem.message} /> : null}
      {open ? (
        <ul className="suggestions" role="listbox" id={listId} aria-label={`Suggestions for ${name}`}>
          {suggestions.map((suggestion, index) => (
            <li
              key={suggestion}
              id={`${listId}-${index}`}
              role="option"
              aria-selected={index === active}
              className={index === active ? 'prompt-option prompt-option-active' : 'prompt-option'}
              onMouseDown={(event) => {
                event.preventDefault();
                pick(suggestion);
              }}
            >
              <UntrustedText text={suggestion} />
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
