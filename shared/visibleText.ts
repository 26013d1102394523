// Text from a server is untrusted. Characters that can hide or rewrite what a person reads are shown as
// visible marks instead: C0/C1 controls except tab and newline (ANSI escapes), bidi controls (which can
// reorder a line), zero-width characters and Unicode tag characters (which can smuggle hidden text).
// Which characters count is the neutraliser's rule (serverText.ts), so an emoji's joiner stays joined.
// The CLI and the renderer use the same rule.

import { replaceHidden } from './serverText.ts';

/** The text with every hidden or control character replaced by its `\u{…}` mark. */
export function visibleText(text: string): string {
  return replaceHidden(text, markOf);
}

export function markOf(ch: string): string {
  return `\\u{${ch.codePointAt(0)?.toString(16)}}`;
}

/** The text split into plain runs and hidden characters, so a view can style the marks. */
export function splitHidden(text: string): { text: string; hidden: boolean }[] {
  const parts: { text: string; hidden: boolean }[] = [];
  let last = 0;
  replaceHidden(text, (ch, at) => {
    if (at > last) parts.push({ text: text.slice(last, at), hidden: false });
    parts.push({ text: markOf(ch), hidden: true });
    last = at + ch.length;
    return ch;
  });
  if (last < text.length) parts.push({ text: text.slice(last), hidden: false });
  return parts;
}
