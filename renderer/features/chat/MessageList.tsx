import { memo, useCallback, useEffect, useMemo, useRef } from 'react';
import type { ReactElement } from 'react';
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import type { Range } from '@tanstack/react-virtual';
import type { ConversationDetail } from '../../../shared/contract.ts';
import type { ConversationNote, StoredMessage, ToolCallRecord } from '../../../shared/conversation.ts';
import { UNFINISHED_REPLY } from '../../../shared/conversation.ts';
import type { ModelInUse } from '../../../shared/modelInUse.ts';
import type { ConversationPlace, LiveToolCall, LiveTurn } from '../../store/chatSlice.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { MarkdownText, prepareMarkdown } from '../../ui/MarkdownText.tsx';
import { ToolCallCard } from './ToolCallCard.tsx';
import { MessageActions, RetryRoom } from './MessageActions.tsx';
import { answeredTaskResults, isShown, joinedTurn, lastPersonMessageId, refusalsOf } from './conversationRows.ts';
import { replacedByEdit } from '../../../shared/replacedMessages.ts';
import { ConversationNoteLine, withNotes } from './ConversationNoteLine.tsx';
import { hostToolSentence } from '../../../shared/hostTools.ts';
import { searchMatches } from '../../../shared/searchMatch.ts';
import { asSentence } from '../../../shared/sentence.ts';
import { attachedPart } from '../../../shared/attachedContent.ts';
import { AttachedPart } from './AttachedPart.tsx';
import { HostToolNote } from './HostToolNote.tsx';
import { TaskResultNote } from '../../../main/mcp/extensions/tasks/window/TaskResultNote.tsx';

type Row = { kind: 'saved'; message: StoredMessage } | { kind: 'live' } | { kind: 'notice'; text: string; index: number } | { kind: 'note'; note: ConversationNote };

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
export function MessageList({ detail, live: heard, scroller, model }: MessageListProps) {
  const messages = useMemo(() => (detail?.messages ?? []).filter(isShown), [detail]);
  const lastOfYoursId = useMemo(() => lastPersonMessageId(messages), [messages]);
  const editedAway = useMemo(() => replacedByEdit(messages), [messages]);
  // A turn this window joined midway (it was reloaded) continues the saved reply it streams into.
  const live = useMemo(() => joinedTurn(heard, messages), [heard, messages]);
  const calls = useMemo(() => new Map((detail?.toolCalls ?? []).map((call) => [call.id, call])), [detail]);
  // From every saved message: tool results are the person's side of the exchange, but no row of theirs.
  const refusals = useMemo(() => refusalsOf(detail?.messages ?? []), [detail]);
  const answeredTasks = useMemo(() => answeredTaskResults(messages), [messages]);
  // A call a saved reply already shows (its tool_use block) is not shown again in the live row. The reply
  // being written is shown by the live row, not as saved, even once saved: its calls are the live row's.
  const shownCalls = useMemo(
    () => new Set(messages.filter((m) => m.id !== live?.messageId).flatMap((m) => m.content.flatMap((b) => (b.type === 'tool_use' ? [b.id] : [])))),
    [messages, live?.messageId],
  );
  const liveToolCalls = live?.toolCalls;
  const liveCalls = useMemo(() => new Map((liveToolCalls ?? []).map((call) => [call.callId, call])), [liveToolCalls]);
  // A step's calls, by the reply that made them: a reply just saved shows its calls in its own row even
  // before the reloaded conversation has them, so their cards (and views) never move to another row.
  const liveCallsOf = useMemo(() => {
    const byMessage = new Map<string, LiveToolCall[]>();
    for (const call of liveToolCalls ?? []) if (call.messageId !== undefined) byMessage.set(call.messageId, [...(byMessage.get(call.messageId) ?? []), call]);
    return byMessage;
  }, [liveToolCalls]);
  // A call a saved reply shows gives the live row nothing of its own to show (a window that joined midway hears its progress).
  const showLive = live !== undefined && (live.text !== '' || live.images.length > 0 || live.toolCalls.some((call) => !shownCalls.has(call.callId)) || live.messageId !== undefined);
  const notes = detail?.notes;
  const rows = useMemo<Row[]>(
    () => [
      // Atrium's saved lines (a tool withheld) go where they happened, between the messages.
      ...withNotes<StoredMessage, Row>(
        messages.filter((message) => message.id !== live?.messageId),
        notes ?? [],
        { message: (message) => ({ kind: 'saved', message }), note: (note) => ({ kind: 'note', note }) },
      ),
      ...(showLive ? [{ kind: 'live' } as const] : []),
      ...(live?.notices ?? []).map((text, index): Row => ({ kind: 'notice', text, index })),
    ],
    [messages, notes, live?.messageId, live?.notices, showLive],
  );
  // A view shown picture-in-picture floats over the list: its message's row stays mounted wherever the
  // person scrolls, or the view would be torn down with it.
  const floatingMessageId = useAtriumStore((state) => state.floatingView?.messageId);
  const floatingIndex = useMemo(() => (floatingMessageId === undefined ? -1 : rows.findIndex((row) => row.kind === 'saved' && row.message.id === floatingMessageId)), [rows, floatingMessageId]);
  const rangeExtractor = useCallback(
    (range: Range) => {
      const indexes = defaultRangeExtractor(range);
      return floatingIndex < 0 || indexes.includes(floatingIndex) ? indexes : [...indexes, floatingIndex].sort((a, b) => a - b);
    },
    [floatingIndex],
  );
  const virtualizer = useVirtualizer({
    count: rows.length,
    rangeExtractor,
    getScrollElement: scroller,
    // Measured now, so the first render already has rows: a list mounted with its messages (back from
    // another view) is otherwise laid out against a zero-height view and shows nothing until it changes.
    initialRect: viewportOf(scroller()),
    estimateSize: () => 90,
    overscan: 6,
    // Rows are placed (their top) and the list sized by the virtualizer itself, straight on the elements:
    // a row measured on scrolling in moves the rows after it without a render of the list, which was most
    // of a fast scroll's frame. The list renders when the range of rows shown changes.
    directDomUpdates: true,
    directDomUpdatesMode: 'position',
    // The reply being written has its message's key, as it will once saved: its row (and the views in its
    // tool calls) carry on rather than being made again when the step ends.
    getItemKey: (index) => {
      const row = rows[index];
      return row?.kind === 'saved' ? row.message.id : row?.kind === 'notice' ? `notice-${row.index}` : row?.kind === 'note' ? `note-${row.note.id}` : (live?.messageId ?? 'live');
    },
  });

  // The replies within a few screens of what is shown get their Markdown made in idle moments, so
  // scrolling to them mounts rows without parsing in the frame that shows them.
  const shown = virtualizer.getVirtualItems();
  const firstShown = shown[0]?.index ?? 0;
  const lastShown = shown.at(-1)?.index ?? 0;
  useEffect(() => {
    const texts: string[] = [];
    for (let index = Math.max(0, firstShown - PREPARED_AROUND); index <= Math.min(rows.length - 1, lastShown + PREPARED_AROUND); index++) {
      const row = rows[index];
      if (row?.kind !== 'saved' || row.message.role !== 'assistant') continue;
      for (const block of row.message.content) if (block.type === 'text') texts.push(block.text);
    }
    return prepareMarkdown(texts);
  }, [rows, firstShown, lastShown]);

  // A conversation opens at its latest message.
  const conversationId = detail?.conversation.id;
  const opened = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!conversationId || opened.current === conversationId || rows.length === 0) return;
    opened.current = conversationId;
    virtualizer.scrollToIndex(rows.length - 1, { align: 'end' });
  }, [conversationId, rows.length, virtualizer]);

  // A place the person asked to see is scrolled to, once: a tool call's card (from its messages in a
  // server's trace), or the first message holding the words of the search the conversation was opened
  // from, marked; the latest message is a scroll away.
  const place = useAtriumStore((state) => (state.shownPlace?.conversationId === conversationId ? state.shownPlace : null));
  const placeIndex = useMemo(() => (place ? rows.findIndex((row) => row.kind === 'saved' && isAt(row.message, place)) : -1), [place, rows]);
  const foundIndex = place && 'search' in place ? placeIndex : -1;
  const scrolledToPlace = useRef<typeof place>(null);
  useEffect(() => {
    if (!place || placeIndex < 0 || scrolledToPlace.current === place) return;
    scrolledToPlace.current = place;
    virtualizer.scrollToIndex(placeIndex, { align: 'center' });
  }, [place, placeIndex, virtualizer]);

  // A turn the person just started is followed from wherever they were reading.
  // Only when a turn starts: while it runs, ChatView follows the reply as long as the person stays at the end.
  const turnRunning = live !== undefined;
  const rowCount = useRef(rows.length);
  rowCount.current = rows.length;
  useEffect(() => {
    if (turnRunning && rowCount.current > 0) virtualizer.scrollToIndex(rowCount.current - 1, { align: 'end' });
  }, [turnRunning, virtualizer]);

  return (
    <ol ref={virtualizer.containerRef} className="messages" aria-label="Messages">
      {virtualizer.getVirtualItems().map((item) => {
        const row = rows[item.index];
        if (!row) return null;
        // A row gets only what names it (its index); the virtualizer places it, so a row keeps its memo
        // while the list re-renders at every scroll frame, wherever it moved.
        const at = { measure: virtualizer.measureElement, index: item.index };
        if (row.kind === 'saved') {
          const last = row.message.id === messages.at(-1)?.id;
          return (
            <MessageItem
              key={item.key}
              {...at}
              message={row.message}
              calls={calls}
              refusals={refusals}
              taskAnswered={answeredTasks.has(row.message.id)}
              liveCalls={liveCalls}
              callsItMade={liveCallsOf.get(row.message.id)}
              last={last}
              lastOfYours={row.message.id === lastOfYoursId}
              replacedByEdit={editedAway.has(row.message.id)}
              retryModel={last ? model : null}
              found={item.index === foundIndex}
            />
          );
        }
        if (row.kind === 'note')
          return (
            <li key={item.key} {...rowPlace(at)} className="message-row message-notice">
              <ConversationNoteLine note={row.note} />
            </li>
          );
        if (row.kind === 'notice')
          return (
            <li key={item.key} {...rowPlace(at)} className="message-row message-notice muted">
              {row.text}
            </li>
          );
        return <MessageItem key={item.key} {...at} live={live} shownCalls={shownCalls} calls={calls} conversationId={conversationId} />;
      })}
    </ol>
  );
}


/** How many rows on each side of those shown have their Markdown made ahead (a few screens). */
const PREPARED_AROUND = 30;

/** Which row of the list an element is: the virtualizer measures it and places it by its index. */
interface RowAt {
  measure: (element: Element | null) => void;
  index: number;
}

/**
 * The row element's attributes for the virtualizer. It places the row by its `top`, not a transform, so a
 * view out of the flow in it (full screen, picture-in-picture) is placed on the window: a transformed row
 * would hold it captive.
 */
function rowPlace({ measure, index }: RowAt) {
  return { ref: measure, 'data-index': index };
}

function viewportOf(element: HTMLElement | null): { width: number; height: number } {
  return element ? { width: element.clientWidth, height: element.clientHeight } : { width: 0, height: 0 };
}

/** Whether `message` is the place asked for: it made the tool call, or its text holds the words searched. */
function isAt(message: StoredMessage, place: ConversationPlace): boolean {
  if ('callId' in place) return message.content.some((block) => block.type === 'tool_use' && block.id === place.callId);
  return message.content.some((block) => block.type === 'text' && searchMatches(block.text, place.search).length > 0);
}


type MessageItemProps =
  | (RowAt & {
      /** A saved message; the calls it made, saved and (while its turn runs) live. */
      message: StoredMessage;
      calls: Map<string, ToolCallRecord>;
      liveCalls: Map<string, LiveToolCall>;
      /** The live calls this reply made, shown here too while the saved message does not have them yet. */
      callsItMade: LiveToolCall[] | undefined;
      /** Whether this is the conversation's last message, the one that offers Retry. */
      last: boolean;
      /** Whether this is the person's last message, the one an edit replaces. */
      lastOfYours: boolean;
      /** A replaced message that an edit of the person's message replaced (not Retry). */
      replacedByEdit: boolean;
      /** Given to the conversation's last message only, so the others keep their memo when the picker changes. */
      retryModel: ModelInUse | null;
      /** The first message holding the words of the search the conversation was opened from. */
      found: boolean;
      /** Why a call of one of Atrium's own tools was not done, by the call's id. */
      refusals: ReadonlyMap<string, string>;
      /** A task's result that the model has answered since it came in. */
      taskAnswered: boolean;
      live?: undefined;
    })
  | (RowAt & {
      /** The reply being written, and the calls a saved message already shows (not shown again). */
      live: LiveTurn | undefined;
      shownCalls: Set<string>;
      calls: Map<string, ToolCallRecord>;
      conversationId: string | undefined;
      message?: undefined;
    });

/**
 * One row: a saved message, or the reply being written. One component for both, with the same elements
 * and each tool call keyed by its id, so a reply that is saved keeps its tool-call cards (and their views)
 * rather than making them again. A saved message re-renders only when it, or a call it made, changes.
 */
const MessageItem = memo(function MessageItem(props: MessageItemProps) {
  const place = rowPlace(props);
  // Both kinds give one flat list of keyed elements: React matches a call's card by its key only among
  // siblings of the same list.
  const items: ReactElement[] = [];
  if (props.message === undefined) {
    const { live, shownCalls, calls, conversationId } = props;
    if (!live) return null;
    // This step's calls; an earlier step's are in that step's own row.
    const unsavedCalls = live.toolCalls.filter((call) => !shownCalls.has(call.callId) && (call.messageId === undefined || call.messageId === live.messageId));
    if (live.text) items.push(<MarkdownText key="text" text={live.text} />);
    else if (unsavedCalls.length === 0) items.push(<p key="typing" className="muted typing">Thinking…</p>);
    live.images.forEach((image, index) => items.push(<img key={`image-${index}`} className="message-image" alt="Image the model generated" src={`data:${image.mimeType};base64,${image.data}`} />));
    for (const call of unsavedCalls) {
      const saved = calls.get(call.callId);
      items.push(<ToolCallCard key={call.callId} live={call} {...(saved ? { saved } : {})} {...(conversationId ? { conversationId } : {})} {...(live.messageId ? { messageId: live.messageId } : {})} />);
    }
    items.push(<RetryRoom key="actions" />);
    return (
      <li {...place} className="message-row message-row-assistant" aria-label="Assistant (replying)" aria-busy="true">
        <div className="message message-assistant">{items}</div>
      </li>
    );
  }
  const { message, calls, refusals, taskAnswered, liveCalls, callsItMade, last, lastOfYours, replacedByEdit, retryModel, found } = props;
  if (message.origin?.kind === 'task') items.push(<TaskResultNote key="origin" origin={message.origin} answered={taskAnswered} />);
  else if (message.origin) {
    items.push(
      <span key="origin" className="chip message-origin">
        {message.origin.kind === 'skill' ? 'with skill ' : 'from prompt /'}
        <UntrustedText text={message.origin.name} /> · <UntrustedText text={message.origin.serverId} />
      </span>,
    );
  }
  message.content.forEach((block, index) => {
    // A task's result opens with Atrium's sentence for the model (the call and task by their ids): its note says it for the person.
    if (index === 0 && block.type === 'text' && message.origin?.kind === 'task') return;
    const attached = block.type === 'text' && message.role === 'user' && index > 0 ? attachedPart(block.text) : undefined;
    if (attached) items.push(<AttachedPart key={`text-${index}`} {...attached} />);
    else if (block.type === 'text') items.push(message.role === 'assistant' ? <MarkdownText key={index === 0 ? 'text' : `text-${index}`} text={block.text} /> : <p key={`text-${index}`} className="message-text"><UntrustedText text={block.text} /></p>);
    else if (block.type === 'image') items.push(<img key={`image-${index}`} className="message-image" alt={message.role === 'assistant' ? 'Image the model generated' : 'Attached image'} src={`data:${block.mimeType};base64,${block.data}`} />);
    else if (block.type === 'tool_use') {
      const saved = calls.get(block.id);
      const live = liveCalls.get(block.id);
      // Atrium's own tools (the tool search, the reader of kept results) are no server's call: said in a line.
      const ownWork = saved || live ? undefined : hostToolSentence(block.name, block.input);
      if (ownWork !== undefined) {
        items.push(<HostToolNote key={block.id} sentence={ownWork} refused={refusals.get(block.id)} />);
        return;
      }
      items.push(<ToolCallCard key={block.id} {...(saved ? { saved } : {})} {...(live ? { live } : {})} conversationId={message.conversationId} messageId={message.id} />);
    }
  });
  // Only a reply of the turn running has live calls to add: other rows skip this.
  const inContent = callsItMade ? new Set(message.content.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []))) : undefined;
  for (const call of callsItMade ?? []) {
    if (inContent?.has(call.callId)) continue;
    const saved = calls.get(call.callId);
    items.push(<ToolCallCard key={call.callId} live={call} {...(saved ? { saved } : {})} conversationId={message.conversationId} messageId={message.id} />);
  }
  const replaced = message.replacedAt !== undefined;
  if (message.status === 'incomplete') {
    items.push(
      <p key="stopped" className="message-stopped">
        <span aria-hidden="true">■ </span>
        {UNFINISHED_REPLY}
      </p>,
    );
  }
  if (message.status === 'error') {
    items.push(
      <p key="error" className="message-error" role={replaced ? undefined : 'alert'}>
        {message.error ? `The reply failed: ${asSentence(message.error, { capital: false })}` : 'The reply failed.'}
      </p>,
    );
  }
  // After what went wrong, so Retry reads as the answer to it.
  if (!replaced) items.push(<MessageActions key="actions" message={message} last={last} lastOfYours={lastOfYours} model={retryModel} />);
  if (replaced && message.role === 'user') {
    // The person's message before they edited it: kept, folded, for them to read; the model no longer gets it.
    return (
      <li {...place} className="message-row message-row-user message-replaced" aria-label="You (before your edit)">
        <details className="message message-user">
          <summary className="muted">Your message before you edited it</summary>
          {items}
        </details>
      </li>
    );
  }
  if (replaced) {
    // A reply Retry (or an edit) replaced is kept, folded, for the person to read; the model no longer gets it.
    const by = replacedByEdit ? 'your edit' : 'Retry';
    return (
      <li {...place} className="message-row message-row-assistant message-replaced" aria-label={`Assistant (replaced by ${by})`}>
        <details className="message message-assistant">
          <summary className="muted">
            {message.status === 'error' ? 'A reply that failed' : message.status === 'incomplete' ? 'A reply that was stopped' : 'An earlier reply'}, replaced by {by}
          </summary>
          {items}
        </details>
      </li>
    );
  }
  return (
    <li
      {...place}
      className={`message-row message-row-${message.origin?.kind === 'task' ? 'task' : message.role}${found ? ' message-found' : ''}`}
      aria-label={found ? `${rowLabel(message)}, found by your search` : rowLabel(message)}
    >
      <div className={`message message-${message.origin?.kind === 'task' ? 'task' : message.role}`}>{items}</div>
    </li>
  );
});

/** Who a row is from: the person, a server's prompt in their name, a task's result that came in, the model. */
function rowLabel(message: StoredMessage): string {
  if (message.role === 'assistant') return 'Assistant';
  if (message.origin?.kind === 'task') return `Task result from ${message.origin.serverId}/${message.origin.tool}`;
  return message.origin ? `You, ${message.origin.kind === 'skill' ? 'with skill' : 'from prompt'} ${message.origin.name}` : 'You';
}
