// The one neutraliser for text a server sends. It runs where that text enters the host (every JSON-RPC
// message a transport delivers, every line a server writes to its log), so the model, the window, the
// terminal and JSON output all start from the same safe text: characters that hide text (Unicode tag
// characters, zero-width characters, variation-selector runs), reorder it (bidi controls) or drive a
// terminal (ANSI escape sequences, C0 and C1 controls) are removed, and prose says so in a note, so the
// model and the person learn that something was taken out. What is kept: newlines, tabs and CRLF;
// base64 (never matches); right-to-left scripts written without controls (a browser and a terminal lay
// them out by themselves); a zero-width joiner inside an emoji sequence (👩‍💻) and a ZWJ / ZWNJ between
// two letters of a script that needs them (Arabic, Persian, the Indic scripts), since removing those
// changes how a word is written; one variation selector after a character (❤️), and the three RGI
// subdivision flags (🏴󠁧󠁢󠁥󠁮󠁧󠁿), whose tag characters spell only gbeng / gbsct / gbwls.
import { VIEW_MIME_TYPE } from '../main/mcp/extensions/apps/contract/viewSandbox.ts';

export type RemovedKind = 'tag' | 'bidi' | 'invisible' | 'control';

export type RemovedCounts = Partial<Record<RemovedKind, number>>;

export interface NeutralisedText {
  text: string;
  removed: RemovedCounts;
}

const FLAG = '\\u{1F3F4}\\u{E0067}\\u{E0062}(?:\\u{E0065}\\u{E006E}\\u{E0067}|\\u{E0073}\\u{E0063}\\u{E0074}|\\u{E0077}\\u{E006C}\\u{E0073})\\u{E007F}';
// A whole terminal escape sequence goes as one: CSI (colours, cursor, clear screen), OSC (window title,
// hyperlinks) ended by BEL or ST, and the two-character ESC forms.
const ANSI = '\\u001b\\[[0-?]*[ -/]*[@-~]|\\u001b\\][^\\u0007\\u001b]*(?:\\u0007|\\u001b\\\\)?|\\u001b[@-Z\\\\-_]|\\u009b[0-?]*[ -/]*[@-~]|\\u009d[^\\u0007\\u009c]*[\\u0007\\u009c]?';
const SINGLE =
  '[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f\\u00ad\\u061c\\u115f\\u1160\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0\\ufff9-\\ufffb]|[\\u{e0000}-\\u{e007f}]|[\\u{e0100}-\\u{e01ef}]|[\\u{1d173}-\\u{1d17a}]';
// eslint-disable-next-line no-misleading-character-class -- joiners and selectors are matched one by one on purpose, to judge each.
const CANDIDATE = new RegExp(`(${FLAG})|${ANSI}|${SINGLE}`, 'gu');

// A quick scan without the Unicode flag (much faster over megabytes): any code unit that may start a
// candidate, tag and supplementary selectors by their high surrogates.
// eslint-disable-next-line no-control-regex, no-misleading-character-class -- a scan of code units, on purpose.
const MAYBE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff9-\ufffb\udb40\ud834]/;
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;
const TAG = /[\u{e0000}-\u{e007f}]/u;
// eslint-disable-next-line no-control-regex -- control characters are what this names.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const JOINING_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Khmer}\p{Script=Myanmar}]/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
// eslint-disable-next-line no-misleading-character-class -- joiners and selectors are matched one by one on purpose, to judge each.
const EMOJI_MODIFIER = /[\u{1f3fb}-\u{1f3ff}\ufe0f]/u;
const VARIATION = /[\ufe00-\ufe0f\u{e0100}-\u{e01ef}]/u;

// eslint-disable-next-line no-misleading-character-class -- joiners and selectors are matched one by one on purpose, to judge each.
const MARKABLE = new RegExp(`(${FLAG})|${SINGLE}`, 'gu');

/**
 * Calls `each` for every character neutraliseText would remove, one at a time (an ANSI sequence's ESC
 * alone), with what to put in its place; what it keeps stays. For views that show marks instead.
 */
export function replaceHidden(text: string, each: (ch: string, offset: number) => string): string {
  return text.replace(MARKABLE, (match: string, flag: string | undefined, offset: number) => (flag || keeps(match, text, offset) ? match : each(match, offset)));
}

/** `text` with every hiding, reordering or terminal-driving character removed, and what was removed. */
export function neutraliseText(text: string): NeutralisedText {
  const removed: RemovedCounts = {};
  if (!MAYBE.test(text)) return { text, removed };
  const out = text.replace(CANDIDATE, (match: string, flag: string | undefined, offset: number) => {
    if (flag) return match;
    if (keeps(match, text, offset)) return match;
    const kind = kindOf(match);
    removed[kind] = (removed[kind] ?? 0) + [...match].length;
    return '';
  });
  return { text: out, removed };
}

function keeps(ch: string, text: string, offset: number): boolean {
  const before = charBefore(text, offset);
  const after = charAt(text, offset + ch.length);
  if (ch === '\r') return after === '\n';
  if (ch === '\u200d' || ch === '\u200c') {
    if (ch === '\u200d' && after !== undefined && PICTOGRAPH.test(after) && before !== undefined) {
      const base = EMOJI_MODIFIER.test(before) ? charBefore(text, offset - before.length) : before;
      if (base !== undefined && PICTOGRAPH.test(base)) return true;
    }
    return before !== undefined && after !== undefined && JOINING_SCRIPT.test(before) && JOINING_SCRIPT.test(after);
  }
  if (VARIATION.test(ch)) {
    // One selector after a visible character chooses how it looks; a run of them is a channel for hidden data.
    if (before === undefined || VARIATION.test(before) || CONTROL.test(before)) return false;
    return ch.length === 1 || /\p{Ideographic}/u.test(before);
  }
  return false;
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

const KIND_WORDS: Record<RemovedKind, string> = {
  tag: 'invisible tag characters',
  bidi: 'bidirectional controls',
  invisible: 'zero-width characters',
  control: 'control characters',
};

/** The note added to prose from which characters were removed, so the model and the person know. */
export function removalNote(removed: RemovedCounts): string {
  const kinds = (Object.keys(removed) as RemovedKind[]).filter((kind) => (removed[kind] ?? 0) > 0);
  if (kinds.length === 0) return '';
  const total = kinds.reduce((sum, kind) => sum + (removed[kind] ?? 0), 0);
  const what = kinds.map((kind) => KIND_WORDS[kind]).join(', ');
  return `[Atrium removed ${total} hidden character${total === 1 ? '' : 's'} from this text: ${what}]`;
}

/** Prose with its removal note appended (after a space), or as it was when nothing was removed. */
export function neutraliseProse(text: string): string {
  const { text: clean, removed } = neutraliseText(text);
  const note = removalNote(removed);
  return note ? `${clean}${clean === '' || /\s$/.test(clean) ? '' : ' '}${note}` : clean;
}

// Keys whose strings are names, addresses, codes or encoded bytes: cleaned, but never given a note,
// which would change what they identify more than the removal already did.
const IDENTIFIER_KEYS = new Set([
  'jsonrpc', 'method', 'id', 'name', 'uri', 'uriTemplate', 'url', 'mimeType', 'type', 'role', 'cursor', 'nextCursor',
  'progressToken', 'elicitationId', 'requestId', 'protocolVersion', 'version', 'logger', 'level', 'mode', 'action',
  'data', 'blob', 'format', 'pattern', 'const', 'enum', 'required', '$schema', '$ref', '$id', 'stopReason', 'model',
]);

/** Everything `removed` adds up to over one message, for the server's log. */
export interface MessageReport {
  removed: RemovedCounts;
}

/**
 * A server's JSON value (a whole JSON-RPC message) with every string and key neutralised. Prose
 * strings carry the removal note; names, addresses and base64 do not. Returns the same value when
 * nothing needed changing.
 */
export function neutraliseServerValue<T>(value: T, report: MessageReport = { removed: {} }): T {
  return mayNeedChange(value) ? (walk(value, undefined, report) as T) : value;
}

/**
 * Whether any string or key in `value` has a candidate character. Every message of every server passes
 * here and nearly all are clean, so this first look allocates nothing (no key lists, no copies) and
 * stops at the first candidate; only then does `walk` judge each character and copy what changes.
 */
function mayNeedChange(value: unknown): boolean {
  if (typeof value === 'string') return MAYBE.test(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (mayNeedChange(value[index])) return true;
    return false;
  }
  const object = value as Record<string, unknown>;
  for (const name in object) {
    if (!keysWithoutCandidates.has(name)) {
      if (MAYBE.test(name)) return true;
      if (keysWithoutCandidates.size < MAX_REMEMBERED_KEYS) keysWithoutCandidates.add(name);
    }
    if (mayNeedChange(object[name])) return true;
  }
  return false;
}

// Messages use the same few keys over and over (jsonrpc, id, result, content, type, text); one lookup
// of a key seen clean before is cheaper than scanning it again. Bounded, so a server that sends
// ever-new keys cannot make it grow: past the bound, new keys are simply scanned each time.
const MAX_REMEMBERED_KEYS = 1024;
const keysWithoutCandidates = new Set<string>();

// Copies only from the first change: a string with no candidate character is returned as it is, and an
// array or object is copied from its first changed item on.
function walk(value: unknown, key: string | undefined, report: MessageReport): unknown {
  if (typeof value === 'string') {
    if (!MAYBE.test(value)) return value;
    const { text, removed } = neutraliseText(value);
    if (text === value) return value;
    for (const kind of Object.keys(removed) as RemovedKind[]) report.removed[kind] = (report.removed[kind] ?? 0) + (removed[kind] ?? 0);
    if (key !== undefined && IDENTIFIER_KEYS.has(key)) return text;
    const note = removalNote(removed);
    return `${text}${text === '' || /\s$/.test(text) ? '' : ' '}${note}`;
  }
  if (Array.isArray(value)) {
    let items: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      // An array's items are named by the array's key (an enum's values, a required list).
      const next = walk(item, key, report);
      if (next !== item && items === undefined) items = value.slice(0, index);
      items?.push(next);
    }
    return items ?? value;
  }
  if (value !== null && typeof value === 'object') {
    const code = isViewDocument(value);
    const object = value as Record<string, unknown>;
    const names = Object.keys(object);
    // Entries, not assignments, for the copy: a key "__proto__" from JSON stays a key.
    let entries: [string, unknown][] | undefined;
    for (let index = 0; index < names.length; index++) {
      const name = names[index] as string;
      const item = object[name];
      const cleanName = MAYBE.test(name) ? neutraliseText(name).text : name;
      const next = code && (name === 'text' || name === 'blob') ? item : walk(item, cleanName, report);
      if ((next !== item || cleanName !== name) && entries === undefined) entries = names.slice(0, index).map((earlier) => [earlier, object[earlier]]);
      entries?.push([cleanName, next]);
    }
    return entries ? Object.fromEntries(entries) : value;
  }
  return value;
}

/**
 * An MCP Apps view's page (a `ui://` resource of type `text/html;profile=mcp-app`) is code, kept as its
 * server wrote it: removing characters from its scripts (pdf.js has bidi controls in its strings) breaks
 * it, and it never reaches the model or a person as text — it runs only in the view sandbox. Where such a
 * page could become text someone reads (the terminal, a resource attached to a message), that consumer
 * cleans or marks it itself.
 */
function isViewDocument(value: object): boolean {
  const { uri, mimeType } = value as { uri?: unknown; mimeType?: unknown };
  return typeof uri === 'string' && uri.startsWith('ui://') && typeof mimeType === 'string' && mimeType.replace(/\s+/g, '').toLowerCase() === VIEW_MIME_TYPE;
}

// JSON.stringify already escapes C0; these are the characters it leaves raw.
const RAW_IN_JSON = /[\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u206f\ufeff]|[\u{e0000}-\u{e007f}]/gu;

/**
 * JSON text in which no character can drive a terminal or reorder a line: JSON.stringify already
 * escapes C0 controls; this escapes DEL, C1, bidi controls, zero-width and tag characters too.
 */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(RAW_IN_JSON, (ch) =>
    ch.length === 2 ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}\\u${ch.charCodeAt(1).toString(16).padStart(4, '0')}` : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
