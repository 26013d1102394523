// Keyboard shortcuts with the platform's command key: Ctrl, or ⌘ on a Mac. One description gives the
// test for a key event, the label a person reads in a tooltip, and the aria-keyshortcuts value.

export interface Shortcut {
  /** The key as `KeyboardEvent.key` gives it without Shift, lower case for letters. */
  key: string;
  shift?: boolean;
}

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.userAgent);

export function matchesShortcut(event: KeyboardEvent, shortcut: Shortcut): boolean {
  const command = isMac ? event.metaKey && !event.ctrlKey : event.ctrlKey && !event.metaKey;
  return command && !event.altKey && event.shiftKey === (shortcut.shift ?? false) && event.key.toLowerCase() === shortcut.key;
}

/** As a person reads it: "Ctrl+Shift+O", or "⌘⇧O" on a Mac. */
export function shortcutLabel(shortcut: Shortcut): string {
  const key = shortcut.key.toUpperCase();
  if (isMac) return `⌘${shortcut.shift ? '⇧' : ''}${key}`;
  return `Ctrl+${shortcut.shift ? 'Shift+' : ''}${key}`;
}

/** The value of aria-keyshortcuts, e.g. "Control+Shift+O". */
export function ariaShortcut(shortcut: Shortcut): string {
  return `${isMac ? 'Meta' : 'Control'}+${shortcut.shift ? 'Shift+' : ''}${shortcut.key.toUpperCase()}`;
}
