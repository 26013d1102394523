import { useEffect } from 'react';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import type { Shortcut } from '../../ui/shortcuts.ts';
import { matchesShortcut } from '../../ui/shortcuts.ts';

// Ctrl+N and Ctrl+T belong to the browser in the browser mode (a page cannot keep them); these do not.
export const newConversationShortcut: Shortcut = { key: 'o', shift: true };
export const focusComposerShortcut: Shortcut = { key: 'l' };

/** From any view: a new conversation, or the cursor back in the composer, without reaching for the mouse. */
export function useChatShortcuts(): void {
  const startConversation = useAtriumStore((state) => state.startConversation);
  const showView = useAtriumStore((state) => state.showView);
  const requestComposerFocus = useAtriumStore((state) => state.requestComposerFocus);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // An open dialog (a consent request) holds the window until it is answered.
      if (event.defaultPrevented || document.querySelector('dialog[open]')) return;
      if (matchesShortcut(event, newConversationShortcut)) {
        event.preventDefault();
        startConversation();
      } else if (matchesShortcut(event, focusComposerShortcut)) {
        event.preventDefault();
        showView('chat');
        requestComposerFocus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [startConversation, showView, requestComposerFocus]);
}
