import { useCallback, useEffect, useRef, useState } from 'react';
import { AtriumRequestError, errorMessage } from '../api/AtriumRequestError.ts';

/** What a form shows after a failed submit: a message beside each field at fault, and one for the rest. */
export interface FormProblems {
  byField: Readonly<Record<string, string>>;
  general: string | null;
}

const none: FormProblems = { byField: {}, general: null };

/**
 * Splits what a request failed with into problems beside the form's own fields (`fields`: the request
 * keys the form shows) and one sentence for the whole form; a field problem the form has no field for
 * joins that sentence, so nothing the host said is lost.
 */
export function formProblemsOf(error: unknown, fields: readonly string[]): FormProblems {
  const byField: Record<string, string> = {};
  const rest: string[] = [];
  const problems = error instanceof AtriumRequestError ? error.fields : [];
  for (const problem of problems) {
    if (fields.includes(problem.field) && byField[problem.field] === undefined) byField[problem.field] = problem.message;
    else rest.push(problem.message);
  }
  if (problems.length === 0) rest.push(errorMessage(error));
  return { byField, general: rest.length > 0 ? rest.join(' ') : null };
}

/**
 * A form's problems and how to show them: `report` takes what a submit failed with, the first field at
 * fault gets the focus, and `describe(key)` gives that field's input its invalid state and message.
 */
export function useFormProblems(fields: readonly string[], idPrefix: string) {
  const [problems, setProblems] = useState<FormProblems>(none);
  const formRef = useRef<HTMLFormElement>(null);
  const [focusFirst, setFocusFirst] = useState(0);
  useEffect(() => {
    if (focusFirst === 0) return;
    const field = formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]');
    // Focusing alone scrolls only the box into view, its label cut off at the edge of a tall form: the
    // field is shown whole, its label, box and message.
    field?.focus({ preventScroll: true });
    (field?.closest<HTMLElement>('.field') ?? field)?.scrollIntoView({ block: 'nearest' });
  }, [focusFirst]);
  const report = useCallback(
    (error: unknown) => {
      setProblems(formProblemsOf(error, fields));
      setFocusFirst((n) => n + 1);
    },
    [fields],
  );
  const clear = useCallback(() => setProblems(none), []);
  const messageId = (key: string) => `${idPrefix}-${key.replace(/[^A-Za-z0-9_-]/g, '-')}-problem`;
  const describe = (key: string) =>
    problems.byField[key] !== undefined ? { 'aria-invalid': true as const, 'aria-describedby': messageId(key) } : {};
  const messageFor = (key: string) => ({ id: messageId(key), message: problems.byField[key] });
  return { problems, report, clear, formRef, describe, messageFor };
}
