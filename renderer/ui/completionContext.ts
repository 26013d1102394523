// What a server's completion of one argument is told of the others (prompts' arguments and resource
// templates' variables alike): the spec's `context.arguments`.

/** The other arguments' values: the context a server's completion of one argument may depend on. */
export function othersThan(values: Record<string, string>, name: string): Record<string, string> {
  return Object.fromEntries(Object.entries(values).filter(([key]) => key !== name));
}
