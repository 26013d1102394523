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
  onChange(values: Record<string, string>): void;
  onRun(args: Record<string, string>): void;
  onClose(): void;
}

/** A chosen prompt's arguments, each with the server's completions (completion/complete), then Run. */
export function PromptArguments({ prompt, values, running, onChange, onRun, onClose }: PromptArgumentsProps) {
  const api = useAtriumApi();
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
        <CompletingInput
          key={arg.name}
          name={arg.name}
          label={arg.name}
          {...(arg.description ? { description: <UntrustedText text={arg.description} /> } : {})}
          required={arg.required === true}
          autoFocus={index === 0}
          value={values[arg.name] ?? ''}
          dependsOn={JSON.stringify(values)}
          complete={(value) =>
            api
              .complete({ serverId: prompt.serverId, ref: { type: 'ref/prompt', name: prompt.name }, argument: { name: arg.name, value }, context: othersThan(values, arg.name) })
              .then((answer) => answer.values)
          }
          onChange={(value) => onChange({ ...values, [arg.name]: value })}
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
