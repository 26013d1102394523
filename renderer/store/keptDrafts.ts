// The window's side of the drafts the host keeps (main/store/draftStore.ts). What the person types is
// sent once typing pauses — or at once when the page goes away (a reload, the window closed) — one
// request per conversation, so a long paste is not sent at every keystroke. Nothing is written to the
// window's own storage: another page served later on the same port could read it. Drafts an older
// Atrium left there are handed to the host once, then cleared.

import type { Draft } from '../../shared/contract.ts';

/** How long typing may pause before its draft is sent. */
const SEND_AFTER_MS = 300;

export class DraftKeeper {
  private readonly save: (conversationKey: string, draft: Draft) => Promise<unknown>;
  /** Typed here and not sent yet, by conversation key. */
  private readonly waiting = new Map<string, Draft>();
  /** Saves on their way to the host, by conversation key. */
  private readonly sending = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly onPageHide = () => void this.flush();

  constructor(save: (conversationKey: string, draft: Draft) => Promise<unknown>) {
    this.save = save;
    globalThis.addEventListener?.('pagehide', this.onPageHide);
  }

  /** The person changed a conversation's words (to nothing, when sent or emptied), or began or ended an edit. */
  typed(conversationKey: string, draft: Draft): void {
    this.waiting.set(conversationKey, draft);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.flush(), SEND_AFTER_MS);
  }

  /**
   * Whether this window has words for the conversation the host has not confirmed yet: what the host
   * announces or lists for it meanwhile is older than what is in the box.
   */
  isWriting(conversationKey: string): boolean {
    return this.waiting.has(conversationKey) || (this.sending.get(conversationKey) ?? 0) > 0;
  }

  /** Sends every draft waiting; true once the host has them all. One the host did not take waits for the next flush. */
  async flush(): Promise<boolean> {
    clearTimeout(this.timer);
    const batch = [...this.waiting];
    this.waiting.clear();
    const sent = await Promise.all(batch.map(([key, draft]) => this.send(key, draft)));
    return sent.every(Boolean);
  }

  /** The window lets go of the host: what waits is sent now. */
  dispose(): void {
    globalThis.removeEventListener?.('pagehide', this.onPageHide);
    void this.flush();
  }

  private async send(conversationKey: string, draft: Draft): Promise<boolean> {
    this.sending.set(conversationKey, (this.sending.get(conversationKey) ?? 0) + 1);
    try {
      await this.save(conversationKey, draft);
      return true;
    } catch {
      // The link is down: the words wait (unless newer ones did meanwhile) and go with the next flush.
      if (!this.waiting.has(conversationKey)) this.waiting.set(conversationKey, draft);
      return false;
    } finally {
      this.sending.set(conversationKey, (this.sending.get(conversationKey) ?? 1) - 1);
      if (this.sending.get(conversationKey) === 0) this.sending.delete(conversationKey);
    }
  }
}

/** Where an older Atrium kept drafts, in the window's local storage. */
const LEGACY_KEY = 'atrium.drafts';

/** The window's local storage, or none where there is none (tests in Node, storage turned off). */
function storage(): Storage | undefined {
  try {
    return globalThis.localStorage ?? undefined;
  } catch {
    return undefined;
  }
}

/** The drafts an older Atrium left in this origin's storage; none when nothing (or nothing readable) is there. */
export function legacyDrafts(): Record<string, string> {
  try {
    const kept: unknown = JSON.parse(storage()?.getItem(LEGACY_KEY) ?? '{}');
    if (typeof kept !== 'object' || kept === null || Array.isArray(kept)) return {};
    return Object.fromEntries(Object.entries(kept).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''));
  } catch {
    return {};
  }
}

/** Removes what an older Atrium left in this origin's storage. */
export function clearLegacyDrafts(): void {
  try {
    storage()?.removeItem(LEGACY_KEY);
  } catch {
    // Storage turned off: there is nothing there to clear.
  }
}
