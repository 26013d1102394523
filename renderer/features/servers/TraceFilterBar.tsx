import type { TraceMessage } from '../../../shared/contract.ts';
import { FilterSearch } from './FilterSearch.tsx';
import { methodsIn } from './traceFilter.ts';
import type { TraceFilter } from './traceFilter.ts';

interface TraceFilterBarProps {
  serverId: string;
  messages: readonly TraceMessage[];
  filter: TraceFilter;
  onChange(filter: TraceFilter): void;
  /** Leaves the one tool call the trace was narrowed to. */
  onShowAllCalls(): void;
  /** "12 of 40 messages": how much of the trace the filter lets through. */
  count: string;
}

/** Narrows the messages shown: a direction, a method, a text in their contents, one tool call. */
export function TraceFilterBar({ serverId, messages, filter, onChange, onShowAllCalls, count }: TraceFilterBarProps) {
  const methods = methodsIn(messages);
  return (
    <div className="log-filter trace-filter" role="group" aria-label={`Filter the trace of ${serverId}`}>
      <label className="log-level-picker">
        <span>Direction</span>
        <select value={filter.direction} onChange={(event) => onChange({ ...filter, direction: event.target.value as TraceFilter['direction'] })}>
          <option value="both">both ways</option>
          <option value="out">sent to the server</option>
          <option value="in">received from it</option>
        </select>
      </label>
      <label className="log-level-picker">
        <span>Method</span>
        <select value={filter.method} onChange={(event) => onChange({ ...filter, method: event.target.value })}>
          <option value="">every method</option>
          {/* The selected one stays offered after its messages left the trace, so the choice reads as it is. */}
          {[...new Set([...methods, ...(filter.method ? [filter.method] : [])])].map((method) => (
            <option key={method} value={method}>
              {method}
            </option>
          ))}
        </select>
      </label>
      <FilterSearch label="Search the trace" placeholder="Search methods and contents" value={filter.search} onSearch={(search) => onChange({ ...filter, search, found: null })} count={count}>
        {filter.callId !== null ? (
          <span className="chip chip-active trace-call-chip">
            One tool call’s messages
            <button type="button" className="link-button" onClick={onShowAllCalls}>
              Show every message
            </button>
          </span>
        ) : null}
      </FilterSearch>
    </div>
  );
}
