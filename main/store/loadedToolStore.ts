// The tools each conversation loaded through the tool search or called, so a later turn keeps them
// loaded instead of searching again (the agent loop's LoadedTools). Bounded per conversation: the most
// recently used few dozen; older ones fall out and are found again by a search when needed.

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
];

/** How many tools a conversation keeps loaded from earlier turns. */
export const MAX_KEPT_TOOLS = 24;

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
    return this.db
      .prepare('SELECT model_name FROM loaded_tools WHERE conversation_id = ? ORDER BY last_used_at DESC, uses DESC, model_name LIMIT ?')
      .all(conversationId, MAX_KEPT_TOOLS)
      .map((found) => new RowReader('loaded_tools', found).text('model_name'));
  }

  note(conversationId: string, modelNames: readonly string[]): void {
    if (modelNames.length === 0) return;
    // Several in one moment keep their order: the first named is the most recent.
    const at = Math.max(this.now(), this.tick + modelNames.length);
    this.tick = at;
    const upsert = this.db.prepare(
      `INSERT INTO loaded_tools (conversation_id, model_name, last_used_at) VALUES (?, ?, ?)
       ON CONFLICT (conversation_id, model_name) DO UPDATE SET last_used_at = excluded.last_used_at, uses = uses + 1`,
    );
    modelNames.forEach((name, index) => upsert.run(conversationId, name, at - index));
    this.db
      .prepare(
        `DELETE FROM loaded_tools WHERE conversation_id = ? AND model_name NOT IN (
           SELECT model_name FROM loaded_tools WHERE conversation_id = ? ORDER BY last_used_at DESC, uses DESC, model_name LIMIT ?)`,
      )
      .run(conversationId, conversationId, MAX_KEPT_TOOLS);
  }
}
