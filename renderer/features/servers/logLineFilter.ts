// Which of a server's log lines the window shows: those at or above a chosen level whose text holds what
// the person searched for. Only the display is filtered; the server still sends, and the host keeps, them all.
import { isAtLeast } from '../../../shared/domain.ts';
import type { LogLevel, LogLine } from '../../../shared/domain.ts';

export interface LogLineFilter {
  minimum: LogLevel;
  search: string;
}

export const showEverything: LogLineFilter = { minimum: 'debug', search: '' };

/** The choices offered, least strict first; "all" is the least severe level. */
export const minimumChoices: readonly { level: LogLevel; label: string }[] = [
  { level: 'debug', label: 'all' },
  { level: 'info', label: 'info and above' },
  { level: 'warning', label: 'warning and above' },
  { level: 'error', label: 'error and above' },
];

export function isFiltering(filter: LogLineFilter): boolean {
  return filter.minimum !== showEverything.minimum || filter.search.trim() !== '';
}

export function filterLogLines(lines: readonly LogLine[], filter: LogLineFilter): readonly LogLine[] {
  if (!isFiltering(filter)) return lines;
  const needle = filter.search.trim().toLocaleLowerCase();
  return lines.filter((line) => isAtLeast(line.level, filter.minimum) && line.text.toLocaleLowerCase().includes(needle));
}

/** "40 lines", or "12 of 40 lines" while a filter hides some. */
export function lineCount(shown: number, total: number, filtering: boolean): string {
  const noun = total === 1 ? 'line' : 'lines';
  return filtering ? `${shown} of ${total} ${noun}` : `${total} ${noun}`;
}
