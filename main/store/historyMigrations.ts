// The tables of the history (conversations, messages, tool calls, the requests a person settled, the
// lines Atrium adds to a conversation), as migrations of atrium.db: HistoryStore and the stores it opens
// (ToolCallLog, RequestJournal, ConversationNotes) read and write them.

import type { Migration } from './database.ts';

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
    // When a reply was replaced by Retry (NULL: it stands). A replaced reply is kept for the person to
    // read and never given to a model again.
    id: 'history-4',
    sql: 'ALTER TABLE messages ADD COLUMN replaced_at INTEGER;',
  },
  {
    // Lines Atrium adds to a conversation (conversationNotes.ts): a tool withheld from the model because it
    // changed since it was approved, once per conversation and definition.
    id: 'history-5',
    sql: `
      CREATE TABLE conversation_notes (
        id INTEGER PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        after_seq INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('tool_withheld')),
        server_id TEXT NOT NULL,
        tool TEXT NOT NULL,
        fingerprint TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        UNIQUE (conversation_id, kind, server_id, tool, fingerprint)
      );
    `,
  },
  {
    // A skill's questions (use it; read a file on another server) are journaled with the others. SQLite
    // cannot change a CHECK, so the table is made again with the new kind and its rows copied over.
    id: 'history-6',
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
