import { useId, useRef, useState } from 'react';
import type { PromptSummary } from '../../../shared/domain.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { CompletingInput } from '../../ui/CompletingInput.tsx';
import { othersThan } from '../../ui/completionContext.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';

interface PromptArgumentsProps {
  prompt: PromptSummary;
  /** The arguments typed so far: the conversation's (the store keeps them while another view is shown). */
  values: Record<string, string>;
  running: boolean;
  /** Why the last Run did not start, as the server or the host said it; gone once a value changes. */
  problem?: string | undefined;
  onChange(values: Record<string, string>): void;
  onRun(args: Record<string, string>): void;
  onClose(): void;
}

/**
 * A chosen prompt's arguments, each with the server's completions (completion/complete), then Run. Run
 * with a required argument empty says so under each such field and puts the cursor in the first.
 */
export function PromptArguments({ prompt, values, running, problem, onChange, onRun, onClose }: PromptArgumentsProps) {
  const api = useAtriumApi();
  const formId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  // Said once Run was pressed, and only while the argument is still empty.
  const [runTried, setRunTried] = useState(false);
  const missing = prompt.arguments.filter((arg) => arg.required && !values[arg.name]?.trim());
  const problemOf = (name: string, index: number) =>
    runTried && missing.some((arg) => arg.name === name) ? { id: `${formId}-${index}-problem`, message: `${name} is needed to run this prompt.` } : undefined;
  return (
    <form
      ref={formRef}
      className="prompt-arguments"
      aria-label={`Prompt ${prompt.name}`}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        if (running) return;
        const first = missing[0];
        if (first === undefined) {
          onRun(values);
          return;
        }
        setRunTried(true);
        formRef.current?.querySelector<HTMLInputElement>(`input[name="${CSS.escape(first.name)}"]`)?.focus();
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
        <CompletingInput
          key={arg.name}
          name={arg.name}
          label={arg.name}
          {...(arg.description ? { description: <UntrustedText text={arg.description} /> } : {})}
          required={arg.required === true}
          autoFocus={index === 0}
          value={values[arg.name] ?? ''}
          dependsOn={JSON.stringify(values)}
          problem={problemOf(arg.name, index)}
          complete={(value) =>
            api
              .complete({ serverId: prompt.serverId, ref: { type: 'ref/prompt', name: prompt.name }, argument: { name: arg.name, value }, context: othersThan(values, arg.name) })
              .then((answer) => answer.values)
          }
          onChange={(value) => onChange({ ...values, [arg.name]: value })}
        />
      ))}
      {problem ? (
        <p className="consent-problem" role="alert">
          Not run: <UntrustedText text={problem} />
        </p>
      ) : null}
      <div className="composer-actions">
        <button type="button" className="button" onClick={onClose}>
          Cancel
        </button>
        <button type="submit" className="button button-primary" disabled={running}>
          Run prompt
        </button>
      </div>
    </form>
  );
}
