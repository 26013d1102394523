// Where the keyboard goes when a dialog closes and the control it came from is gone or cannot take it
// (a button that disappeared with the question, a disabled Send): the message box, when one is shown.
import { useEffect } from 'react';
import type { RefObject } from 'react';

let home: (() => HTMLElement | null) | undefined;

/** Makes `element` the place the focus comes back to after a dialog, while it is mounted. */
export function useFocusHome(element: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const find = () => element.current;
    home = find;
    return () => {
      if (home === find) home = undefined;
    };
  }, [element]);
}

/** Gives the focus back after a dialog: to `before` when it can still take it, else home. */
export function returnFocus(before: Element | null): void {
  if (before instanceof HTMLElement && before !== before.ownerDocument.body && canTakeFocus(before)) {
    before.focus();
    if (before.ownerDocument.activeElement === before) return;
  }
  focusHomeElement()?.focus();
}

/** The message box, while one is shown. */
export function focusHomeElement(): HTMLElement | null {
  return home?.() ?? null;
}

export function canTakeFocus(element: HTMLElement): boolean {
  return element.isConnected && !element.matches(':disabled') && element.closest('[inert]') === null && element.getClientRects().length > 0;
}
