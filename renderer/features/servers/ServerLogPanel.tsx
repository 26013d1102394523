import { useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { logLevels } from '../../../shared/domain.ts';
import type { LogLevel, LogLine, ServerSnapshot } from '../../../shared/domain.ts';
import { errorMessage } from '../../api/AtriumRequestError.ts';
import { useAtriumApi } from '../../api/useAtriumApi.ts';
import { useAtriumStore } from '../../store/useAtriumStore.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { LogFilterBar } from './LogFilterBar.tsx';
import { LogLineRow } from './LogLineRow.tsx';
import { filterLogLines, isFiltering, lineCount, showEverything } from './logLineFilter.ts';

const noLines: LogLine[] = [];

/** The selected server's log, filtered as the person asks, following new lines while scrolled to the bottom. */
export function ServerLogPanel({ server }: { server: ServerSnapshot }) {
  const headingId = useId();
  const lines = useAtriumStore((state) => state.logs[server.id] ?? noLines);
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const [filter, setFilter] = useState(showEverything);
  const shown = useMemo(() => filterLogLines(lines, filter), [lines, filter]);
  const filtering = isFiltering(filter);

  useLayoutEffect(() => {
    const element = scroller.current;
    if (element && following.current) element.scrollTop = element.scrollHeight;
  }, [shown]);

  return (
    <section className="log-panel" aria-labelledby={headingId}>
      <header className="log-head">
        <h2 id={headingId}>
          Log <span className="muted">· {server.id}</span>
        </h2>
        {server.capabilities?.logging ? <LogLevelPicker serverId={server.id} /> : null}
      </header>
      <LogFilterBar serverId={server.id} filter={filter} onChange={setFilter} count={lineCount(shown.length, lines.length, filtering)} />
      <div
        className="log-scroll"
        ref={scroller}
        onScroll={(event) => {
          const element = event.currentTarget;
          following.current = element.scrollHeight - element.scrollTop - element.clientHeight < 24;
        }}
      >
        {lines.length === 0 ? (
          <EmptyState title="No log lines yet">Lines from the server’s stderr, its log messages and Atrium appear here.</EmptyState>
        ) : shown.length === 0 ? (
          <EmptyState title="No lines match">Every line is hidden by the level or the search above.</EmptyState>
        ) : (
          <ol className="log-lines" aria-label={`Log lines for ${server.id}`}>
            {shown.map((line, index) => (
              <LogLineRow key={`${line.at}-${index}`} line={line} />
            ))}
          </ol>
        )}
      </div>
    </section>
  );
}

function LogLevelPicker({ serverId }: { serverId: string }) {
  const api = useAtriumApi();
  const [level, setLevel] = useState<LogLevel | ''>('');
  const [error, setError] = useState<string | null>(null);
  return (
    <label className="log-level-picker">
      <span>Server log level</span>
      <select
        value={level}
        onChange={(event) => {
          const next = event.target.value as LogLevel;
          setLevel(next);
          setError(null);
          api.setServerLogLevel({ serverId, level: next }).catch((failure: unknown) => setError(errorMessage(failure)));
        }}
      >
        <option value="" disabled>
          Server default
        </option>
        {logLevels.map((name) => (
          <option key={name} value={name}>
            {name}
          </option>
        ))}
      </select>
      {error ? (
        <span className="card-error" role="alert">
          {error}
        </span>
      ) : null}
    </label>
  );
}
