import { memo, useEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ConversationDetail } from '../../../shared/contract.ts';
import type { StoredMessage, ToolCallRecord } from '../../../shared/conversation.ts';
import type { ModelInUse } from '../../../shared/modelInUse.ts';
import type { LiveTurn } from '../../store/chatSlice.ts';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { MarkdownText } from '../../ui/MarkdownText.tsx';
import { ToolCallCard } from './ToolCallCard.tsx';

type Row = { kind: 'saved'; message: StoredMessage } | { kind: 'live' } | { kind: 'notice'; text: string; index: number };

interface MessageListProps {
  detail: ConversationDetail | null;
  live: LiveTurn | undefined;
  /** The element that scrolls, already in the page: only the rows in (and near) its view are rendered. */
  scroller: () => HTMLElement | null;
  /** The model the picker shows: Retry sends to it, as the message box does. */
  model: ModelInUse | null;
}

/**
 * The saved conversation, then the step streaming now. Virtualised, so a conversation of thousands of
 * messages opens and scrolls at once; a streamed delta re-renders only the live row.
 */
export function MessageList({ detail, live, scroller, model }: MessageListProps) {
  const messages = useMemo(() => (detail?.messages ?? []).filter(isShown), [detail]);
  const calls = useMemo(() => new Map((detail?.toolCalls ?? []).map((call) => [call.id, call])), [detail]);
  // A call a saved reply already shows (its tool_use block) is not shown again in the live row. The reply
  // being written is shown by the live row, not as saved, even once saved: its calls are the live row's.
  const shownCalls = useMemo(
    () => new Set(messages.filter((m) => m.id !== live?.messageId).flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])))),
    [messages, live?.messageId],
  );
  const liveToolCalls = live?.toolCalls;
  const liveCalls = useMemo(() => new Map((liveToolCalls ?? []).map((call) => [call.callId, call])), [liveToolCalls]);
  const showLive = live !== undefined && (live.text !== '' || live.images.length > 0 || live.toolCalls.length > 0 || live.messageId !== undefined);
  const rows = useMemo<Row[]>(
    () => [
      ...messages.filter((message) => message.id !== live?.messageId).map((message): Row => ({ kind: 'saved', message })),
      ...(showLive ? [{ kind: 'live' } as const] : []),
      ...(live?.notices ?? []).map((text, index): Row => ({ kind: 'notice', text, index })),
    ],
    [messages, live?.messageId, live?.notices, showLive],
  );
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: scroller,
    // Measured now, so the first render already has rows: a list mounted with its messages (back from
    // another view) is otherwise laid out against a zero-height view and shows nothing until it changes.
    initialRect: viewportOf(scroller()),
    estimateSize: () => 90,
    overscan: 6,
    getItemKey: (index) => {
      const row = rows[index];
      return row?.kind === 'saved' ? row.message.id : row?.kind === 'notice' ? `notice-${row.index}` : 'live';
    },
  });

  // A conversation opens at its latest message.
  const conversationId = detail?.conversation.id;
  const opened = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!conversationId || opened.current === conversationId || rows.length === 0) return;
    opened.current = conversationId;
    virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [conversationId, rows.length, virtualizer]);

  // A turn the person just started is followed from wherever they were reading.
  // Only when a turn starts: while it runs, ChatView follows the reply as long as the person stays at the end.
  const turnRunning = live !== undefined;
  const rowCount = useRef(rows.length);
  rowCount.current = rows.length;
  useEffect(() => {
    if (turnRunning && rowCount.current > 0) virtualizer.scrollToIndex(rowCount.current - 1, { align: 'end' });
  }, [turnRunning, virtualizer]);

  return (
    <ol className="messages" aria-label="Messages" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index];
        if (!row) return null;
        const place = { ref: virtualizer.measureElement, 'data-index': item.index, style: { transform: `translateY(${item.start}px)` } };
        if (row.kind === 'saved') return <StoredMessageItem key={item.key} place={place} message={row.message} calls={calls} liveCalls={liveCalls} retryModel={row.message.id === messages.at(-1)?.id ? model : null} />;
        if (row.kind === 'notice')
          return (
            <li key={item.key} {...place} className="message-row message-notice muted">
              {row.text}
            </li>
          );
        return <LiveMessageItem key={item.key} place={place} live={live} shownCalls={shownCalls} />;
      })}
    </ol>
  );
}

interface RowPlace {
  ref: (element: Element | null) => void;
  'data-index': number;
  style: { transform: string };
}

function viewportOf(element: HTMLElement | null): { width: number; height: number } {
  return element ? { width: element.clientWidth, height: element.clientHeight } : { width: 0, height: 0 };
}

function isShown(message: StoredMessage): boolean {
  return message.role === 'assistant' || message.content.some((block) => block.type !== 'tool_result');
}

function LiveMessageItem({ place, live, shownCalls }: { place: RowPlace; live: LiveTurn | undefined; shownCalls: Set<string> }) {
  if (!live) return null;
  const unsavedCalls = live.toolCalls.filter((call) => !shownCalls.has(call.callId));
  return (
    <li {...place} className="message-row message-row-assistant" aria-label="Assistant (replying)" aria-busy="true">
      <div className="message message-assistant">
        {live.text ? <MarkdownText text={live.text} /> : unsavedCalls.length === 0 ? <p className="muted typing">Thinking…</p> : null}
        {live.images.map((image, index) => (
          <img key={index} className="message-image" alt="Image the model generated" src={`data:${image.mimeType};base64,${image.data}`} />
        ))}
        {unsavedCalls.map((call) => (
          <ToolCallCard key={call.callId} live={call} />
        ))}
      </div>
    </li>
  );
}

/** A saved message re-renders only when it, or a call it made, changes. */
const StoredMessageItem = memo(function StoredMessageItem({
  place,
  message,
  calls,
  liveCalls,
  retryModel,
}: {
  place: RowPlace;
  message: StoredMessage;
  calls: Map<string, ToolCallRecord>;
  liveCalls: Map<string, NonNullable<LiveTurn['toolCalls']>[number]>;
  /** Given to the conversation's last message only, so the others keep their memo when the picker changes. */
  retryModel: ModelInUse | null;
}) {
  const visibleBlocks = message.content.filter((block) => block.type !== 'tool_result');
  return (
    <li {...place} className={`message-row message-row-${message.role}`} aria-label={message.role === 'user' ? (message.origin ? `You, from prompt ${message.origin.name}` : 'You') : 'Assistant'}>
      <div className={`message message-${message.role}`}>
      {message.origin ? (
        <span className="chip message-origin">
          from prompt /<UntrustedText text={message.origin.name} /> · <UntrustedText text={message.origin.serverId} />
        </span>
      ) : null}
      {visibleBlocks.map((block, index) => {
        if (block.type === 'text') return message.role === 'assistant' ? <MarkdownText key={index} text={block.text} /> : <p key={index} className="message-text"><UntrustedText text={block.text} /></p>;
        if (block.type === 'image') return <img key={index} className="message-image" alt={message.role === 'assistant' ? 'Image the model generated' : 'Attached image'} src={`data:${block.mimeType};base64,${block.data}`} />;
        if (block.type === 'tool_use') {
          const saved = calls.get(block.id);
          const live = liveCalls.get(block.id);
          return <ToolCallCard key={block.id} {...(saved ? { saved } : {})} {...(live ? { live } : {})} />;
        }
        return null;
      })}
      {message.status === 'incomplete' ? (
        <p className="message-stopped">
          <span aria-hidden="true">■ </span>Stopped before it finished
        </p>
      ) : null}
      <MessageActions message={message} model={retryModel} />
      {message.status === 'error' ? (
        <p className="message-error" role="alert">
          {message.error ? `The reply failed: ${asSentence(message.error)}` : 'The reply failed.'}
        </p>
      ) : null}
      </div>
    </li>
  );
});

/** Edit puts a sent message back in the composer; Retry sends the person's last words again as a new turn. */
function MessageActions({ message, model }: { message: StoredMessage; model: ModelInUse | null }) {
  const api = useAtriumApi();
  const setDraft = useAtriumStore((state) => state.setDraft);
  const conversationId = useAtriumStore((state) => state.selectedConversationId);
  const busy = useAtriumStore((state) => (conversationId ? state.live[conversationId] !== undefined || state.sending[conversationId] === true : false));
  // Only the conversation's last reply offers Retry; the others skip the search for the words to resend.
  const lastUserText = useAtriumStore((state) => {
    const saved = state.detail?.messages;
    return saved?.at(-1)?.id === message.id ? lastTypedText(saved) : undefined;
  });
  const setSendError = useAtriumStore((state) => state.setSendError);
  const setSending = useAtriumStore((state) => state.setSending);
  // A Retry that cannot start says why under the message box, where a failed send says it.
  const retry = (id: string, words: string) => {
    setSendError(id, null);
    setSending(id, true);
    api
      .sendMessage({ conversationId: id, text: words, ...(model ?? {}) })
      .catch((failure: unknown) => setSendError(id, errorMessage(failure)))
      .finally(() => setSending(id, false));
  };
  const text = message.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
  if (message.role === 'user') {
    if (message.origin || !text) return null;
    return (
      <div className="message-actions">
        <button type="button" className="icon-button" aria-label="Edit and send again" onClick={() => setDraft(text)}>
          Edit
        </button>
      </div>
    );
  }
  if (!conversationId || lastUserText === undefined) return null;
  return (
    <div className="message-actions">
      <button type="button" className="icon-button" aria-label="Retry" disabled={busy} onClick={() => retry(conversationId, lastUserText)}>
        Retry
      </button>
    </div>
  );
}

/** The host's error sentences usually end with their own full stop; one is added only where missing. */
function asSentence(text: string): string {
  return /[.!?…]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

function lastTypedText(messages: readonly StoredMessage[]): string | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i];
    if (m?.role === 'user' && !m.origin && m.content.some((b) => b.type === 'text')) return m.content.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
  }
  return undefined;
}
