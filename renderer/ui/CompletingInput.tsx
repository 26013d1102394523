import { useEffect, useRef, useState } from 'react';
import type { ReactNode } from 'react';
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
  onChange(value: string): void;
}

/**
 * A text field whose suggestions come from the server: asked once per pause in typing (debounced), and
 * an older answer never replaces a newer one. Suggestions are server text: shown, never trusted.
 */
export function CompletingInput({ name, label, description, value, required, autoFocus, complete, dependsOn, onChange }: CompletingInputProps) {
  const [focused, setFocused] = useState(false);
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const latest = useRef(0);
  const completeRef = useRef(complete);
  completeRef.current = complete;

  useEffect(() => {
    if (!focused) return;
    const ticket = ++latest.current;
    const timer = setTimeout(() => {
      completeRef.current(value).then(
        (values) => ticket === latest.current && setSuggestions(values.filter((v) => v !== value).slice(0, 20)),
        () => ticket === latest.current && setSuggestions([]),
      );
    }, COMPLETION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [focused, value, dependsOn]);

  return (
    <div className="field">
      <label className="field">
        <span className="field-label">
          {label}
          {required ? <span className="required" aria-hidden="true"> *</span> : null}
        </span>
        {description ? <span className="field-description">{description}</span> : null}
        <input
          value={value}
          required={required}
          autoFocus={autoFocus}
          autoComplete="off"
          onFocus={() => setFocused(true)}
          onBlur={() => setFocused(false)}
          onChange={(event) => onChange(event.target.value)}
        />
      </label>
      {focused && suggestions.length > 0 ? (
        <ul className="suggestions" role="listbox" aria-label={`Suggestions for ${name}`}>
          {suggestions.map((suggestion) => (
            <li
              key={suggestion}
              role="option"
              aria-selected={false}
              className="prompt-option"
              onMouseDown={(event) => {
                event.preventDefault();
                // What the server suggested, without the neutraliser's marks: the field holds plain text.
                onChange(withoutMarks(suggestion));
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
