// Names said as a sentence says them: "files", "files and git", "files, git and notes". (Written out:
// Intl.ListFormat takes about 10 ms to make, at every start that loads it.)

export function listInWords(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}
