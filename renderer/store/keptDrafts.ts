// What is written in each conversation's message box, kept in the window's local storage so a reload (or
// a restart of the app) does not lose words typed but not sent — after a failed send most of all. Only
// the person's own words are kept, on this machine, for the newest conversations.

const STORAGE_KEY = 'atrium.drafts';
/** Drafts kept at most; the oldest written goes first. */
const MAX_DRAFTS = 50;

/** The window's local storage, or none where there is none (tests in Node, storage turned off). */
function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

/** The drafts kept from an earlier page; none when nothing (or nothing readable) was kept. */
export function loadKeptDrafts(): Record<string, string> {
  try {
    const kept: unknown = JSON.parse(storage()?.getItem(STORAGE_KEY) ?? '{}');
    if (typeof kept !== 'object' || kept === null || Array.isArray(kept)) return {};
    return Object.fromEntries(Object.entries(kept).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
  } catch {
    return {};
  }
}

/** Keeps `drafts` (insertion order is age: the newest last); a full or refused storage keeps nothing new. */
export function keepDrafts(drafts: Record<string, string>): void {
  const entries = Object.entries(drafts);
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify(Object.fromEntries(entries.slice(-MAX_DRAFTS))));
  } catch {
    // Quota or privacy settings: the draft still lives in the window until it is closed.
  }
}

/** How long typing may pause before the drafts are written: not at every keystroke, for a long paste. */
const KEEP_AFTER_MS = 300;
let waiting: Record<string, string> | undefined;
let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Keeps `drafts` once typing pauses, or at once when the page goes away (a reload, the window closed),
 * so a long draft is not written again at every keystroke.
 */
export function keepDraftsSoon(drafts: Record<string, string>): void {
  if (waiting === undefined) globalThis.addEventListener?.('pagehide', keepWaitingDrafts, { once: true });
  waiting = drafts;
  clearTimeout(timer);
  timer = setTimeout(keepWaitingDrafts, KEEP_AFTER_MS);
}

function keepWaitingDrafts(): void {
  clearTimeout(timer);
  globalThis.removeEventListener?.('pagehide', keepWaitingDrafts);
  if (waiting !== undefined) keepDrafts(waiting);
  waiting = undefined;
}
