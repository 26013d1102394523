import { useEffect } from 'react';
import { shownText } from '../../shared/visibleText.ts';
import { useAtriumStore } from '../store/useAtriumStore.ts';
import { launchReviewsWaiting } from '../store/selectionSlice.ts';

/**
 * The window's title (a tab's in the browser, the title bar and task bar on the desktop): what is open, and
 * how many requests wait for the person's answer, so a window behind others says it needs them.
 */
export function windowTitle({ place, waiting }: { place: string | null; waiting: number }): string {
  return `${waiting > 0 ? `(${waiting}) ` : ''}${place ? `${place} — ` : ''}Atrium`;
}

/** Keeps the document's title as windowTitle says: the open conversation's title in the chat, else the view's name. */
export function useWindowTitle(viewLabel: string): void {
  const conversationTitle = useAtriumStore((state) =>
    state.view === 'chat' && state.selectedConversationId !== null ? (state.conversations.find((c) => c.id === state.selectedConversationId)?.title ?? null) : null,
  );
  const inChat = useAtriumStore((state) => state.view === 'chat');
  // Servers' requests and the start dialogs of servers waiting for approval.
  const waiting = useAtriumStore((state) => state.pending.length + launchReviewsWaiting(state).length);
  useEffect(() => {
    // A conversation not begun yet is named as its pane's heading names it.
    const place = inChat ? (conversationTitle ? shownText(conversationTitle) : 'New conversation') : viewLabel;
    document.title = windowTitle({ place, waiting });
  }, [conversationTitle, inChat, viewLabel, waiting]);
}
