import { useEffect } from 'react';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { matchesShortcut } from '../../ui/shortcuts.ts';
import { focusComposerShortcut, newConversationShortcut, searchConversationsShortcut, shortcutsHelpShortcut } from '../../ui/appShortcuts.ts';

/**
 * From any view: a new conversation, the cursor back in the composer or in the conversations' search, or
 * the list of shortcuts, without reaching for the mouse.
 */
export function useAppShortcuts(showHelp: () => void): void {
  const startConversation = useAtriumStore((state) => state.startConversation);
  const showView = useAtriumStore((state) => state.showView);
  const requestComposerFocus = useAtriumStore((state) => state.requestComposerFocus);
  const requestSearchFocus = useAtriumStore((state) => state.requestSearchFocus);
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      // An open dialog (a consent request, this help) holds the window until it is closed.
      if (event.defaultPrevented || document.querySelector('dialog[open]')) return;
      if (matchesShortcut(event, newConversationShortcut)) {
        event.preventDefault();
        startConversation();
      } else if (matchesShortcut(event, focusComposerShortcut)) {
        event.preventDefault();
        showView('chat');
        requestComposerFocus();
      } else if (matchesShortcut(event, searchConversationsShortcut)) {
        event.preventDefault();
        requestSearchFocus();
      } else if (matchesShortcut(event, shortcutsHelpShortcut)) {
        event.preventDefault();
        showHelp();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [startConversation, showView, requestComposerFocus, requestSearchFocus, showHelp]);
}
