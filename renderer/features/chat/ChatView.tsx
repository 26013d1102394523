import { useEffect, useRef } from 'react';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Composer } from './Composer.tsx';
import { ConversationList } from './ConversationList.tsx';
import { MessageList } from './MessageList.tsx';
import { ModelPicker } from './ModelPicker.tsx';

/** Conversations on the left; the chosen one, with its messages, tool calls and the composer. */
export function ChatView() {
  const selectedId = useAtriumStore((state) => state.selectedConversationId);
  const detail = useAtriumStore((state) => (state.detail && state.detail.conversation.id === selectedId ? state.detail : null));
  const live = useAtriumStore((state) => (selectedId ? state.live[selectedId] : undefined));
  // The list has the latest title (a rename reloads the list, not the open conversation).
  const listedTitle = useAtriumStore((state) => state.conversations.find((c) => c.id === selectedId)?.title);
  const title = detail ? (listedTitle ?? detail.conversation.title) : 'New conversation';
  const scroller = useRef<HTMLDivElement>(null);

  // Follow the reply as it streams, unless the person scrolled up to read.
  useEffect(() => {
    const element = scroller.current;
    if (!element) return;
    const nearBottom = element.scrollHeight - element.scrollTop - element.clientHeight < 120;
    if (nearBottom) element.scrollTop = element.scrollHeight;
  }, [detail, live]);

  return (
    <div className="chat">
      <ConversationList />
      <section className="conversation-pane" aria-label={detail ? `Conversation: ${title}` : 'New conversation'}>
        <header className="conversation-head">
          <h2>{title}</h2>
          <ModelPicker conversation={detail?.conversation ?? null} />
        </header>
        <div className="conversation-scroll" ref={scroller}>
          {selectedId === null && !live ? (
            <EmptyState title="Start a conversation">The model can use the tools of every ready server; you approve what needs approving.</EmptyState>
          ) : (
            <MessageList detail={detail} live={live} scroller={() => scroller.current} />
          )}
        </div>
        <Composer conversationId={selectedId} busy={live !== undefined} />
      </section>
    </div>
  );
}
