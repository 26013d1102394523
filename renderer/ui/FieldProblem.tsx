import { ProblemAlert } from './ProblemAlert.tsx';
import { UntrustedText } from './UntrustedText.tsx';
import type { FormProblems } from './useFormProblems.ts';

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

/**
 * The line above a form's buttons after a failed submit: what went wrong beyond any one field, else a
 * pointer to the fields marked above (`notDone`: "Not saved", "Not sent", …).
 */
export function FormProblemsSummary({ problems, notDone }: { problems: FormProblems; notDone: string }) {
  const text = problems.general ?? (Object.keys(problems.byField).length > 0 ? `${notDone}: correct the fields marked above.` : null);
  return <ProblemAlert text={text} />;
}
