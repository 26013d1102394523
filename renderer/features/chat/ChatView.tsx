import { useMemo, useState } from 'react';
import { modelInUse } from '../../../shared/modelInUse.ts';
import { shownText } from '../../../shared/visibleText.ts';
import { conversationKey } from '../../store/chatSlice.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Composer } from './Composer.tsx';
import { ConversationList } from './ConversationList.tsx';
import { MessageList } from './MessageList.tsx';
import { useFollowEnd } from './useFollowEnd.ts';
import { ServersReadiness } from './ServersReadiness.tsx';
import { ConversationExport } from './ConversationExport.tsx';
import { ModelPicker } from './ModelPicker.tsx';
import { ToolsInUse } from './ToolsInUse.tsx';
import { ReplyAnnouncer } from './ReplyAnnouncer.tsx';
import { usePreloadedViews } from './ToolCallCard.tsx';
import { SkillsInUse } from '../../../main/mcp/extensions/skills/window/SkillsInUse.tsx';

/** Conversations on the left; the chosen one, with its messages, tool calls and the composer. */
export function ChatView() {
  const selectedId = useAtriumStore((state) => state.selectedConversationId);
  const detail = useAtriumStore((state) => (state.detail && state.detail.conversation.id === selectedId ? state.detail : null));
  const live = useAtriumStore((state) => (selectedId ? state.live[selectedId] : undefined));
  const key = conversationKey(selectedId);
  // A turn runs from the moment its message is sent until the host says it is done (its `done` event).
  const sending = useAtriumStore((state) => state.sending[key] !== undefined);
  const busy = sending || live !== undefined;
  const picked = useAtriumStore((state) => state.modelChoice[key]);
  const summary = useAtriumStore((state) => state.conversations.find((c) => c.id === selectedId));
  // The store lists the providers again whenever the settings change, so one added in Settings is offered at once.
  const providers = useAtriumStore((state) => state.providers);
  const computed = modelInUse(providers, selectedId ? (summary ?? detail?.conversation ?? null) : null, picked);
  // One object while the answer is the same, so the message rows' memo holds.
  const shown = useMemo(() => computed, [computed?.provider, computed?.model]);
  // The list has the latest title (a rename reloads the list, not the open conversation).
  const listedTitle = useAtriumStore((state) => state.conversations.find((c) => c.id === selectedId)?.title);
  const title = detail ? (listedTitle ?? detail.conversation.title) : 'New conversation';
  // The messages are laid out once the element they scroll in exists, so they are measured against it.
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  // Files dropped anywhere on the conversation go to its message box.
  const [pane, setPane] = useState<HTMLElement | null>(null);
  usePreloadedViews();

  // Follow the reply as it streams, unless the person scrolled up to read, or asked to see a place in the
  // conversation (a tool call's card, the message a search found: MessageList shows it).
  const content = useMemo(() => [detail, live], [detail, live]);
  const place = useAtriumStore((state) => (state.shownPlace?.conversationId === selectedId ? state.shownPlace : null));
  useFollowEnd(scroller, content, place ?? undefined);

  return (
    <div className="chat">
      <ConversationList />
      <section className="conversation-pane" ref={setPane} aria-label={detail ? `Conversation: ${title}` : 'New conversation'}>
        <header className="conversation-head">
          <h2 title={shownText(title)}>{title}</h2>
          <ToolsInUse conversationId={selectedId} />
          <SkillsInUse conversationId={selectedId} />
          <ModelPicker conversationKey={key} providers={providers} shown={shown} />
          {detail ? <ConversationExport conversationId={detail.conversation.id} title={title} /> : null}
        </header>
        <div className="conversation-scroll" ref={setScroller}>
          {selectedId === null && !live ? (
            <EmptyState title="Start a conversation">
              <ServersReadiness />
            </EmptyState>
          ) : (
            scroller && <MessageList detail={detail} live={live} scroller={() => scroller} model={shown} />
          )}
        </div>
        <ReplyAnnouncer conversationId={selectedId} messages={detail?.messages} />
        <Composer conversationId={selectedId} busy={busy} model={shown} dropZone={pane} />
      </section>
    </div>
  );
}
