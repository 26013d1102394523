// When the control that has the keyboard goes away under it — a card removed, an entry that ended, a
// button disabled while it works — the browser drops the focus on the page's body: the next Tab starts
// from the top, and a screen reader loses its place. This puts it back near where it was: on the first
// control that can take it in the nearest part of the page still shown, else the message box. One
// mechanism for the whole window, so no view has to remember it for each control that can disappear.
// Dialogs still give the focus back themselves (returnFocus), before their page is removed: then the
// focus is not on the body, and nothing here moves it.
import { canTakeFocus, focusHomeElement } from './focusHome.ts';

const FOCUSABLE = 'button, [href], input, select, textarea, summary, [tabindex]:not([tabindex="-1"])';

/** Starts keeping the focus on the page; returns what stops it. */
export function keepFocusNearby(doc: Document): () => void {
  // The control with the focus, then its ancestors, innermost first: where to look once it is gone.
  let lineage: HTMLElement[] = [];
  const dropped = () => doc.activeElement === null || doc.activeElement === doc.body;

  const rescue = () => {
    const [lost, ...around] = lineage;
    if (!lost || !dropped()) return;
    lineage = [];
    // Still there and able to take it: the person put the focus nowhere on purpose (a click on empty space),
    // and a later change of the page is not to move it.
    if (canTakeFocus(lost)) return;
    // A control that went (a card removed) leaves the keyboard in its part of the page; one still there but
    // unable to take it (Send while the turn runs) gives it to the message box, where the next thing is typed.
    // Outward from where it was: the first part of the page still shown that holds a control able to take it
    // (a card's row of buttons all unavailable gives way to the card, then the list around it).
    const nearby = () => {
      for (const place of around) {
        if (!place.isConnected || place.closest('[inert]') !== null || place.getClientRects().length === 0) continue;
        const control = [...place.querySelectorAll<HTMLElement>(FOCUSABLE)].find(canTakeFocus);
        if (control) return control;
      }
      return undefined;
    };
    const target = lost.isConnected ? (focusHomeElement() ?? nearby()) : (nearby() ?? focusHomeElement());
    target?.focus({ preventScroll: true });
  };

  const onFocusIn = (event: FocusEvent) => {
    if (!(event.target instanceof HTMLElement)) return;
    lineage = [];
    for (let element: HTMLElement | null = event.target; element && element !== doc.body; element = element.parentElement) lineage.push(element);
  };
  // A removal or a disabled control shows as a change of the page; a browser that says so with a blur too
  // is answered the same way, once the change it belongs to is done.
  const observer = new MutationObserver(rescue);
  const onFocusOut = () => queueMicrotask(rescue);
  doc.addEventListener('focusin', onFocusIn);
  doc.addEventListener('focusout', onFocusOut);
  observer.observe(doc.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled', 'inert', 'hidden'] });
  return () => {
    observer.disconnect();
    doc.removeEventListener('focusin', onFocusIn);
    doc.removeEventListener('focusout', onFocusOut);
  };
}
