import { UntrustedText } from './UntrustedText.tsx';

/**
 * The problem with one form field, shown right under it (its input points here with aria-describedby).
 * The message may quote what a server sent (an elicitation field's title), so hidden characters show.
 */
export function FieldProblem({ id, message }: { id: string; message: string | undefined }) {
  if (message === undefined) return null;
  return (
    <span id={id} className="field-problem">
      <UntrustedText text={message} />
    </span>
  );
}
