// MCP Apps: what each view told the model (`ui/update-model-context`), kept per conversation and call.
// Each update replaces that view's previous one; every turn of the conversation gives the model the
// latest of each (chatService), and a reopened conversation shows it under the view again.

import type { Database, Migration } from '../../../../store/database.ts';
import { RowReader } from '../../../../store/rowReader.ts';
import type { ViewContextEntry } from '../contract/viewSandbox.ts';

export const viewContextMigrations: readonly Migration[] = [
  {
    id: 'view-context-1',
    sql: `
      CREATE TABLE view_context (
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        call_id TEXT NOT NULL,
        server_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        text TEXT NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (conversation_id, call_id)
      );
    `,
  },
];


export class ViewContextStore {
  private readonly db: Database;
  private readonly now: () => number;

  constructor(db: Database, options: { now?: () => number } = {}) {
    this.db = db;
    this.now = options.now ?? Date.now;
  }

  /** Replaces what the view of this call told the model; empty text takes it back. */
  set(conversationId: string, entry: Omit<ViewContextEntry, 'updatedAt'>): void {
    if (entry.text === '') {
      this.db.prepare('DELETE FROM view_context WHERE conversation_id = ? AND call_id = ?').run(conversationId, entry.callId);
      return;
    }
    this.db
      .prepare(
        `INSERT INTO view_context (conversation_id, call_id, server_id, tool, text, updated_at) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (conversation_id, call_id) DO UPDATE SET text = excluded.text, updated_at = excluded.updated_at`,
      )
      .run(conversationId, entry.callId, entry.serverId, entry.tool, entry.text, this.now());
  }

  /** Every view's latest, oldest first. */
  list(conversationId: string): ViewContextEntry[] {
    return this.db
      .prepare('SELECT * FROM view_context WHERE conversation_id = ? ORDER BY updated_at, call_id')
      .all(conversationId)
      .map((found) => {
        const row = new RowReader('view_context', found);
        return { callId: row.text('call_id'), serverId: row.text('server_id'), tool: row.text('tool'), text: row.text('text'), updatedAt: row.int('updated_at') };
      });
  }
}
