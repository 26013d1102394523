// A count with its noun, as a person reads it: "1 tool", "3 tools" (nouns whose plural is a plain -s).

export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
