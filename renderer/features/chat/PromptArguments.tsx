import { useEffect, useRef, useState } from 'react';
import type { PromptSummary } from '../../../shared/domain.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';

interface PromptArgumentsProps {
  prompt: PromptSummary;
  running: boolean;
  onRun(args: Record<string, string>): void;
  onClose(): void;
}

const COMPLETION_DELAY_MS = 200;

/** A chosen prompt's arguments, each with the server's completions (completion/complete), then Run. */
export function PromptArguments({ prompt, running, onRun, onClose }: PromptArgumentsProps) {
  const [values, setValues] = useState<Record<string, string>>({});
  const missing = prompt.arguments.filter((arg) => arg.required && !values[arg.name]?.trim());
  return (
    <form
      className="prompt-arguments"
      aria-label={`Prompt ${prompt.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        if (missing.length === 0 && !running) onRun(values);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onClose();
      }}
    >
      <p className="prompt-arguments-head">
        <strong>
          /<UntrustedText text={prompt.name} />
        </strong>{' '}
        <span className="muted">
          from <UntrustedText text={prompt.serverId} />
          {prompt.description ? (
            <>
              {' '}
              · <UntrustedText text={prompt.description} />
            </>
          ) : null}
        </span>
      </p>
      {prompt.arguments.map((arg, index) => (
        <ArgumentInput
          key={arg.name}
          prompt={prompt}
          name={arg.name}
          description={arg.description}
          required={arg.required === true}
          autoFocus={index === 0}
          value={values[arg.name] ?? ''}
          context={values}
          onChange={(value) => setValues((current) => ({ ...current, [arg.name]: value }))}
        />
      ))}
      <div className="composer-actions">
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={missing.length > 0 || running}>
          Run prompt
        </button>
      </div>
    </form>
  );
}

interface ArgumentInputProps {
  prompt: PromptSummary;
  name: string;
  description: string | undefined;
  required: boolean;
  autoFocus: boolean;
  value: string;
  context: Record<string, string>;
  onChange(value: string): void;
}

function ArgumentInput({ prompt, name, description, required, autoFocus, value, context, onChange }: ArgumentInputProps) {
  const api = useAtriumApi();
  const [suggestions, setSuggestions] = useState<string[]>([]);
  const [focused, setFocused] = useState(false);
  const latest = useRef(0);
  const contextKey = JSON.stringify(context);

  // Debounced: one completion request per pause in typing; an older answer never replaces a newer one.
  useEffect(() => {
    if (!focused) return;
    const ticket = ++latest.current;
    const timer = setTimeout(() => {
      const others = Object.fromEntries(Object.entries(JSON.parse(contextKey) as Record<string, string>).filter(([key]) => key !== name));
      api
        .complete({ serverId: prompt.serverId, ref: { type: 'ref/prompt', name: prompt.name }, argument: { name, value }, context: others })
        .then(
          (answer) => ticket === latest.current && setSuggestions(answer.values.filter((v) => v !== value).slice(0, 20)),
          () => ticket === latest.current && setSuggestions([]),
        );
    }, COMPLETION_DELAY_MS);
    return () => clearTimeout(timer);
  }, [api, focused, value, contextKey, name, prompt.name, prompt.serverId]);

  return (
    <div className="field">
      <label className="field">
        <span className="field-label">
          {name}
          {required ? <span className="required" aria-hidden="true"> *</span> : null}
        </span>
        {description ? (
          <span className="field-description">
            <UntrustedText text={description} />
          </span>
        ) : null}
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
                onChange(suggestion);
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
