import { searchMatches } from '../../shared/searchMatch.ts';
import { splitHidden } from '../../shared/visibleText.ts';
import { UntrustedText } from './UntrustedText.tsx';

/**
 * Untrusted text with each place it holds `search` marked, as the history's search matched it. Text with
 * hidden characters is shown as UntrustedText shows it, marks of its own and its one warning, unmarked.
 */
export function SearchHitText({ text, search }: { text: string; search: string }) {
  const matches = searchMatches(text, search.trim());
  if (matches.length === 0 || splitHidden(text).some((part) => part.hidden)) return <UntrustedText text={text} />;
  const parts = [];
  let at = 0;
  for (const [start, end] of matches) {
    parts.push(text.slice(at, start), <mark key={start} className="search-hit">{text.slice(start, end)}</mark>);
    at = end;
  }
  parts.push(text.slice(at));
  return <span>{parts}</span>;
}
