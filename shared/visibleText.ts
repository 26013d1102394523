// Text from a server is untrusted. Characters that can hide or rewrite what a person reads are shown as
// visible marks instead: C0/C1 controls except tab and newline (ANSI escapes), bidi controls (which can
// reorder a line), zero-width characters and Unicode tag characters (which can smuggle hidden text).
// The CLI and the renderer use the same rule.

// eslint-disable-next-line no-control-regex -- matching control characters is the point: they are made visible.
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\u{e0000}-\u{e007f}]/gu;

/** The text with every hidden or control character replaced by its `\u{…}` mark. */
export function visibleText(text: string): string {
  return text.replace(UNSAFE, markOf);
}

export function markOf(ch: string): string {
  return `\\u{${ch.codePointAt(0)?.toString(16)}}`;
}

/** The text split into plain runs and hidden characters, so a view can style the marks. */
export function splitHidden(text: string): { text: string; hidden: boolean }[] {
  const parts: { text: string; hidden: boolean }[] = [];
  let last = 0;
  for (const match of text.matchAll(UNSAFE)) {
    const at = match.index;
    if (at > last) parts.push({ text: text.slice(last, at), hidden: false });
    parts.push({ text: markOf(match[0]), hidden: true });
    last = at + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last), hidden: false });
  return parts;
}
