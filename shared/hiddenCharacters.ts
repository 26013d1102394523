// Which characters a server's text may not keep, and the trace left where they were. Removed: characters
// that hide text (Unicode tag characters, zero-width and other invisible characters, lone variation
// selectors), reorder it (bidi controls) or drive a terminal (ANSI escape sequences, C0 and C1 controls).
// Kept: newlines, tabs and CRLF; base64 (never matches); right-to-left scripts written without controls;
// a zero-width joiner inside an emoji sequence (👩‍💻) and a ZWJ / ZWNJ between two letters of a script
// that needs them (Arabic, Persian, the Indic scripts); a variation selector where it chooses how a
// character looks (❤️, an ideograph's variant, a mathematical symbol's); the three RGI subdivision flags
// (🏴󠁧󠁢󠁥󠁮󠁧󠁿), whose tag characters spell only gbeng / gbsct / gbwls.
//
// Each run of removed characters leaves a marker: U+FDD0, the counts by kind, ":", the code points in
// hex, U+FDD1 (`\uFDD0b1:202E\uFDD1` for one right-to-left override). U+FDD0 and U+FDD1 are
// noncharacters, which are themselves removed from anything a server sends, so a server cannot write a
// marker of its own: whatever looks like one is accepted only when it is exactly the marker its code
// points make, so it stands for nothing but those characters.

export type RemovedKind = 'tag' | 'bidi' | 'invisible' | 'control';

export type RemovedCounts = Partial<Record<RemovedKind, number>>;

const FLAG = '\\u{1F3F4}\\u{E0067}\\u{E0062}(?:\\u{E0065}\\u{E006E}\\u{E0067}|\\u{E0073}\\u{E0063}\\u{E0074}|\\u{E0077}\\u{E006C}\\u{E0073})\\u{E007F}';
// A whole terminal escape sequence goes as one: CSI (colours, cursor, clear screen), OSC (window title,
// hyperlinks) ended by BEL or ST, and the two-character ESC forms.
const ANSI = '\\u001b\\[[0-?]*[ -/]*[@-~]|\\u001b\\][^\\u0007\\u001b]*(?:\\u0007|\\u001b\\\\)?|\\u001b[@-Z\\\\-_]|\\u009b[0-?]*[ -/]*[@-~]|\\u009d[^\\u0007\\u009c]*[\\u0007\\u009c]?';
// One by one: controls, soft hyphen, the Arabic letter mark, Hangul fillers, Khmer's invisible vowels,
// Mongolian selectors and separator, zero-width and bidi controls, line and paragraph separators, the
// invisible operators, noncharacters, interlinear annotation, tags, variation selectors, shorthand format
// controls and musical formatting characters.
const SINGLE =
  '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180b-\\u180f\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\u3164\\ufdd0-\\ufdef\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff0-\\ufffb\\ufffe\\uffff]|[\\u{e0000}-\\u{e007f}]|[\\u{e0100}-\\u{e01ef}]|[\\u{1bca0}-\\u{1bca3}]|[\\u{1d173}-\\u{1d17a}]';
const MARKER_SHAPE = '\\uFDD0((?:[tbic][1-9][0-9]{0,8})+):([0-9A-F]{1,6}(?:\\.[0-9A-F]{1,6})*)\\uFDD1';
// eslint-disable-next-line no-misleading-character-class -- joiners and selectors are matched one by one on purpose, to judge each.
const TOKEN = new RegExp(`(${MARKER_SHAPE})|(${FLAG})|${ANSI}|${SINGLE}`, 'gu');

/**
 * A quick scan without the Unicode flag (much faster over megabytes): any code unit that may start a
 * candidate, tag and supplementary characters by their high surrogates. Text without one needs no change.
 */
// eslint-disable-next-line no-control-regex, no-misleading-character-class -- a scan of code units, on purpose.
export const MAY_HIDE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f\u200b-\u200f\u2028-\u202e\u2060-\u206f\u3164\ufdd0-\ufdef\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufffb\ufffe\uffff\udb40\ud82f\ud834]/;

const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const TAG = /[\u{e0000}-\u{e007f}]/u;
// eslint-disable-next-line no-control-regex -- control characters are what this names.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const JOINING_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const EMOJI_BASE = /[\p{Emoji}\p{Extended_Pictographic}]/u;
const LETTER_OR_MARK = /[\p{L}\p{M}]/u;
// eslint-disable-next-line no-misleading-character-class -- one character at a time, on purpose.
const REMOVABLE = new RegExp(`^(?:${SINGLE})$`, 'u');
// eslint-disable-next-line no-misleading-character-class -- joiners and selectors are matched one by one on purpose, to judge each.
const EMOJI_MODIFIER = /[\u{1f3fb}-\u{1f3ff}\ufe0f]/u;
const EMOJI_SELECTOR = /[\ufe0e\ufe0f]/u;
const SELECTOR = /[\ufe00-\ufe0d]/u;
const IDEOGRAPH_SELECTOR = /[\u{e0100}-\u{e01ef}]/u;
const MONGOLIAN_SELECTOR = /[\u180b-\u180d\u180f]/u;
const ANY_SELECTOR = /[\ufe00-\ufe0f\u{e0100}-\u{e01ef}\u180b-\u180d\u180f]/u;
// Where the standardized variants of Unicode put FE00–FE0D: ideographs, mathematical symbols, the digit
// zero and the letters of a few scripts (StandardizedVariants.txt).
const SELECTOR_BASE = /[\p{Ideographic}\p{Sm}0]|(?=\p{L})[\p{Script=Myanmar}\p{Script=Phags_Pa}\p{Script=Manichaean}\p{Script=Egyptian_Hieroglyphs}]/u;

/** How many characters of each kind, in the order first met. */
export type KindCounts = readonly (readonly [RemovedKind, number])[];

/** One removed thing: the characters (an ANSI sequence is one), or a marker's, and how many of each kind. */
export interface HiddenUnit {
  chars: string;
  kinds: KindCounts;
}

/** Adjacent removed things: where they stand in the text. */
export interface HiddenRun {
  start: number;
  end: number;
  units: HiddenUnit[];
}

// Most units are one character: their counts are shared, never changed.
const ONE: Record<RemovedKind, KindCounts> = { tag: [['tag', 1]], bidi: [['bidi', 1]], invisible: [['invisible', 1]], control: [['control', 1]] };

/** Where a removed thing stands (`at` to `end`), its characters and their counts. */
export type HiddenVisitor = (at: number, end: number, chars: string, kinds: KindCounts) => void;

/**
 * Calls `visit` for each character or sequence the neutraliser removes, raw or already marked, in order.
 * A marker counts as the characters it stands for; anything shaped like one that is not exactly the
 * marker of its code points is not a marker, and its U+FDD0 and U+FDD1 are removed like any noncharacter.
 */
export function forEachHidden(text: string, visit: HiddenVisitor): void {
  if (!MAY_HIDE.test(text)) return;
  // A marker's code points are scanned again to check it, from inside this loop: one expression per depth.
  // eslint-disable-next-line no-misleading-character-class -- the same expression as TOKEN.
  const token = (tokens[depth] ??= new RegExp(TOKEN.source, TOKEN.flags));
  token.lastIndex = 0;
  depth += 1;
  try {
    let found: RegExpExecArray | null;
    while ((found = token.exec(text)) !== null) {
      const at = found.index;
      const match = found[0];
      if (found[1] !== undefined) {
        const unit = markerUnit(match, found[2] as string, found[3] as string);
        if (unit) {
          visit(at, at + match.length, unit.chars, unit.kinds);
        } else {
          // Not a marker: its U+FDD0 and U+FDD1 are removed characters; between them is plain ASCII.
          visit(at, at + 1, '\uFDD0', ONE.invisible);
          visit(at + match.length - 1, at + match.length, '\uFDD1', ONE.invisible);
        }
      } else if (found[4] === undefined && !keeps(match, text, at)) {
        const code = match.codePointAt(0) as number;
        const single = match.length === 1 || (match.length === 2 && code > 0xffff);
        visit(at, at + match.length, match, single ? ONE[kindOfCode(code)] : [[kindOf(match), codePointCount(match)]]);
      }
    }
  } finally {
    depth -= 1;
  }
}

/** The same, grouped into runs of adjacent removed things (for a view that shows each run as one mark). */
export function forEachHiddenRun(text: string, visit: (run: HiddenRun) => void): void {
  let run: HiddenRun | undefined;
  forEachHidden(text, (at, end, chars, kinds) => {
    if (run && run.end === at) {
      run.units.push({ chars, kinds });
      run.end = end;
      return;
    }
    if (run) visit(run);
    run = { start: at, end, units: [{ chars, kinds }] };
  });
  if (run) visit(run);
}

const tokens: RegExp[] = [];
let depth = 0;

/** The most code points one marker holds; a longer run leaves several markers side by side. */
const MARKER_CODE_POINTS = 64;
const KIND_ORDER: readonly RemovedKind[] = ['tag', 'bidi', 'invisible', 'control'];

/**
 * Writes the markers of runs, unit by unit: a marker holds at most 64 code points and never splits a
 * unit (an escape sequence longer than that is a marker of its own). `take` ends the run.
 */
export class MarkerWriter {
  #codes = '';
  #codeCount = 0;
  #order = '';
  readonly #counts = [0, 0, 0, 0];
  #out = '';

  add(chars: string, kinds: KindCounts): void {
    const size = codePointCount(chars);
    if (this.#codeCount > 0 && this.#codeCount + size > MARKER_CODE_POINTS) this.#flush();
    for (let index = 0; index < chars.length; index++) {
      const code = chars.codePointAt(index) as number;
      if (code > 0xffff) index++;
      const hex = hexOf(code);
      this.#codes += this.#codeCount === 0 ? hex : `.${hex}`;
      this.#codeCount++;
    }
    for (const [kind, count] of kinds) {
      const slot = KIND_ORDER.indexOf(kind);
      if (this.#counts[slot] === 0) this.#order += String(slot);
      this.#counts[slot] = (this.#counts[slot] as number) + count;
    }
  }

  /** The markers of the run written so far; the writer is empty again. */
  take(): string {
    this.#flush();
    const out = this.#out;
    this.#out = '';
    return out;
  }

  #flush(): void {
    if (this.#codeCount === 0) return;
    let counts = '';
    for (const slot of this.#order) {
      const index = Number(slot);
      counts += `${(KIND_ORDER[index] as string)[0]}${this.#counts[index]}`;
      this.#counts[index] = 0;
    }
    this.#out += `\uFDD0${counts}:${this.#codes}\uFDD1`;
    this.#codes = '';
    this.#codeCount = 0;
    this.#order = '';
  }
}

// The hex of the characters met, which are few (tags, controls, selectors): written once each.
const hexCache = new Map<number, string>();

function hexOf(code: number): string {
  let hex = hexCache.get(code);
  if (hex === undefined) {
    hex = code.toString(16).toUpperCase();
    if (hexCache.size < 4096) hexCache.set(code, hex);
  }
  return hex;
}

function codePointCount(text: string): number {
  if (text.length === 1) return 1;
  let count = 0;
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    if (unit >= 0xd800 && unit <= 0xdbff && index + 1 < text.length) index++;
    count++;
  }
  return count;
}

function kindOfCode(code: number): RemovedKind {
  if (code >= 0xe0000 && code <= 0xe007f) return 'tag';
  if (code === 0x061c || code === 0x200e || code === 0x200f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return 'bidi';
  if (code <= 0x1f || (code >= 0x7f && code <= 0x9f)) return 'control';
  return 'invisible';
}

const KIND_OF_LETTER: Record<string, RemovedKind> = { t: 'tag', b: 'bidi', i: 'invisible', c: 'control' };

// Markers checked before, the newest few thousand: the same few (one right-to-left override) recur.
const checkedMarkers = new Map<string, HiddenUnit | undefined>();
const MAX_CHECKED_MARKERS = 4096;

/** The unit a marker stands for, or undefined when it is not exactly the marker its code points make. */
function markerUnit(marker: string, counts: string, hex: string): HiddenUnit | undefined {
  if (checkedMarkers.has(marker)) return checkedMarkers.get(marker);
  const unit = checkMarker(marker, counts, hex);
  if (checkedMarkers.size >= MAX_CHECKED_MARKERS) checkedMarkers.clear();
  checkedMarkers.set(marker, unit);
  return unit;
}

function checkMarker(marker: string, counts: string, hex: string): HiddenUnit | undefined {
  const points = hex.split('.').map((code) => Number.parseInt(code, 16));
  if (points.some((point) => point > 0x10ffff)) return undefined;
  const chars = String.fromCodePoint(...points);
  // Exactly the marker the neutraliser writes for these characters, when they are one run and all removed.
  const writer = new MarkerWriter();
  let covered = 0;
  forEachHidden(chars, (at, end, unitChars, kinds) => {
    if (at === covered) {
      writer.add(unitChars, kinds);
      covered = end;
    }
  });
  if (covered !== chars.length || writer.take() !== marker) return undefined;
  const kinds = [...counts.matchAll(/([tbic])(\d+)/g)].map(([, letter, count]): [RemovedKind, number] => [KIND_OF_LETTER[letter as string] as RemovedKind, Number(count)]);
  return { chars, kinds };
}

function keeps(ch: string, text: string, offset: number): boolean {
  // Only a carriage return, a joiner or a selector is ever kept: anything else needs no look around.
  const code = ch.charCodeAt(0);
  if (code !== 0x0d && code !== 0x200c && code !== 0x200d && !(code >= 0xfe00 && code <= 0xfe0f) && !(code >= 0x180b && code <= 0x180f) && !(code === 0xdb40 && ch.charCodeAt(1) >= 0xdd00)) return false;
  const before = charBefore(text, offset);
  const after = charAt(text, offset + ch.length);
  if (ch === '\r') return after === '\n';
  if (ch === '\u200d' || ch === '\u200c') {
    if (ch === '\u200d' && after !== undefined && PICTOGRAPH.test(after) && before !== undefined) {
      const base = EMOJI_MODIFIER.test(before) ? charBefore(text, offset - before.length) : before;
      if (base !== undefined && PICTOGRAPH.test(base)) return true;
    }
    return before !== undefined && after !== undefined && joins(before) && joins(after);
  }
  if (ANY_SELECTOR.test(ch)) {
    // One selector after a character it can vary chooses how that looks; anywhere else, and in a run,
    // selectors are a channel for hidden data.
    if (before === undefined || ANY_SELECTOR.test(before)) return false;
    if (EMOJI_SELECTOR.test(ch)) return EMOJI_BASE.test(before);
    if (SELECTOR.test(ch)) return SELECTOR_BASE.test(before);
    if (IDEOGRAPH_SELECTOR.test(ch)) return /\p{Ideographic}/u.test(before);
    if (MONGOLIAN_SELECTOR.test(ch)) return /\p{Script=Mongolian}/u.test(before) && /\p{L}/u.test(before);
  }
  return false;
}

// A joiner stays only between two letters (or their marks) that stay: which of them are kept never
// depends on what is removed beside them, so marking text a second time changes nothing.
function joins(ch: string): boolean {
  return JOINING_SCRIPT.test(ch) && LETTER_OR_MARK.test(ch) && !REMOVABLE.test(ch);
}

function kindOf(match: string): RemovedKind {
  if (TAG.test(match)) return 'tag';
  if (BIDI.test(match)) return 'bidi';
  if (CONTROL.test(match)) return 'control';
  return 'invisible';
}

function charBefore(text: string, offset: number): string | undefined {
  if (offset <= 0) return undefined;
  const low = text.charCodeAt(offset - 1);
  if (low >= 0xdc00 && low <= 0xdfff && offset >= 2) return text.slice(offset - 2, offset);
  return text[offset - 1];
}

function charAt(text: string, offset: number): string | undefined {
  const code = text.codePointAt(offset);
  return code === undefined ? undefined : String.fromCodePoint(code);
}
