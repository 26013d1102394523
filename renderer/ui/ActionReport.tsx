import { useState } from 'react';
import { errorMessage } from '../api/AtriumRequestError.ts';
import { ProblemAlert } from './ProblemAlert.tsx';

export interface ActionLog {
  /** A line per action that succeeded, oldest first. */
  done: string[];
  /** Why the last action failed, until the next one starts. */
  problem: string | null;
  /** Runs an action that says what it did, then `after` (a reload); a failure becomes `problem`. */
  run(action: () => Promise<string>): Promise<void>;
  fail(failure: unknown): void;
}

/** What the person's actions in a view did, kept to be shown by `ActionReport`. */
export function useActionLog(after: () => Promise<void>): ActionLog {
  const [done, setDone] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  return {
    done,
    problem,
    fail: (failure) => setProblem(errorMessage(failure)),
    run: async (action) => {
      setProblem(null);
      try {
        const message = await action();
        setDone((all) => [...all, message]);
        await after();
      } catch (failure) {
        setProblem(errorMessage(failure));
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
