// Names said as a sentence says them: "files", "files and git", "files, git and notes".

const conjunction = new Intl.ListFormat('en', { type: 'conjunction' });

export function listInWords(names: readonly string[]): string {
  return conjunction.format(names);
}
