// A link in Markdown that names no address (`structure.md`, a file beside the text) means something only
// where the text came from: a server's Markdown resource names its sibling resources so. A view that
// knows where its text came from gives an opener: a reference it resolves opens that, in Atrium (nothing
// leaves it, so nothing is asked); any other reads as its words.

import { createContext } from 'react';

/** What opens `reference`, when the view knows it; undefined when it names nothing known. */
export type ReferenceOpener = (reference: string) => (() => void) | undefined;

export const MarkdownReferences = createContext<ReferenceOpener | undefined>(undefined);

/** The resource of `listed` that `reference` names, read against `base` (the resource it is in), other than `base` itself. */
export function siblingResource<T extends { uri: string }>(base: string, reference: string, listed: readonly T[]): T | undefined {
  let target: URL;
  try {
    target = new URL(reference, base);
  } catch {
    return undefined;
  }
  target.hash = '';
  const uri = target.href;
  return uri === base ? undefined : listed.find((resource) => resource.uri === uri);
}
