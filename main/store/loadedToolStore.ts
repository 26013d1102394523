// The tools each conversation loaded through the tool search, called, or was given by the person's hand,
// so a later turn keeps them loaded instead of searching again (the agent loop's LoadedTools), and the
// window can say why each is there. Bounded per conversation: the most recently used few dozen; older
// ones fall out and are found again by a search when needed.

import type { LoadedHow } from '../../shared/domain.ts';
import type { Database, Migration } from './database.ts';
import { RowReader } from './rowReader.ts';

export const loadedToolMigrations: readonly Migration[] = [
  {
    id: 'loaded-tools-1',
    sql: `
      CREATE TABLE loaded_tools (
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        model_name TEXT NOT NULL,
        last_used_at INTEGER NOT NULL,
        uses INTEGER NOT NULL DEFAULT 1,
        PRIMARY KEY (conversation_id, model_name)
      );
    `,
  },
  {
    // How each came to be loaded: a search (with its words), a call, or the person's hand.
    id: 'loaded-tools-2',
    sql: `
      ALTER TABLE loaded_tools ADD COLUMN how TEXT NOT NULL DEFAULT 'search';
      ALTER TABLE loaded_tools ADD COLUMN query TEXT;
    `,
  },
];

/** How many tools a conversation keeps loaded from earlier turns. */
export const MAX_KEPT_TOOLS = 24;

export interface LoadedToolEntry {
  modelName: string;
  how: LoadedHow;
}

export class LoadedToolStore {
  private readonly db: Database;
  private readonly now: () => number;
  private tick = 0;

  constructor(db: Database, options: { now?: () => number } = {}) {
    this.db = db;
    this.now = options.now ?? Date.now;
  }

  /** Model-facing names, most recently used first. */
  of(conversationId: string): string[] {
    return this.entries(conversationId).map((entry) => entry.modelName);
  }

  /** What the person loaded by hand: sent loaded even to a provider that defers the rest. */
  loadedByHand(conversationId: string): string[] {
    return this.entries(conversationId).flatMap((entry) => (entry.how.kind === 'by-hand' ? [entry.modelName] : []));
  }

  /** Each kept tool with how it came, most recently used first. */
  entries(conversationId: string): LoadedToolEntry[] {
    return this.db
      .prepare('SELECT model_name, how, query FROM loaded_tools WHERE conversation_id = ? ORDER BY last_used_at DESC, uses DESC, model_name LIMIT ?')
      .all(conversationId, MAX_KEPT_TOOLS)
      .map((found) => {
        const row = new RowReader('loaded_tools', found);
        return { modelName: row.text('model_name'), how: howOf(row.text('how'), row.optText('query')) };
      });
  }

  /**
   * Notes tools used now (the first named is the most recent). How a tool first came stays what is said
   * of it — a later call does not make a found tool "called" — unless the person now loads it by hand.
   */
  note(conversationId: string, modelNames: readonly string[], how: LoadedHow = { kind: 'called' }): void {
    if (modelNames.length === 0) return;
    // Several in one moment keep their order: the first named is the most recent.
    const at = Math.max(this.now(), this.tick + modelNames.length);
    this.tick = at;
    const upsert = this.db.prepare(
      `INSERT INTO loaded_tools (conversation_id, model_name, last_used_at, how, query) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (conversation_id, model_name) DO UPDATE SET last_used_at = excluded.last_used_at, uses = uses + 1,
         how = CASE WHEN excluded.how = 'by-hand' THEN excluded.how ELSE how END,
         query = CASE WHEN excluded.how = 'by-hand' THEN NULL ELSE query END`,
    );
    const query = how.kind === 'search' ? how.query : null;
    modelNames.forEach((name, index) => upsert.run(conversationId, name, at - index, how.kind, query));
    this.db
      .prepare(
        `DELETE FROM loaded_tools WHERE conversation_id = ? AND model_name NOT IN (
           SELECT model_name FROM loaded_tools WHERE conversation_id = ? ORDER BY last_used_at DESC, uses DESC, model_name LIMIT ?)`,
      )
      .run(conversationId, conversationId, MAX_KEPT_TOOLS);
  }

  /** The person unloads a tool from the conversation: the model finds it again by searching. */
  forget(conversationId: string, modelName: string): void {
    this.db.prepare('DELETE FROM loaded_tools WHERE conversation_id = ? AND model_name = ?').run(conversationId, modelName);
  }
}

function howOf(kind: string, query: string | undefined): LoadedHow {
  if (kind === 'by-hand') return { kind: 'by-hand' };
  if (kind === 'search' && query !== undefined) return { kind: 'search', query };
  return { kind: 'called' };
}
