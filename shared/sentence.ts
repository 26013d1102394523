// Host errors are clauses ("the registry at … answered 503"), made to follow "…: " in a longer sentence.
// Shown on their own, they begin with a capital and end with a full stop.

/** `text` as a whole sentence: a full stop added where it has none, and a capital first unless `capital: false` (after "…: "). */
export function asSentence(text: string, { capital = true }: { capital?: boolean } = {}): string {
  const trimmed = text.trim();
  const begun = capital ? trimmed.charAt(0).toUpperCase() + trimmed.slice(1) : trimmed;
  return /[.!?…]$/.test(begun) ? begun : `${begun}.`;
}
