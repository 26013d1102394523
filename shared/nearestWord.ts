// "Did you mean …?": the word a short slip of the keyboard most likely meant (a key of a servers file, a
// command of the `atrium` command line).

/**
 * How many letters to add, remove or change, or neighbours to swap, to turn `a` into `b` (the optimal
 * string alignment distance): two letters typed in the wrong order ("ues" for "use") are one slip, not two.
 */
export function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance between the first i letters of `a` and the first j of `b`.
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const above = rows[i - 1] ?? [];
      let best = Math.min((above[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (above[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, (rows[i - 2]?.[j - 2] ?? 0) + 1);
      row[j] = best;
    }
    rows.push(row);
  }
  return rows[a.length]?.[b.length] ?? 0;
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
