import type { LogLevel } from '../../../shared/domain.ts';
import { FilterSearch } from './FilterSearch.tsx';
import { minimumChoices } from './logLineFilter.ts';
import type { LogLineFilter } from './logLineFilter.ts';

interface LogFilterBarProps {
  serverId: string;
  filter: LogLineFilter;
  onChange(filter: LogLineFilter): void;
  /** "12 of 40 lines": how much of the log the filter lets through. */
  count: string;
}

/** Narrows the lines shown (a minimum level, a text to find); the server is not asked to send fewer. */
export function LogFilterBar({ serverId, filter, onChange, count }: LogFilterBarProps) {
  return (
    <div className="log-filter" role="group" aria-label={`Filter the log of ${serverId}`}>
      <label className="log-level-picker">
        <span>Show</span>
        <select value={filter.minimum} onChange={(event) => onChange({ ...filter, minimum: event.target.value as LogLevel })}>
          {minimumChoices.map((choice) => (
            <option key={choice.level} value={choice.level}>
              {choice.label}
            </option>
          ))}
        </select>
      </label>
      <FilterSearch label="Search the log" placeholder="Search the log" value={filter.search} onSearch={(search) => onChange({ ...filter, search })} count={count} />
    </div>
  );
}
