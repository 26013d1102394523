// The history's tables in Atrium's SQLite file (their migrations are historyMigrations.ts): the
// statements that read and write them, and how a row becomes a conversation or a message. The stores (historyStore.ts, toolCallLog.ts,
// requestJournal.ts) use these; nothing else touches the tables.

import type { ChatContent, Conversation, MessageOrigin, MessageStatus, StoredMessage } from '../../shared/conversation.ts';
import type { TokenUsage } from '../../shared/domain.ts';
import type { RowReader } from './rowReader.ts';
import type { Database } from './database.ts';
import { excerptLead, excerptLength } from './searchExcerpt.ts';

const messageStatuses = ['complete', 'streaming', 'incomplete', 'error'] as const satisfies readonly MessageStatus[];

/** A JSON column this store wrote as a list (a message's content blocks, as the conversation model has them). */
function listOf<T>(row: RowReader, column: string): T[] {
  const value = row.json(column);
  if (!Array.isArray(value)) throw new Error(`history: column ${column} is not a list`);
  return value as T[];
}

export function readConversation(row: RowReader): Conversation {
  const conversation: Conversation = { id: row.text('id'), title: row.text('title'), createdAt: row.int('created_at'), updatedAt: row.int('updated_at') };
  const providerId = row.optText('provider_id');
  const model = row.optText('model');
  if (providerId !== undefined) conversation.providerId = providerId;
  if (model !== undefined) conversation.model = model;
  return conversation;
}

export function readMessage(row: RowReader): StoredMessage {
  const message: StoredMessage = {
    id: row.text('id'),
    conversationId: row.text('conversation_id'),
    seq: row.int('seq'),
    role: row.oneOf('role', ['user', 'assistant']),
    content: listOf<ChatContent>(row, 'content'),
    status: row.oneOf('status', messageStatuses),
    createdAt: row.int('created_at'),
    updatedAt: row.int('updated_at'),
  };
  const error = row.optText('error');
  // Both written by this store from typed values (TokenUsage, MessageOrigin).
  const usage = row.optJson('usage') as TokenUsage | undefined;
  const origin = row.optJson('origin') as MessageOrigin | undefined;
  const replacedAt = row.optInt('replaced_at');
  if (origin !== undefined) message.origin = origin;
  if (replacedAt !== undefined) message.replacedAt = replacedAt;
  if (error !== undefined) message.error = error;
  if (usage !== undefined) message.usage = usage;
  return message;
}





/** LIKE pattern for a literal substring: %, _ and the escape character itself match only themselves. */
export function likePattern(search: string): string {
  return `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

export function prepareStatements(db: Database) {
  return {
    insertConversation: db.prepare('INSERT INTO conversations (id, title, created_at, updated_at, provider_id, model) VALUES (?, ?, ?, ?, ?, ?)'),
    getConversation: db.prepare('SELECT * FROM conversations WHERE id = ?'),
    listConversations: db.prepare('SELECT * FROM conversations ORDER BY updated_at DESC, rowid DESC LIMIT ?'),
    // Titles and the text blocks of messages; image data and tool payloads are not searched. `excerpt`,
    // for a conversation whose title does not say it, is the window around the first match in its
    // messages, in their order (searchExcerpt.ts finishes it); SQLite's lower() and LIKE both fold A–Z
    // alone, so instr() finds what LIKE matched. Materialised, so each conversation's messages are
    // searched once, not once for the WHERE and again for the excerpt.
    searchConversations: db.prepare(`
      WITH listed AS MATERIALIZED (
        SELECT c.*, c.rowid AS listed_order, c.title LIKE :pattern ESCAPE '\\' AS by_title,
          CASE WHEN c.title LIKE :pattern ESCAPE '\\' THEN NULL ELSE (
            SELECT json_object('text', substr(t, start, ${excerptLength}), 'cutStart', start > 1, 'cutEnd', start + ${excerptLength} <= length(t))
            FROM (SELECT block.value ->> 'text' AS t, max(1, instr(lower(block.value ->> 'text'), lower(:needle)) - ${excerptLead}) AS start
                  FROM messages AS m, json_each(m.content) AS block
                  WHERE m.conversation_id = c.id AND block.value ->> 'type' = 'text'
                    AND block.value ->> 'text' LIKE :pattern ESCAPE '\\'
                  ORDER BY m.seq LIMIT 1)
          ) END AS excerpt
        FROM conversations AS c)
      SELECT * FROM listed WHERE by_title OR excerpt IS NOT NULL
      ORDER BY updated_at DESC, listed_order DESC LIMIT :limit`),
    renameConversation: db.prepare('UPDATE conversations SET title = ?, updated_at = ? WHERE id = ?'),
    setConversationModel: db.prepare('UPDATE conversations SET provider_id = ?, model = ? WHERE id = ?'),
    touchConversation: db.prepare('UPDATE conversations SET updated_at = ? WHERE id = ?'),
    deleteConversation: db.prepare('DELETE FROM conversations WHERE id = ?'),
    insertMessage: db.prepare(`
      INSERT INTO messages (id, conversation_id, seq, role, content, status, origin, created_at, updated_at)
      SELECT :id, :conversationId, COALESCE(MAX(seq), 0) + 1, :role, :content, :status, :origin, :now, :now
      FROM messages WHERE conversation_id = :conversationId
      RETURNING seq`),
    getMessage: db.prepare('SELECT * FROM messages WHERE id = ?'),
    loadMessages: db.prepare('SELECT * FROM messages WHERE conversation_id = ? ORDER BY seq'),
    saveContent: db.prepare('UPDATE messages SET content = ?, updated_at = ? WHERE id = ?'),
    finishMessage: db.prepare("UPDATE messages SET content = COALESCE(?, content), status = ?, usage = ?, error = ?, updated_at = ? WHERE id = ? AND status = 'streaming'"),
    // The person's last message: the last one of theirs with more than tool results in it.
    lastPersonMessage: db.prepare(`
      SELECT MAX(m.seq) AS seq FROM messages AS m
      WHERE m.conversation_id = ? AND m.role = 'user' AND m.replaced_at IS NULL
        AND EXISTS (SELECT 1 FROM json_each(m.content) AS block WHERE block.value ->> 'type' <> 'tool_result')`),
    replaceAfter: db.prepare('UPDATE messages SET replaced_at = ? WHERE conversation_id = ? AND seq > ? AND replaced_at IS NULL'),
    messageSeq: db.prepare('SELECT seq FROM messages WHERE conversation_id = ? AND id = ?'),
    markInterrupted: db.prepare("UPDATE messages SET status = 'incomplete', updated_at = ? WHERE status = 'streaming'"),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

