import { useState } from 'react';
import { ProblemAlert } from './ProblemAlert.tsx';
import { useActionProblem } from './useActionProblem.ts';

export interface ActionLog {
  /** A line per action that succeeded, oldest first. */
  done: string[];
  /** Why the last action failed, until the next one starts (or its cause is gone: useActionProblem). */
  problem: string | null;
  /** Runs an action that says what it did, then `after` (a reload); a failure becomes `problem`. */
  run(action: () => Promise<string>): Promise<void>;
  fail(failure: unknown): void;
}

/** What the person's actions in a view did, kept to be shown by `ActionReport`. */
export function useActionLog(after: () => Promise<void>): ActionLog {
  const [done, setDone] = useState<string[]>([]);
  const actionProblem = useActionProblem();
  return {
    done,
    problem: actionProblem.problem,
    fail: actionProblem.fail,
    run: async (action) => {
      actionProblem.clear();
      try {
        const message = await action();
        setDone((all) => [...all, message]);
        await after();
      } catch (failure) {
        actionProblem.fail(failure);
      }
    },
  };
}

/** The last failure as an alert, and a ticked list of what was done. */
export function ActionReport({ log }: { log: ActionLog }) {
  return (
    <>
      <ProblemAlert text={log.problem} />
      {log.done.length > 0 ? (
        <ul className="setup-done" aria-label="Done">
          {log.done.map((line, index) => (
            <li key={index}>✓ {line}</li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
