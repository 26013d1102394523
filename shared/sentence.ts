// Host errors are clauses ("the registry at … answered 503"), made to follow "…: " in a longer sentence.
// Shown on their own, they begin with a capital and end with a full stop.

/** `text` as a whole sentence: a full stop added where it has none, and a capital first unless `capital: false` (after "…: "). */
export function asSentence(text: string, { capital = true }: { capital?: boolean } = {}): string {
  const trimmed = text.trim();
  const begun = capital ? trimmed.charAt(0).toUpperCase() + trimmed.slice(1) : trimmed;
  return /[.!?…]$/.test(begun) ? begun : `${begun}.`;
}

/**
 * `text` without the names it begins with when they are already in view: a host error names its server
 * (and tool) first, for a line read on its own ("files: tool "read": …"), which on that server's own card
 * only repeats its title. Each name is taken off only where it begins the text, followed by ": ".
 */
export function withoutNamesInView(text: string, ...names: readonly string[]): string {
  let rest = text;
  for (const name of names) if (rest.startsWith(`${name}: `)) rest = rest.slice(name.length + 2);
  return rest;
}
