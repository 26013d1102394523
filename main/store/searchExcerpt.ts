// What the conversation list shows under a conversation that a search found in what was said: a few
// words around the first place its messages hold the words (in the order they were written), cut at
// word boundaries, with … where the message goes on. The database cuts the window (historyTables.ts),
// so a long message never leaves it whole for a search.

import { searchMatches } from '../../shared/searchMatch.ts';

/** How many characters of a message the window keeps before the first match, and in all. */
export const excerptLead = 40;
export const excerptLength = 160;

/** The window as the query cut it: whether the message goes on before and after it (SQLite's 1 or 0). */
export interface ExcerptWindow {
  text: string;
  cutStart: boolean | number;
  cutEnd: boolean | number;
}

/** The excerpt as shown: whitespace made single spaces, a word the cut split dropped, … at a cut end. */
export function finishExcerpt(window: ExcerptWindow, search: string): string {
  let text = window.text.replace(/\s+/g, ' ');
  const [first] = searchMatches(text, search);
  if (window.cutStart) {
    // Only a space before the match may end the part dropped, so the match itself is never cut.
    const space = text.indexOf(' ');
    if (space !== -1 && (first === undefined || space < first[0])) text = text.slice(space + 1);
  }
  if (window.cutEnd) {
    const space = text.lastIndexOf(' ');
    const [match] = searchMatches(text, search);
    if (space !== -1 && (match === undefined || space >= match[1])) text = text.slice(0, space);
  }
  text = text.trim();
  return `${window.cutStart ? '…' : ''}${text}${window.cutEnd ? '…' : ''}`;
}
