// Keyboard shortcuts. A command shortcut uses the platform's command key (Ctrl, or ⌘ on a Mac), which
// types nothing, so it works wherever the cursor is; a plain key (like "?") would be a character in a
// text field, so it only counts outside one. One description gives the test for a key event, the label
// a person reads, and the aria-keyshortcuts value.

export type Shortcut =
  /** `key` as `KeyboardEvent.key` gives it without Shift, lower case for letters. */
  | { kind: 'command'; key: string; shift?: boolean }
  /** `key` is the character typed ("?"), whatever modifier the layout needs for it. */
  | { kind: 'plain'; key: string };

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);

export function matchesShortcut(event: KeyboardEvent, shortcut: Shortcut): boolean {
  if (event.altKey) return false;
  if (shortcut.kind === 'plain') return !event.ctrlKey && !event.metaKey && event.key === shortcut.key && !isTextEntry(event.target);
  const command = isMac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  return command && event.shiftKey === (shortcut.shift ?? false) && event.key.toLowerCase() === shortcut.key;
}

/** As a person reads it: "Ctrl+Shift+O" ("⌘⇧O" on a Mac), or the plain key itself. */
export function shortcutLabel(shortcut: Shortcut): string {
  if (shortcut.kind === 'plain') return shortcut.key;
  const key = shortcut.key.toUpperCase();
  if (isMac) return `⌘${shortcut.shift ? '⇧' : ''}${key}`;
  return `Ctrl+${shortcut.shift ? 'Shift+' : ''}${key}`;
}

/** The value of aria-keyshortcuts for a command shortcut, e.g. "Control+Shift+O". */
export function ariaShortcut(shortcut: Shortcut & { kind: 'command' }): string {
  return `${isMac ? 'Meta' : 'Control'}+${shortcut.shift ? 'Shift+' : ''}${shortcut.key.toUpperCase()}`;
}

// Inputs of these types take no typed characters, so a plain key there is still a shortcut.
const NON_TEXT_INPUTS = new Set(['button', 'checkbox', 'color', 'file', 'image', 'radio', 'range', 'reset', 'submit']);

/** Whether a key pressed at `target` would type into a field. */
export function isTextEntry(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !NON_TEXT_INPUTS.has(target.type);
}
