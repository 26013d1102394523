// The lines Atrium adds to a conversation, beside its messages: today, a tool withheld from the model
// because it changed since the person approved it. Each is saved once per conversation and definition,
// after the conversation's latest message, so a reload shows it where it happened. One of the history's
// stores (historyStore.ts opens the tables).

import type { ConversationNote } from '../../shared/conversation.ts';
import type { Database } from './database.ts';
import { readRows } from './rowReader.ts';
import type { RowReader } from './rowReader.ts';

function readNote(row: RowReader): ConversationNote {
  return {
    id: row.int('id'),
    conversationId: row.text('conversation_id'),
    afterSeq: row.int('after_seq'),
    kind: row.oneOf('kind', ['tool_withheld']),
    serverId: row.text('server_id'),
    tool: row.text('tool'),
    createdAt: row.int('created_at'),
  };
}

function prepareStatements(db: Database) {
  return {
    // After the conversation's latest message; a definition already noted in this conversation is not noted again.
    insertWithheld: db.prepare(`
      INSERT OR IGNORE INTO conversation_notes (conversation_id, after_seq, kind, server_id, tool, fingerprint, created_at)
      SELECT :conversationId, COALESCE(MAX(seq), 0), 'tool_withheld', :serverId, :tool, :fingerprint, :now
      FROM messages WHERE conversation_id = :conversationId`),
    listNotes: db.prepare('SELECT * FROM conversation_notes WHERE conversation_id = ? ORDER BY after_seq, id'),
  };
}

export class ConversationNotes {
  private readonly sql: ReturnType<typeof prepareStatements>;
  private readonly now: () => number;

  /** `db` must have been opened with `historyMigrations` among its migrations. */
  constructor(db: Database, now: () => number) {
    this.sql = prepareStatements(db);
    this.now = now;
  }

  /**
   * Notes that the model was not given `serverId`'s `tool` because its definition (`fingerprint`) changed
   * since it was approved; false when this conversation already has that note.
   */
  noteWithheld(conversationId: string, withheld: { serverId: string; tool: string; fingerprint: string }): boolean {
    return Number(this.sql.insertWithheld.run({ conversationId, ...withheld, now: this.now() }).changes) > 0;
  }

  list(conversationId: string): ConversationNote[] {
    return readRows('conversation_notes', this.sql.listNotes.all(conversationId), readNote);
  }
}
