import { useEffect, useRef, useState } from 'react';
import { AtriumRequestError, errorMessage } from '../api/AtriumRequestError.ts';
import { useAtriumStore } from '../store/useAtriumStore.ts';

export interface ActionProblem {
  /** Why the last action failed, for a person; null once it no longer holds. */
  problem: string | null;
  fail(failure: unknown): void;
  clear(): void;
}

/**
 * Why the person's last action in one place failed, kept until their next action there, or until its
 * cause is gone. A change refused because a data file could not be read (a comma the person left in
 * servers.json) stops being true once the file reads again: the refusal goes with the banner, rather
 * than staying to tell them to fix what they have fixed.
 */
export function useActionProblem(): ActionProblem {
  const [last, setLast] = useState<{ failure: unknown } | null>(null);
  const file = last?.failure instanceof AtriumRequestError ? last.failure.dataFile : undefined;
  const fileUnreadable = useAtriumStore((state) => file !== undefined && state.dataFileProblems.some((problem) => problem.file === file));
  // The refusal can come before the host's report that the file is damaged: it ends only once that
  // report was seen and then went, never because it has not come yet. Looked at again after every
  // failure, also a second one for the same file while it is still damaged.
  const seenUnreadable = useRef(false);
  useEffect(() => {
    if (file === undefined) return;
    if (fileUnreadable) seenUnreadable.current = true;
    else if (seenUnreadable.current) setLast(null);
  }, [last, file, fileUnreadable]);
  return {
    problem: last ? errorMessage(last.failure) : null,
    fail: (failure) => {
      seenUnreadable.current = false;
      setLast({ failure });
    },
    clear: () => setLast(null),
  };
}
