import { memo, useEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { ConversationDetail } from '../../../shared/contract.ts';
import type { LiveTurn } from '../../store/chatSlice.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { MarkdownText } from './MarkdownText.tsx';
import type { SavedToolCall } from './ToolCallCard.tsx';
import { ToolCallCard } from './ToolCallCard.tsx';

type Block = { type: 'text'; text: string } | { type: 'image'; mimeType: string; data: string } | { type: 'tool_use'; id: string; name: string } | { type: 'tool_result' };

interface SavedMessage {
  id: string;
  role: 'user' | 'assistant';
  origin?: { kind: 'prompt'; serverId: string; name: string };
  content: Block[];
  status: string;
  error?: string;
}

type Row = { kind: 'saved'; message: SavedMessage } | { kind: 'live' } | { kind: 'notice'; text: string; index: number };

interface MessageListProps {
  detail: ConversationDetail | null;
  live: LiveTurn | undefined;
  /** The element that scrolls: only the rows in (and near) its view are rendered. */
  scroller: () => HTMLElement | null;
}

/**
 * The saved conversation, then the step streaming now. Virtualised, so a conversation of thousands of
 * messages opens and scrolls at once; a streamed delta re-renders only the live row.
 */
export function MessageList({ detail, live, scroller }: MessageListProps) {
  const messages = useMemo(() => ((detail?.messages ?? []) as unknown as SavedMessage[]).filter(isShown), [detail]);
  const calls = useMemo(() => new Map(((detail?.toolCalls ?? []) as unknown as SavedToolCall[]).map((call) => [call.id, call])), [detail]);
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

  return (
    <ol className="messages" aria-label="Messages" style={{ height: virtualizer.getTotalSize() }}>
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index];
        if (!row) return null;
        const place = { ref: virtualizer.measureElement, 'data-index': item.index, style: { transform: `translateY(${item.start}px)` } };
        if (row.kind === 'saved') return <SavedMessageItem key={item.key} place={place} message={row.message} calls={calls} liveCalls={liveCalls} />;
        if (row.kind === 'notice')
          return (
            <li key={item.key} {...place} className="message-row message-notice muted">
              {row.text}
            </li>
          );
        return <LiveMessageItem key={item.key} place={place} live={live} calls={calls} />;
      })}
    </ol>
  );
}

interface RowPlace {
  ref: (element: Element | null) => void;
  'data-index': number;
  style: { transform: string };
}

function isShown(message: SavedMessage): boolean {
  return message.role === 'assistant' || message.content.some((block) => block.type !== 'tool_result');
}

function LiveMessageItem({ place, live, calls }: { place: RowPlace; live: LiveTurn | undefined; calls: Map<string, SavedToolCall> }) {
  if (!live) return null;
  const unsavedCalls = live.toolCalls.filter((call) => !calls.has(call.callId));
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
const SavedMessageItem = memo(function SavedMessageItem({
  place,
  message,
  calls,
  liveCalls,
}: {
  place: RowPlace;
  message: SavedMessage;
  calls: Map<string, SavedToolCall>;
  liveCalls: Map<string, NonNullable<LiveTurn['toolCalls']>[number]>;
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
        if (block.type === 'text') return message.role === 'assistant' ? <MarkdownText key={index} text={block.text} /> : <p key={index} className="message-text">{block.text}</p>;
        if (block.type === 'image') return <img key={index} className="message-image" alt={message.role === 'assistant' ? 'Image the model generated' : 'Attached image'} src={`data:${block.mimeType};base64,${block.data}`} />;
        if (block.type === 'tool_use') {
          const saved = calls.get(block.id);
          const live = liveCalls.get(block.id);
          return <ToolCallCard key={block.id} {...(saved ? { saved } : {})} {...(live ? { live } : {})} />;
        }
        return null;
      })}
      {message.status === 'incomplete' ? <p className="muted">(stopped before it finished)</p> : null}
      {message.status === 'error' ? (
        <p className="message-error" role="alert">
          The reply failed{message.error ? `: ${message.error}` : ''}.
        </p>
      ) : null}
      </div>
    </li>
  );
});
