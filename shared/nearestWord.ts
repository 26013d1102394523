// "Did you mean …?": the word a short slip of the keyboard most likely meant (a key of a servers file, a
// command of the `atrium` command line).

/** Levenshtein distance: how many letters to add, remove or change to turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/**
 * The word of `words` that `written` is a slip for: at most two letters off (one for a two-letter word,
 * so that no short word stands for every other), the nearest first; undefined when none is that close.
 */
export function nearestWord(written: string, words: readonly string[]): string | undefined {
  let best: { word: string; distance: number } | undefined;
  for (const word of words) {
    const distance = editDistance(written, word);
    if (distance <= Math.min(2, word.length - 1) && (best === undefined || distance < best.distance)) best = { word, distance };
  }
  return best?.word;
}
