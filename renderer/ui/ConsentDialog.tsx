import { useId, useLayoutEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { TaskQuestionLabel } from '../../main/mcp/extensions/tasks/window/TaskQuestionLabel.tsx';
import { returnFocus } from './focusHome.ts';
import { RequestConversationLabel } from './RequestConversation.tsx';

interface ConsentDialogProps {
  title: string;
  /** Who is asking, shown under the title. */
  from: ReactNode;
  /** Escape, or closing the dialog any other way, gives this (safe) answer. */
  onDismiss(): void;
  tone?: 'normal' | 'danger';
  /** Room for a row of several answers (a tool approval's five). */
  wide?: boolean;
  children: ReactNode;
}

/**
 * A modal that cannot be missed: the native <dialog> with showModal traps focus, makes the page behind
 * it inert, and turns Escape into the safe answer (deny, decline, reject). When it goes, the focus goes
 * back where it was — or, when that control is gone or disabled, to the message box.
 */
export function ConsentDialog({ title, from, onDismiss, tone = 'normal', wide = false, children }: ConsentDialogProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  // Its own id: two dialogs can be open at once (a start dialog over Import…), each named by its own title.
  const titleId = useId();
  // Layout effects: the dialog closes (and the focus moves) before React removes it from the page, which
  // would otherwise drop the focus on the page's body.
  useLayoutEffect(() => {
    const element = dialog.current;
    const before = element?.ownerDocument.activeElement ?? null;
    if (element && !element.open) element.showModal();
    // The safe answer takes the focus, so a stray Enter never approves anything. A dialog taller than
    // the window still opens at its top, on what is asked and who asks: the answers are at its foot, and
    // focusing them would scroll the question away.
    element?.querySelector<HTMLElement>('[data-autofocus]')?.focus({ preventScroll: true });
    if (element) element.scrollTop = 0;
    return () => {
      element?.close();
      returnFocus(before);
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      className={`consent consent-${tone}${wide ? ' consent-wide' : ''}`}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onDismiss();
      }}
    >
      <h2 id={titleId} className="consent-title">
        {title}
      </h2>
      <p className="consent-from">{from}</p>
      <TaskQuestionLabel />
      <RequestConversationLabel />
      {children}
    </dialog>
  );
}

/**
 * The answer that lets nothing happen (deny, decline, reject, keep it off, don't open): in every dialog
 * the same colour, and the focus when the dialog opens. The other answers are plain buttons.
 */
export function SafeAnswer({ onClick, children }: { onClick(): void; children: ReactNode }) {
  return (
    <button type="button" className="button button-primary consent-safe" data-autofocus onClick={onClick}>
      {children}
    </button>
  );
}

/** Sends an answer whose failure needs no showing (the request was withdrawn meanwhile, and its notice says so). */
export function safely<T>(answer: (outcome: T) => Promise<void>, outcome: T): void {
  answer(outcome).catch(() => undefined);
}
