import type { ReactNode } from 'react';

interface InlineConfirmationProps {
  /** The question, as the group's accessible name: "Sign out of github?". */
  question: string;
  /** What doing it means, in a sentence or two. */
  children: ReactNode;
  /** The button that does it, e.g. "Sign out". */
  confirmLabel: string;
  /** The button that keeps things as they are, e.g. "Keep signed in": it has the focus. */
  keepLabel: string;
  onConfirm(): void;
  onKeep(): void;
}

/**
 * A confirmation in place of the control that asked for it, for something that cannot be undone: the
 * safe answer has the focus, and Escape gives it.
 */
export function InlineConfirmation({ question, children, confirmLabel, keepLabel, onConfirm, onKeep }: InlineConfirmationProps) {
  return (
    <div
      role="group"
      aria-label={question}
      className="inline-confirmation"
      onKeyDown={(event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        onKeep();
      }}
    >
      <p>{children}</p>
      <span className="inline-confirmation-actions">
        <button type="button" className="button button-small button-danger" onClick={onConfirm}>
          {confirmLabel}
        </button>
        <button type="button" className="button button-small" autoFocus onClick={onKeep}>
          {keepLabel}
        </button>
      </span>
    </div>
  );
}
