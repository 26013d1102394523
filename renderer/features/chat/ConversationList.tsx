import { useMemo, useState } from 'react';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';

/** The person's conversations, newest first: start a new one, pick, search, rename, delete. */
export function ConversationList() {
  const api = useAtriumApi();
  const conversations = useAtriumStore((state) => state.conversations);
  const selectedId = useAtriumStore((state) => state.selectedConversationId);
  const select = useAtriumStore((state) => state.selectConversation);
  const setConversations = useAtriumStore((state) => state.setConversations);
  const [query, setQuery] = useState('');
  const [error, setError] = useState<string | null>(null);
  const shown = useMemo(() => {
    const wanted = query.trim().toLowerCase();
    return wanted ? conversations.filter((c) => c.title.toLowerCase().includes(wanted)) : conversations;
  }, [conversations, query]);

  const act = async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
      setConversations(await api.listConversations({}));
    } catch (failure) {
      setError(errorMessage(failure));
    }
  };

  return (
    <nav className="conversations" aria-label="Conversations">
      <button type="button" className="button button-primary conversations-new" onClick={() => select(null)} aria-pressed={selectedId === null}>
        New conversation
      </button>
      <input className="conversations-search" type="search" aria-label="Search conversations" placeholder="Search" value={query} onChange={(event) => setQuery(event.target.value)} />
      {error ? <p role="alert">{error}</p> : null}
      <ul className="conversations-list">
        {shown.map((conversation) => (
          <li key={conversation.id} className={conversation.id === selectedId ? 'conversation conversation-selected' : 'conversation'}>
            <button type="button" className="conversation-open" aria-current={conversation.id === selectedId} onClick={() => select(conversation.id)}>
              {conversation.title || 'Untitled'}
            </button>
            <span className="conversation-actions">
              <button
                type="button"
                className="icon-button"
                aria-label={`Rename ${conversation.title}`}
                onClick={() => {
                  const title = window.prompt('New title', conversation.title)?.trim();
                  if (title) void act(() => api.renameConversation({ conversationId: conversation.id, title }));
                }}
              >
                ✎
              </button>
              <button
                type="button"
                className="icon-button"
                aria-label={`Delete ${conversation.title}`}
                onClick={() => {
                  if (!window.confirm(`Delete “${conversation.title}”? Its messages and tool calls are removed for good.`)) return;
                  if (conversation.id === selectedId) select(null);
                  void act(() => api.deleteConversation({ conversationId: conversation.id }));
                }}
              >
                ✕
              </button>
            </span>
          </li>
        ))}
      </ul>
      {conversations.length > 0 && shown.length === 0 ? <p className="muted">No conversation matches.</p> : null}
    </nav>
  );
}
