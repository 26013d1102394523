import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { TraceMessage } from '../../../shared/contract.ts';
import type { ServerSnapshot } from '../../../shared/domain.ts';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { TraceFilterBar } from './TraceFilterBar.tsx';
import { TraceRow } from './TraceRow.tsx';
import type { TraceDetailState } from './TraceRow.tsx';
import { exportFileName, filterTrace, formatBytes, isFilteringTrace, messageCount, showWholeTrace } from './traceFilter.ts';
import type { TraceFilter } from './traceFilter.ts';
import { saveAsFile } from '../../ui/saveAsFile.ts';

const noMessages: TraceMessage[] = [];
/** How long after Atrium scrolls the list a scroll event is its own, not the person's. */
const OWN_SCROLL_MS = 250;

/**
 * Every JSON-RPC message between Atrium and the server, newest last, as the host's trace keeps them: filtered
 * by direction, method, text and tool call; each opens to its JSON; a request and its answer lead to each
 * other; Follow stays at the end as messages come; Export saves what is shown as JSON Lines.
 */
export function ServerTracePanel({ server }: { server: ServerSnapshot }) {
  // Another server's trace starts afresh: its own filters, nothing opened.
  return <TraceView key={server.id} server={server} />;
}

function TraceView({ server }: { server: ServerSnapshot }) {
  const api = useAtriumApi();
  const headingId = useId();
  const trace = useAtriumStore((state) => (state.trace?.serverId === server.id ? state.trace : null));
  const traceCall = useAtriumStore((state) => (state.traceCall?.serverId === server.id ? state.traceCall.callId : null));
  const showServerTrace = useAtriumStore((state) => state.showServerTrace);
  const showWholeTraceOf = useAtriumStore((state) => state.showWholeTrace);
  const showToolCall = useAtriumStore((state) => state.showToolCall);
  const messages = trace?.messages ?? noMessages;
  const [filterState, setFilter] = useState<Omit<TraceFilter, 'callId'>>(showWholeTrace);
  const filter: TraceFilter = useMemo(() => ({ ...filterState, callId: traceCall }), [filterState, traceCall]);
  const shown = useMemo(() => filterTrace(messages, filter), [messages, filter]);
  const filtering = isFilteringTrace(filter);
  const [details, setDetails] = useState<ReadonlyMap<number, TraceDetailState>>(new Map());
  const [follow, setFollow] = useState(true);
  const [revealing, setRevealing] = useState<number | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const ownScrollUntil = useRef(0);

  // The contents are searched by the host (they are not in the window until opened), again as messages come.
  const search = filterState.search.trim();
  const count = messages.length;
  useEffect(() => {
    if (search === '') return undefined;
    const timer = setTimeout(() => {
      api.findInTrace({ serverId: server.id, text: search }).then(
        (seqs) => setFilter((current) => (current.search.trim() === search ? { ...current, found: new Set(seqs) } : current)),
        () => undefined,
      );
    }, 250);
    return () => clearTimeout(timer);
  }, [api, server.id, search, count]);

  const virtualizer = useVirtualizer({
    count: shown.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => 30,
    overscan: 12,
    getItemKey: (index) => shown[index]?.seq ?? index,
  });

  const scrollTo = useCallback(
    (index: number, align: 'end' | 'center') => {
      ownScrollUntil.current = performance.now() + OWN_SCROLL_MS;
      virtualizer.scrollToIndex(index, { align });
    },
    [virtualizer],
  );

  // Keyed by the newest message, not the count: once the trace is full, a new message keeps the count.
  const newest = shown.at(-1)?.seq;
  useLayoutEffect(() => {
    if (follow && shown.length > 0) scrollTo(shown.length - 1, 'end');
  }, [follow, newest, shown.length, scrollTo]);

  // A message asked for (the other half of a pair) is scrolled to once it is in the list.
  useEffect(() => {
    if (revealing === null) return;
    const index = shown.findIndex((message) => message.seq === revealing);
    if (index < 0) return;
    setRevealing(null);
    scrollTo(index, 'center');
  }, [revealing, shown, scrollTo]);

  const load = useCallback(
    (seq: number) => {
      setDetails((current) => new Map(current).set(seq, { kind: 'loading' }));
      api.getTraceMessage({ serverId: server.id, seq }).then(
        (detail) => setDetails((current) => (current.has(seq) ? new Map(current).set(seq, detail ? { kind: 'loaded', detail } : { kind: 'gone' }) : current)),
        (error: unknown) => setDetails((current) => (current.has(seq) ? new Map(current).set(seq, { kind: 'failed', error: errorMessage(error) }) : current)),
      );
    },
    [api, server.id],
  );
  const onToggle = useCallback(
    (seq: number) => {
      if (details.has(seq)) {
        setDetails((current) => {
          const next = new Map(current);
          next.delete(seq);
          return next;
        });
        return;
      }
      setFollow(false);
      load(seq);
    },
    [details, load],
  );
  const onReveal = useCallback(
    (seq: number) => {
      setFollow(false);
      // The other half may be hidden by the filters (not by the call: a pair belongs to one call).
      if (!shown.some((message) => message.seq === seq)) setFilter(showWholeTrace);
      if (!details.has(seq)) load(seq);
      setRevealing(seq);
    },
    [shown, details, load],
  );
  const onShowCall = useCallback((callId: string) => showServerTrace(server.id, callId), [showServerTrace, server.id]);
  const onOpenConversation = useCallback((conversationId: string, callId: string) => showToolCall(conversationId, callId), [showToolCall]);

  const exportShown = () => {
    setExportError(null);
    // Without a filter, every message the host keeps (also those a flood passed too fast to list).
    api.exportTrace({ serverId: server.id, ...(filtering ? { seqs: shown.map((message) => message.seq) } : {}) }).then(
      (lines) => saveAsFile(lines, 'application/x-ndjson', exportFileName(server.id, new Date())),
      (error: unknown) => setExportError(errorMessage(error)),
    );
  };

  const limits = trace?.limits;
  const kept = limits ? `Atrium keeps the last ${limits.messages.toLocaleString('en')} messages (${formatBytes(limits.bytes)}) of each server.` : '';
  return (
    <section className="log-panel trace-panel" aria-labelledby={headingId}>
      <header className="log-head">
        <h2 id={headingId}>
          Trace <span className="muted">· {server.id}</span>
        </h2>
        <div className="trace-actions">
          <button type="button" className="button button-small" aria-pressed={follow} onClick={() => setFollow((on) => !on)}>
            Follow
          </button>
          <button type="button" className="button button-small" disabled={shown.length === 0} onClick={exportShown}>
            Export {filtering ? 'shown' : 'all'} as JSON Lines
          </button>
        </div>
      </header>
      <TraceFilterBar
        serverId={server.id}
        messages={messages}
        filter={filter}
        onChange={({ callId: _callId, ...rest }) => setFilter(rest)}
        onShowAllCalls={showWholeTraceOf}
        count={`${messageCount(shown.length, messages.length, filtering)}${trace && trace.skipped > 0 ? ` · ${trace.skipped.toLocaleString('en')} more passed too fast to list (Export all has those still kept)` : ''}`}
      />
      {traceCall !== null && shown.length > 0 && !shown.some((message) => message.kind === 'request' && message.direction === 'out') ? (
        <p className="trace-kept muted">The call’s first messages are no longer kept: newer messages took their place.</p>
      ) : null}
      {exportError ? <p role="alert">{exportError}</p> : null}
      {trace?.error ? <p role="alert">{trace.error}</p> : null}
      <div
        className="log-scroll trace-scroll"
        ref={scroller}
        onScroll={(event) => {
          if (performance.now() < ownScrollUntil.current) return;
          const element = event.currentTarget;
          // The person scrolled away from the end: Follow lets them read; scrolling back to the end follows again.
          const atEnd = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
          if (atEnd !== follow) setFollow(atEnd);
        }}
      >
        {!trace || (!trace.limits && !trace.error) ? (
          <p className="muted panel-pad">Loading the trace…</p>
        ) : messages.length === 0 ? (
          <EmptyState title="No messages yet">Every message between Atrium and the server appears here as it passes. {kept}</EmptyState>
        ) : shown.length === 0 ? (
          <EmptyState title="No messages match">
            {traceCall !== null ? `None of this tool call’s messages are kept any more. ${kept}` : 'Every message is hidden by the filters above.'}
          </EmptyState>
        ) : (
          <ol className="trace-list" aria-label={`Messages of ${server.id}`} style={{ height: virtualizer.getTotalSize() }}>
            {virtualizer.getVirtualItems().map((item) => {
              const message = shown[item.index];
              if (!message) return null;
              return (
                <TraceRow
                  key={item.key}
                  message={message}
                  index={item.index}
                  count={shown.length}
                  start={item.start}
                  measure={virtualizer.measureElement}
                  detail={details.get(message.seq)}
                  narrowed={traceCall !== null}
                  onToggle={onToggle}
                  onReveal={onReveal}
                  onShowCall={onShowCall}
                  onOpenConversation={onOpenConversation}
                />
              );
            })}
          </ol>
        )}
      </div>
      {kept && messages.length > 0 ? <p className="trace-kept muted">{kept} Secrets are redacted.</p> : null}
    </section>
  );
}
