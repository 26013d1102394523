// Where a conversation search's words are in a text, by the rule the history's search finds them with
// (SQLite's LIKE): a plain substring, with only A–Z and a–z told apart from case. One rule for the host,
// which cuts a message's excerpt around the first match, and the window, which marks the matches in it.

/** `text` with A–Z lowered and nothing else changed, so every index stays where it was. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/** Each place `search` is in `text`, as [start, end) indexes, in order and not overlapping. */
export function searchMatches(text: string, search: string): Array<[number, number]> {
  const needle = asciiLower(search);
  if (needle === '') return [];
  const haystack = asciiLower(text);
  const found: Array<[number, number]> = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + needle.length)) found.push([at, at + needle.length]);
  return found;
}
