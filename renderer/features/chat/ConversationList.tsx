import { useEffect, useRef, useState } from 'react';
import type { ConversationSummary } from '../../../shared/contract.ts';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useHostQuery } from '../../store/useHostQuery.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { ariaShortcut, shortcutLabel } from '../../ui/shortcuts.ts';
import { newConversationShortcut, searchConversationsShortcut } from '../../ui/appShortcuts.ts';
import { ConversationItem } from './ConversationItem.tsx';
import { groupByDate } from './conversationGroups.ts';

/**
 * The person's conversations, newest first, under the span they were last written in (Today, Yesterday…):
 * start a new one, pick, search (titles and what was said, as the host's history finds them), rename, delete.
 */
export function ConversationList() {
  const api = useAtriumApi();
  const conversations = useAtriumStore((state) => state.conversations);
  const selectedId = useAtriumStore((state) => state.selectedConversationId);
  const select = useAtriumStore((state) => state.selectConversation);
  const openFound = useAtriumStore((state) => state.openFound);
  const requestComposerFocus = useAtriumStore((state) => state.requestComposerFocus);
  const startConversation = useAtriumStore((state) => state.startConversation);
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string | null>(null);
  const search = useConversationSearch(query, conversations);
  const shown = search.matches ?? conversations;
  const list = useRef<HTMLDivElement>(null);
  // The search's shortcut puts the cursor in the search box, what was searched selected to be typed over.
  const searchBox = useRef<HTMLInputElement>(null);
  const searchFocusRequested = useAtriumStore((state) => state.searchFocusRequested);
  const searchFocusTaken = useAtriumStore((state) => state.searchFocusTaken);
  useEffect(() => {
    if (!searchFocusRequested || !searchBox.current) return;
    searchBox.current.focus();
    searchBox.current.select();
    searchFocusTaken();
  }, [searchFocusRequested, searchFocusTaken]);
  const newButton = useRef<HTMLButtonElement>(null);
  // After a deletion the keyboard lands on the conversation now in its place (or New conversation).
  const [focusAfterDelete, setFocusAfterDelete] = useState<{ id: string | null } | null>(null);
  useEffect(() => {
    if (!focusAfterDelete) return;
    const target = focusAfterDelete.id ? list.current?.querySelector<HTMLElement>(`[data-conversation-id="${CSS.escape(focusAfterDelete.id)}"]`) : newButton.current;
    target?.focus();
    setFocusAfterDelete(null);
  }, [focusAfterDelete, shown]);

  const act = async (action: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    try {
      // The list mirrors the host's history, which announces what changed.
      await action();
      return true;
    } catch (failure) {
      setError(errorMessage(failure));
      return false;
    }
  };

  // One a search found in what was said opens at that message.
  const open = (conversation: ConversationSummary) => (search.matches && conversation.excerpt !== undefined ? openFound(conversation.id, query.trim()) : select(conversation.id));

  const remove = async (conversation: ConversationSummary) => {
    const index = shown.findIndex((c) => c.id === conversation.id);
    // The one below takes its place; at the end of the list, the one above.
    const neighbour = shown[index + 1] ?? shown[index - 1] ?? null;
    const deleted = await act(() => api.deleteConversation({ conversationId: conversation.id }));
    if (!deleted) return;
    if (conversation.id === selectedId) select(neighbour?.id ?? null);
    setFocusAfterDelete({ id: neighbour?.id ?? null });
  };

  return (
    <nav className="conversations conversations-own-scroll" aria-label="Conversations">
      {/* For a screen reader's list of headings: the date groups below are its sections, then the open conversation's title. */}
      <h2 className="visually-hidden">Conversations</h2>
      <button
        ref={newButton}
        type="button"
        className="button button-primary conversations-new"
        onClick={startConversation}
        aria-pressed={selectedId === null}
        aria-keyshortcuts={ariaShortcut(newConversationShortcut)}
        title={`New conversation (${shortcutLabel(newConversationShortcut)})`}
      >
        New conversation
      </button>
      <input
        ref={searchBox}
        className="conversations-search"
        type="search"
        aria-label="Search conversations"
        aria-keyshortcuts={ariaShortcut(searchConversationsShortcut)}
        title={`Search the conversations (${shortcutLabel(searchConversationsShortcut)})`}
        placeholder="Search titles and messages"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        // Enter opens the first conversation found, the cursor in its message box, as a quick switcher does.
        onKeyDown={(event) => {
          const first = search.matches?.[0];
          if (event.key !== 'Enter' || !first) return;
          event.preventDefault();
          open(first);
          requestComposerFocus();
        }}
      />
      {error ?? search.error ? <p role="alert">{error ?? search.error}</p> : null}
      <div className="conversations-list" ref={list}>
        {groupByDate(shown, new Date()).map(({ group, conversations: inGroup }) => (
          <section key={group} className="conversation-group" aria-label={group}>
            <h3 className="conversation-group-title">{group}</h3>
            <ul className="conversation-group-list">
              {inGroup.map((conversation) => (
                <ConversationItem
                  key={conversation.id}
                  conversation={conversation}
                  search={search.matches ? query : ''}
                  selected={conversation.id === selectedId}
                  onOpen={() => open(conversation)}
                  onRename={async (title) => void (await act(() => api.renameConversation({ conversationId: conversation.id, title })))}
                  onDelete={() => remove(conversation)}
                />
              ))}
            </ul>
          </section>
        ))}
      </div>
      {search.matches && search.matches.length === 0 ? (
        <p className="muted" role="status">
          No conversations match “{query.trim()}”.
        </p>
      ) : null}
    </nav>
  );
}

/**
 * The conversations whose title or messages hold `query`, as the host's history finds them; null while
 * nothing is searched. Asked again whenever the list changes (a new message may match, a renamed one
 * shows its new title).
 */
function useConversationSearch(query: string, conversations: readonly ConversationSummary[]): { matches: ConversationSummary[] | null; error: string | null } {
  const api = useAtriumApi();
  const wanted = query.trim();
  const listVersion = conversations.map((c) => `${c.id} ${c.updatedAt} ${c.title}`).join('\n');
  const { data, error } = useHostQuery(() => (wanted ? api.listConversations({ search: wanted }) : Promise.resolve(null)), `${wanted}\n${listVersion}`);
  return { matches: wanted ? data : null, error: wanted ? error : null };
}
