import { memo } from 'react';
import type { TraceMessage, TraceMessageDetail } from '../../../shared/contract.ts';
import { UNANSWERED_WORDS } from '../../../shared/contract.ts';
import { escapedJson } from '../../../shared/serverText.ts';
import { shownText } from '../../../shared/visibleText.ts';
import { UntrustedText } from '../../ui/UntrustedText.tsx';
import { formatBytes, formatDuration, timeOfDay } from './traceFilter.ts';

/** A message's contents once asked for: loaded, no longer kept by the host, or why it could not be read. */
export type TraceDetailState = { kind: 'loading' } | { kind: 'loaded'; detail: TraceMessageDetail } | { kind: 'gone' } | { kind: 'failed'; error: string };

interface TraceRowProps {
  message: TraceMessage;
  index: number;
  count: number;
  start: number;
  measure(element: HTMLElement | null): void;
  detail: TraceDetailState | undefined;
  /** The trace shows one tool call's messages only. */
  narrowed: boolean;
  onToggle(seq: number): void;
  /** Shows the other half of a request/answer pair. */
  onReveal(seq: number): void;
  /** Narrows the trace to this message's tool call. */
  onShowCall(callId: string): void;
  onOpenConversation(conversationId: string, callId: string): void;
}

const directionWords = { out: 'sent', in: 'received' } as const;

/**
 * One message of a server's trace: when, which way, what (method, the tool or resource it is about), its
 * id, size and, for a request or its answer, how long the answer took. Expanded, its JSON. The method,
 * subject and contents come from the server or name its tools: shown as text, hidden characters visible.
 */
export const TraceRow = memo(function TraceRow({ message, index, count, start, measure, detail, narrowed, onToggle, onReveal, onShowCall, onOpenConversation }: TraceRowProps) {
  const expanded = detail !== undefined;
  const { link } = message;
  const what = message.method ?? (message.kind === 'error' ? 'error' : 'answer');
  return (
    <li
      ref={measure}
      data-index={index}
      aria-setsize={count}
      aria-posinset={index + 1}
      className={`trace-row trace-${message.direction}${message.failed ? ' trace-failed' : ''}${expanded ? ' trace-expanded' : ''}`}
      style={{ transform: `translateY(${start}px)` }}
    >
      <div className="trace-line">
        {/* The text is the name: what the row shows, with the direction in words for a screen reader. Spaces
            between the columns keep the words apart in that name; a grid does not lay them out. */}
        <button type="button" className="trace-summary" aria-expanded={expanded} onClick={() => onToggle(message.seq)}>
          <time className="trace-time" dateTime={new Date(message.at).toISOString()}>
            {timeOfDay(message.at)}
          </time>{' '}
          <span className="trace-dir" title={message.direction === 'out' ? 'Sent to the server' : 'Received from the server'}>
            <span aria-hidden="true">{message.direction === 'out' ? '→' : '←'}</span>
            <span className="visually-hidden">{directionWords[message.direction]}</span>
          </span>{' '}
          <span className="trace-kind">{message.kind}</span>{' '}
          {/* A long method is cut to its column; the tooltip has it whole. */}
          <span className="trace-what" title={shownText(message.subject ? `${what} ${message.subject}` : what)}>
            <UntrustedText className="trace-method" text={what} />
            {message.subject ? (
              <>
                {' '}
                <UntrustedText className="trace-subject" text={message.subject} />
              </>
            ) : null}
          </span>{' '}
          <span className="trace-id">{message.id !== undefined ? `#${String(message.id)}` : ''}</span>{' '}
          <span className="trace-size">{formatBytes(message.bytes)}</span>{' '}
          <span className="trace-duration">{durationColumn(message)}</span>
        </button>
        {/* Always there, so the columns line up whether a message belongs to a tool call or not; its words are
            short so the method keeps the width, and its name says the rest. */}
        <span className="trace-link">
          {link?.conversationId !== undefined ? (
            <button type="button" className="link-button" aria-label="Tool call in chat" onClick={() => onOpenConversation(link.conversationId as string, link.callId)}>
              In chat
            </button>
          ) : link ? (
            <button type="button" className="link-button" aria-label="This call only" onClick={() => onShowCall(link.callId)}>
              This call
            </button>
          ) : null}
        </span>
      </div>
      {detail ? <TraceDetailView message={message} state={detail} narrowed={narrowed} onReveal={onReveal} onShowCall={onShowCall} /> : null}
    </li>
  );
});

interface TraceDetailProps {
  message: TraceMessage;
  state: TraceDetailState;
  /** The trace shows this message's call only already. */
  narrowed: boolean;
  onReveal(seq: number): void;
  onShowCall(callId: string): void;
}

function TraceDetailView({ message, state, narrowed, onReveal, onShowCall }: TraceDetailProps) {
  const answer = message.kind === 'result' || message.kind === 'error';
  return (
    <div className="trace-detail">
      <p className="trace-facts">
        {message.direction === 'out' ? 'Sent to the server' : 'Received from the server'} at {timeOfDay(message.at)} · {message.bytes.toLocaleString('en')} bytes
        {message.pairSeq !== undefined ? (
          <>
            {' · '}
            {answer ? `the answer ${message.durationMs !== undefined ? `after ${formatDuration(message.durationMs)}` : ''} to ` : `answered ${message.durationMs !== undefined ? `after ${formatDuration(message.durationMs)}` : ''} by `}
            <button type="button" className="link-button" onClick={() => onReveal(message.pairSeq as number)}>
              {answer ? 'its request' : 'its answer'}
            </button>
          </>
        ) : message.unanswered ? (
          ` · ${UNANSWERED_WORDS[message.unanswered].short} after ${formatDuration(message.durationMs ?? 0)}: ${UNANSWERED_WORDS[message.unanswered].why}`
        ) : message.kind === 'request' ? (
          ' · no answer yet'
        ) : null}
        {message.link && !narrowed ? (
          <>
            {' · '}
            <button type="button" className="link-button" onClick={() => onShowCall(message.link?.callId as string)}>
              every message of this tool call
            </button>
          </>
        ) : null}
      </p>
      {state.kind === 'loading' ? <p className="muted">Loading…</p> : null}
      {state.kind === 'gone' ? <p className="muted">Its contents are no longer kept: newer messages took its place.</p> : null}
      {state.kind === 'failed' ? <p role="alert">{state.error}</p> : null}
      {state.kind === 'loaded' ? (
        <>
          {state.detail.truncated ? <p className="muted">Cut to fit: long texts and lists are shortened where marked. Secrets are shown as [redacted].</p> : null}
          {/* Hidden and control characters shown as escapes, not removed: the text reads as the server sent it. */}
          <pre className="code-block trace-json">{escapedJson(state.detail.json, 2)}</pre>
        </>
      ) : null}
    </div>
  );
}

/** How long a request took, or that it waits, or that it will get no answer. */
function durationColumn(message: TraceMessage): string {
  if (message.unanswered) return UNANSWERED_WORDS[message.unanswered].short;
  if (message.durationMs !== undefined) return formatDuration(message.durationMs);
  return message.kind === 'request' ? 'waiting' : '';
}
