// What the person typed in each conversation's message box and did not send, kept by the host in
// atrium.db (never in the window's origin storage, where another page later served on the same port
// could read it). A draft belongs to a conversation and goes with it; "new" is the one not yet started.
// The store announces each change, so every window shows the same words. A draft that is an edit of the
// person's last message says which message it replaces, so the edit survives a reload as an edit.

import { ChangeListeners } from '../changeListeners.ts';
import type { Database, Migration } from './database.ts';
import type { HistoryStore } from './historyStore.ts';
import type { Draft } from '../../shared/contract.ts';
import { readRows } from './rowReader.ts';

export const draftMigrations: Migration[] = [
  {
    id: 'drafts-1',
    sql: `
      CREATE TABLE drafts (
        conversation_key TEXT PRIMARY KEY,
        conversation_id TEXT REFERENCES conversations (id) ON DELETE CASCADE,
        text TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      );
    `,
  },
  {
    id: 'drafts-2-replaces',
    // The id of the message the draft is an edit of (sent in its place), or NULL for new words.
    sql: 'ALTER TABLE drafts ADD COLUMN replaces TEXT;',
  },
];

/** The draft of the conversation not started yet. */
export const NEW_CONVERSATION_KEY = 'new';

/** A draft as it is now: empty text means none. */
export interface DraftChange extends Draft {
  conversationKey: string;
}

function prepareStatements(db: Database) {
  return {
    list: db.prepare('SELECT conversation_key, text, replaces FROM drafts ORDER BY updated_at'),
    // A draft for a conversation that is not there (deleted meanwhile) is not kept: the foreign key refuses it.
    save: db.prepare(`
      INSERT INTO drafts (conversation_key, conversation_id, text, replaces, updated_at)
      SELECT :key, CASE WHEN :key = 'new' THEN NULL ELSE :key END, :text, :replaces, :now
      WHERE :key = 'new' OR EXISTS (SELECT 1 FROM conversations WHERE id = :key)
      ON CONFLICT (conversation_key) DO UPDATE SET text = excluded.text, replaces = excluded.replaces, updated_at = excluded.updated_at
      WHERE drafts.text <> excluded.text OR drafts.replaces IS NOT excluded.replaces`),
    remove: db.prepare('DELETE FROM drafts WHERE conversation_key = ?'),
  };
}

export class DraftStore {
  private readonly sql: ReturnType<typeof prepareStatements>;
  private readonly now: () => number;
  private readonly changes = new ChangeListeners<DraftChange>();

  /** `db` must have been opened with `historyMigrations` and then `draftMigrations`; a conversation's draft goes when `history` deletes it. */
  constructor(db: Database, history: HistoryStore, now: () => number = Date.now) {
    this.sql = prepareStatements(db);
    this.now = now;
    // The database removes the draft with its conversation; the windows still need telling.
    history.onConversationChange((change) => {
      if (change.kind !== 'deleted') return;
      this.sql.remove.run(change.conversationId);
      this.changes.tell({ conversationKey: change.conversationId, text: '' });
    });
  }

  /** Every draft, by conversation key, the one written longest ago first. */
  list(): Record<string, Draft> {
    return Object.fromEntries(
      readRows('drafts', this.sql.list.all(), (row) => {
        const replaces = row.optText('replaces');
        return [row.text('conversation_key'), { text: row.text('text'), ...(replaces ? { replaces } : {}) }] as const;
      }),
    );
  }

  /**
   * Keeps `text` as the conversation's draft (empty text: no draft), with `replaces` when it is an edit
   * of that message (never for the conversation not started). A draft for a conversation that is no
   * longer there is dropped; false when nothing changed.
   */
  save(conversationKey: string, text: string, replaces?: string): boolean {
    if (text === '') return this.remove(conversationKey);
    const edit = conversationKey === NEW_CONVERSATION_KEY ? undefined : replaces;
    const saved = Number(this.sql.save.run({ key: conversationKey, text, replaces: edit ?? null, now: this.now() }).changes) > 0;
    if (saved) this.changes.tell({ conversationKey, text, ...(edit ? { replaces: edit } : {}) });
    return saved;
  }

  /** Told of every draft saved or removed (also with its conversation). */
  onChange(listener: (change: DraftChange) => void): () => void {
    return this.changes.add(listener);
  }

  private remove(conversationKey: string): boolean {
    const removed = Number(this.sql.remove.run(conversationKey).changes) > 0;
    if (removed) this.changes.tell({ conversationKey, text: '' });
    return removed;
  }
}
