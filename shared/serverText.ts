// The one neutraliser for text a server sends. It runs where that text enters the host (every JSON-RPC
// message a transport delivers, every line a server writes to its log, what a view tells the model), so
// nothing above it holds a character that hides, reorders or drives a terminal (the rules are in
// hiddenCharacters.ts). Each run of such characters is replaced by a marker, which keeps where it was:
// the window shows it as a visible mark (invoice⟨U+202E⟩fdp.exe) and the terminal as `\u{202e}`,
// while the model, JSON output and the servers get the plain text (`neutraliseText`, `plainValue`): the
// characters gone, and prose with a note saying what was removed, so the model learns that something was
// taken out. Marking is idempotent: text already marked passes unchanged.

import type { KindCounts, RemovedCounts, RemovedKind } from './hiddenCharacters.ts';
import { forEachHidden, MAY_HIDE, MarkerWriter } from './hiddenCharacters.ts';

export type { RemovedCounts, RemovedKind };

export interface NeutralisedText {
  text: string;
  removed: RemovedCounts;
}

/** `text` with every run of hiding characters replaced by its marker (raw text or text marked before). */
export function markHidden(text: string, removed?: RemovedCounts): string {
  const writer = new MarkerWriter();
  let out = '';
  let last = 0;
  let changed = false;
  forEachHidden(text, (at, end, chars, kinds) => {
    // A gap of kept text ends the run: its markers go before the gap.
    if (at !== last || !changed) out += writer.take() + text.slice(last, at);
    writer.add(chars, kinds);
    last = end;
    changed = true;
    if (removed) count(kinds, removed);
  });
  return changed ? out + writer.take() + text.slice(last) : text;
}

/** `text` (raw or marked) without any hiding character or marker, and what was removed. */
export function neutraliseText(text: string): NeutralisedText {
  const removed: RemovedCounts = {};
  let out = '';
  let last = 0;
  let changed = false;
  forEachHidden(text, (at, end, _chars, kinds) => {
    out += text.slice(last, at);
    last = end;
    changed = true;
    count(kinds, removed);
  });
  return { text: changed ? out + text.slice(last) : text, removed };
}

function count(kinds: KindCounts, removed: RemovedCounts): void {
  for (const [kind, n] of kinds) removed[kind] = (removed[kind] ?? 0) + n;
}

const KIND_WORDS: Record<RemovedKind, string> = {
  tag: 'invisible tag characters',
  bidi: 'bidirectional controls',
  invisible: 'zero-width characters',
  control: 'control characters',
};

/** What a note calls each kind of removed character. */
export function kindWords(kind: RemovedKind): string {
  return KIND_WORDS[kind];
}

/** The note added to prose from which characters were removed, so the model and the person know. */
export function removalNote(removed: RemovedCounts): string {
  const kinds = (Object.keys(removed) as RemovedKind[]).filter((kind) => (removed[kind] ?? 0) > 0);
  if (kinds.length === 0) return '';
  const total = kinds.reduce((sum, kind) => sum + (removed[kind] ?? 0), 0);
  const what = kinds.map((kind) => KIND_WORDS[kind]).join(', ');
  return `[Atrium removed ${total} hidden character${total === 1 ? '' : 's'} from this text: ${what}]`;
}

/** Prose as the model reads it: without hiding characters or markers, and the note when any were removed. */
export function neutraliseProse(text: string): string {
  const { text: clean, removed } = neutraliseText(text);
  const note = removalNote(removed);
  return note ? `${clean}${clean === '' || /\s$/.test(clean) ? '' : ' '}${note}` : clean;
}

/** The first `length` characters of marked text, shortened to the start of a marker it would cut in two. */
export function sliceMarked(text: string, length: number): string {
  const open = text.lastIndexOf('\uFDD0', length - 1);
  return open !== -1 && text.indexOf('\uFDD1', open) >= length ? text.slice(0, open) : text.slice(0, length);
}

// Keys whose strings are matched against fixed values or handed back as protocol tokens (or opened, as a
// URL elicitation's address): cleaned, never marked or given a note.
const PROTOCOL_KEYS = new Set([
  'jsonrpc', 'method', 'id', 'mimeType', 'type', 'role', 'cursor', 'nextCursor', 'progressToken', 'elicitationId', 'requestId',
  'protocolVersion', 'level', 'mode', 'action', 'format', 'pattern', 'const', 'enum', 'required', '$schema', '$ref', '$id', 'stopReason', 'url',
]);
// Keys whose strings are names, addresses, or data: marked, so the person sees a hidden character in a
// name, but never given a note, which would change what they identify.
const NAME_KEYS = new Set(['name', 'uri', 'uriTemplate', 'resourceUri', 'version', 'logger', 'model', 'data', 'blob']);

/** Everything `removed` adds up to over one message, for the server's log. */
export interface MessageReport {
  removed: RemovedCounts;
}

/**
 * A server's JSON value (a whole JSON-RPC message) with every string marked and every key cleaned;
 * protocol strings are cleaned, not marked. Returns the same value when nothing needed changing.
 * `keepAsWritten` names strings to leave alone (a view's page, read for the view sandbox only).
 */
export function markServerValue<T>(value: T, report: MessageReport = { removed: {} }, keepAsWritten?: (key: string, holder: object) => boolean): T {
  return mayNeedChange(value) ? (walk(value, undefined, (text, key) => markString(text, key, report), keepAsWritten) as T) : value;
}

function markString(text: string, key: string | undefined, report: MessageReport): string {
  if (key === undefined || !PROTOCOL_KEYS.has(key)) return markHidden(text, report.removed);
  const { text: clean, removed } = neutraliseText(text);
  for (const kind of Object.keys(removed) as RemovedKind[]) report.removed[kind] = (report.removed[kind] ?? 0) + (removed[kind] ?? 0);
  return clean;
}

/**
 * A value as the model and JSON output take it: markers and hiding characters removed, prose with its
 * note, names and protocol strings without one. For a message the transport marked, this is what
 * the neutraliser made of it before it kept marks.
 */
export function plainValue<T>(value: T): T {
  return mayNeedChange(value) ? (walk(value, undefined, plainString) as T) : value;
}

function plainString(text: string, key: string | undefined): string {
  return key !== undefined && (PROTOCOL_KEYS.has(key) || NAME_KEYS.has(key)) ? neutraliseText(text).text : neutraliseProse(text);
}

/** A value without Atrium's markers (for a server: the names and addresses it is sent back are plain). */
export function withoutMarks<T>(value: T): T {
  return mayNeedChange(value) ? (walk(value, undefined, unmark, undefined, false) as T) : value;
}

function unmark(text: string): string {
  return text.includes('\uFDD0') ? text.replace(/\uFDD0[^\uFDD0\uFDD1]*\uFDD1/g, (marker) => (markHidden(marker) === marker ? '' : marker)) : text;
}

/**
 * Whether any string or key in `value` has a candidate character. Every message of every server passes
 * here and nearly all are clean, so this first look allocates nothing (no key lists, no copies) and
 * stops at the first candidate; only then does `walk` judge each character and copy what changes.
 */
function mayNeedChange(value: unknown): boolean {
  if (typeof value === 'string') return MAY_HIDE.test(value);
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) if (mayNeedChange(value[index])) return true;
    return false;
  }
  const object = value as Record<string, unknown>;
  for (const name in object) {
    if (!keysWithoutCandidates.has(name)) {
      if (MAY_HIDE.test(name)) return true;
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

type StringRule = (text: string, key: string | undefined) => string;

// Copies only from the first change: a string with no candidate character is returned as it is, and an
// array or object is copied from its first changed item on. Keys are cleaned (they are structure),
// except on the way out, where only markers go.
function walk(value: unknown, key: string | undefined, rule: StringRule, keepAsWritten?: (key: string, holder: object) => boolean, cleanKeys = true): unknown {
  if (typeof value === 'string') return MAY_HIDE.test(value) ? rule(value, key) : value;
  if (Array.isArray(value)) {
    let items: unknown[] | undefined;
    for (let index = 0; index < value.length; index++) {
      const item: unknown = value[index];
      // An array's items are named by the array's key (an enum's values, a required list).
      const next = walk(item, key, rule, keepAsWritten, cleanKeys);
      if (next !== item && items === undefined) items = value.slice(0, index);
      items?.push(next);
    }
    return items ?? value;
  }
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const names = Object.keys(object);
    // Entries, not assignments, for the copy: a key "__proto__" from JSON stays a key.
    let entries: [string, unknown][] | undefined;
    for (let index = 0; index < names.length; index++) {
      const name = names[index] as string;
      const item = object[name];
      const cleanName = cleanKeys && MAY_HIDE.test(name) ? neutraliseText(name).text : name;
      const next = keepAsWritten?.(name, object) ? item : walk(item, cleanName, rule, keepAsWritten, cleanKeys);
      if ((next !== item || cleanName !== name) && entries === undefined) entries = names.slice(0, index).map((earlier) => [earlier, object[earlier]]);
      entries?.push([cleanName, next]);
    }
    return entries ? Object.fromEntries(entries) : value;
  }
  return value;
}

// JSON.stringify already escapes C0; these are the characters it leaves raw.
const RAW_IN_JSON = /[\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u206f\ufeff]|[\u{e0000}-\u{e007f}]/gu;

/**
 * JSON text for a terminal or a script: server text in it as the model reads it (plainValue), and no
 * character that can drive a terminal or reorder a line: JSON.stringify already escapes C0 controls;
 * this escapes DEL, C1, bidi controls, zero-width and tag characters too.
 */
export function safeJson(value: unknown, indent?: number): string {
  return JSON.stringify(plainValue(value), null, indent).replace(RAW_IN_JSON, (ch) =>
    ch.length === 2 ? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}\\u${ch.charCodeAt(1).toString(16).padStart(4, '0')}` : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
