// The history's tables in Atrium's SQLite file: their migrations, the statements that read and write
// them, and how a row becomes a conversation or a message. The stores (historyStore.ts, toolCallLog.ts,
// requestJournal.ts) use these; nothing else touches the tables.

import type { ChatContent, Conversation, MessageOrigin, MessageStatus, StoredMessage } from '../../shared/conversation.ts';
import type { TokenUsage } from '../../shared/domain.ts';
import type { RowReader } from './rowReader.ts';
import type { Database, Migration } from './database.ts';

export const historyMigrations: Migration[] = [
  {
    id: 'history-1',
    sql: `
      CREATE TABLE conversations (
        id TEXT PRIMARY KEY,
        title TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        provider_id TEXT,
        model TEXT
      );
      CREATE INDEX conversations_by_update ON conversations (updated_at DESC);
      CREATE TABLE messages (
        id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('user', 'assistant')),
        content TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('complete', 'streaming', 'incomplete', 'error')),
        error TEXT,
        usage TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        UNIQUE (conversation_id, seq)
      );
      CREATE INDEX messages_streaming ON messages (status) WHERE status = 'streaming';
      CREATE TABLE tool_calls (
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        id TEXT NOT NULL,
        message_id TEXT NOT NULL REFERENCES messages (id) ON DELETE CASCADE,
        server_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        model_name TEXT NOT NULL,
        arguments TEXT NOT NULL,
        decision TEXT CHECK (decision IN ('allow', 'deny')),
        decided_by TEXT,
        status TEXT NOT NULL CHECK (status IN ('pending', 'running', 'done', 'error', 'denied', 'cancelled')),
        result TEXT,
        is_error INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER,
        duration_ms INTEGER,
        PRIMARY KEY (conversation_id, id)
      );
      CREATE INDEX tool_calls_by_message ON tool_calls (message_id);
      CREATE TABLE pending_requests (
        id TEXT PRIMARY KEY,
        conversation_id TEXT REFERENCES conversations (id) ON DELETE CASCADE,
        server_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('sampling', 'elicitation', 'tool_approval')),
        payload TEXT NOT NULL,
        outcome TEXT,
        status TEXT NOT NULL CHECK (status IN ('open', 'settled', 'withdrawn')),
        created_at INTEGER NOT NULL,
        settled_at INTEGER
      );
      CREATE INDEX pending_requests_open ON pending_requests (server_id) WHERE status = 'open';
      CREATE INDEX pending_requests_by_conversation ON pending_requests (conversation_id);
    `,
  },
  {
    // Where a person's message came from when they did not type it: a server's prompt (JSON, or NULL).
    id: 'history-2',
    sql: 'ALTER TABLE messages ADD COLUMN origin TEXT;',
  },
  {
    // The tool's output schema when it was called (JSON OutputSchemaAtCall; NULL for calls saved before).
    id: 'history-3',
    sql: 'ALTER TABLE tool_calls ADD COLUMN output_schema TEXT;',
  },
  {
    // A skill's questions (use it; read a file on another server) are journaled with the others. SQLite
    // cannot change a CHECK, so the table is made again with the new kind and its rows copied over.
    id: 'history-4',
    sql: `
      CREATE TABLE pending_requests_new (
        id TEXT PRIMARY KEY,
        conversation_id TEXT REFERENCES conversations (id) ON DELETE CASCADE,
        server_id TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('sampling', 'elicitation', 'tool_approval', 'skill')),
        payload TEXT NOT NULL,
        outcome TEXT,
        status TEXT NOT NULL CHECK (status IN ('open', 'settled', 'withdrawn')),
        created_at INTEGER NOT NULL,
        settled_at INTEGER
      );
      INSERT INTO pending_requests_new (id, conversation_id, server_id, kind, payload, outcome, status, created_at, settled_at)
        SELECT id, conversation_id, server_id, kind, payload, outcome, status, created_at, settled_at FROM pending_requests;
      DROP TABLE pending_requests;
      ALTER TABLE pending_requests_new RENAME TO pending_requests;
      CREATE INDEX pending_requests_open ON pending_requests (server_id) WHERE status = 'open';
      CREATE INDEX pending_requests_by_conversation ON pending_requests (conversation_id);
    `,
  },
];


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
  if (origin !== undefined) message.origin = origin;
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
    // Titles and the text blocks of messages; image data and tool payloads are not searched.
    searchConversations: db.prepare(`
      SELECT * FROM conversations AS c
      WHERE c.title LIKE :pattern ESCAPE '\\'
         OR EXISTS (SELECT 1 FROM messages AS m, json_each(m.content) AS block
                    WHERE m.conversation_id = c.id AND block.value ->> 'type' = 'text'
                      AND block.value ->> 'text' LIKE :pattern ESCAPE '\\')
      ORDER BY c.updated_at DESC, c.rowid DESC LIMIT :limit`),
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
    markInterrupted: db.prepare("UPDATE messages SET status = 'incomplete', updated_at = ? WHERE status = 'streaming'"),
  };
}

export type Statements = ReturnType<typeof prepareStatements>;

