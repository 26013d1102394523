// Text as a person reads it. Each run of characters that could hide or rewrite what they read — marked by
// the neutraliser where a server's text entered the host, or raw (a model may echo them) — is shown as a
// visible mark in its place: ⟨U+202E⟩ in the window, `\u{202e}` in the terminal, as code editors show
// invisible characters. Which characters count is the neutraliser's rule (hiddenCharacters.ts), so an
// emoji's joiner stays joined. The CLI and the window use the same rule.

import type { HiddenRun, RemovedKind } from './hiddenCharacters.ts';
import { forEachHiddenRun } from './hiddenCharacters.ts';
import { kindWords } from './serverText.ts';

/** The text with every hidden or control character replaced by its `\u{…}` mark (for a terminal). */
export function visibleText(text: string): string {
  return replaceRuns(text, (run) => codePointsOf(run).map((code) => (printable(code) ? String.fromCodePoint(code) : markOf(code))).join(''));
}

/** One character's terminal mark. */
export function markOf(code: number): string {
  return `\\u{${code.toString(16)}}`;
}

/** The text with each run of hidden characters as its ⟨U+…⟩ mark, for where the window shows a plain string (a title). */
export function shownText(text: string): string {
  return replaceRuns(text, (run) => `⟨${labelOf(run)}⟩`);
}

/** Every string in a JSON value as `shownText` makes it (a conversation exported for a person to read). */
export function shownValue<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (_key, item: unknown) => (typeof item === 'string' ? shownText(item) : item)) as T;
}

export type TextPart = { text: string; hidden: false } | { text: string; hidden: true; title: string };

/** The text split into plain runs and marks, so the window can style each mark and say what it stands for. */
export function splitHidden(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let last = 0;
  forEachHiddenRun(text, (run) => {
    if (run.start > last) parts.push({ text: text.slice(last, run.start), hidden: false });
    parts.push({ text: `⟨${labelOf(run)}⟩`, hidden: true, title: titleOf(run) });
    last = run.end;
  });
  if (last < text.length) parts.push({ text: text.slice(last), hidden: false });
  return parts;
}

function replaceRuns(text: string, mark: (run: HiddenRun) => string): string {
  let out = '';
  let last = 0;
  forEachHiddenRun(text, (run) => {
    out += text.slice(last, run.start) + mark(run);
    last = run.end;
  });
  return last === 0 ? text : out + text.slice(last);
}

function codePointsOf(run: HiddenRun): number[] {
  return run.units.flatMap((unit) => [...unit.chars].map((ch) => ch.codePointAt(0) as number));
}

// Inside an escape sequence, its printable part shows as itself: ESC [2J reads as U+001B [2J.
const printable = (code: number) => code >= 0x20 && code <= 0x7e;

const LABEL_CHARS = 32;

/** U+202E; an escape sequence as U+001B [2J; a long run by its start and how many characters it holds. */
function labelOf(run: HiddenRun): string {
  let label = '';
  let wasPrintable = false;
  for (const code of codePointsOf(run)) {
    const isPrintable = printable(code);
    if (label !== '' && !(isPrintable && wasPrintable)) label += ' ';
    label += isPrintable ? String.fromCodePoint(code) : `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    wasPrintable = isPrintable;
    if (label.length > LABEL_CHARS) break;
  }
  if (label.length <= LABEL_CHARS) return label;
  return `${label.slice(0, LABEL_CHARS - 8).trimEnd()} … ${totalOf(run)} characters`;
}

function totalOf(run: HiddenRun): number {
  return run.units.reduce((sum, unit) => sum + unit.kinds.reduce((n, [, count]) => n + count, 0), 0);
}

/** What the mark stands for, in words; tag characters also say the text they spell. */
function titleOf(run: HiddenRun): string {
  const kinds: RemovedKind[] = [];
  for (const unit of run.units) for (const [kind] of unit.kinds) if (!kinds.includes(kind)) kinds.push(kind);
  const total = totalOf(run);
  const spelled = codePointsOf(run)
    .filter((code) => code >= 0xe0020 && code <= 0xe007e)
    .map((code) => String.fromCodePoint(code - 0xe0000))
    .join('');
  const spelling = spelled.length > 0 ? `; the tag characters spell “${spelled.length > 200 ? `${spelled.slice(0, 200)}…` : spelled}”` : '';
  return `${total} hidden character${total === 1 ? '' : 's'} here (${kinds.map(kindWords).join(', ')})${spelling}`;
}
