import { useEffect, useRef, useState } from 'react';

/**
 * The state of an InlineConfirmation: whether it is shown in place of the button that asked for it, and
 * putting the keyboard back on that button when the person keeps things as they are.
 */
export function useInPlaceConfirmation() {
  const [confirming, setConfirming] = useState(false);
  /** The button that asks; it gets the focus back after "keep". */
  const trigger = useRef<HTMLButtonElement>(null);
  const kept = useRef(false);
  useEffect(() => {
    if (confirming || !kept.current) return;
    kept.current = false;
    trigger.current?.focus();
  }, [confirming]);
  return {
    confirming,
    trigger,
    ask: () => setConfirming(true),
    keep: () => {
      kept.current = true;
      setConfirming(false);
    },
    /** Ends the question after the person confirmed (the focus goes wherever the change takes it). */
    close: () => setConfirming(false),
  };
}
