// The history in Atrium's SQLite file: this store keeps the conversations and their messages, and opens
// the stores beside it over the same tables' migrations — the tool calls (toolCallLog.ts), the requests a
// person settled (requestJournal.ts) and Atrium's own lines (conversationNotes.ts). Every public write is one transaction that has committed when the method returns, except streamed
// assistant text: deltas are buffered in memory and written by `flush()`, which runs on its own at most every
// `flushIntervalMs` or as soon as `flushChars` characters are waiting (see appendAssistantText). A kill can
// therefore lose at most that last window of a reply that was still streaming, never anything acknowledged.

import { randomUUID } from 'node:crypto';
import { ChangeListeners } from '../changeListeners.ts';
import type { TokenUsage } from '../../shared/domain.ts';
import type {
  ChatContent,
  ChatRole,
  Conversation,
  MessageOrigin,
  MessageStatus,
  StoredMessage,
} from '../../shared/conversation.ts';
import { syncToDisk, transaction, withoutDiskWait } from './database.ts';
import { readOne, readRows, RowReader } from './rowReader.ts';
import { RequestJournal } from './requestJournal.ts';
import { ToolCallLog } from './toolCallLog.ts';
import { ConversationNotes } from './conversationNotes.ts';
import type { Database } from './database.ts';
import { likePattern, prepareStatements, readConversation, readMessage } from './historyTables.ts';
import type { Statements } from './historyTables.ts';
import { finishExcerpt } from './searchExcerpt.ts';
import type { ExcerptWindow } from './searchExcerpt.ts';

export { historyMigrations } from './historyMigrations.ts';

export interface HistoryStoreOptions {
  /** Streamed text waits in memory at most this long before it is written (default 200 ms). */
  flushIntervalMs?: number;
  /** …or until this many characters wait, whichever comes first (default 2,048). */
  flushChars?: number;
  now?: () => number;
  newId?: () => string;
  /** A timer-driven flush has no caller to throw to; its failure is reported here (default: a process warning). */
  onFlushError?: (error: unknown) => void;
}

/** An assistant message being streamed by this store: its whole content, and how many characters are unsaved. */
interface Stream {
  conversationId: string;
  content: ChatContent[];
  pending: number;
}

function appendText(content: ChatContent[], delta: string): void {
  const last = content[content.length - 1];
  if (last?.type === 'text') last.text += delta;
  else content.push({ type: 'text', text: delta });
}

/** A conversation as a list shows it; one a search found in what was said has an excerpt of where. */
export interface ListedConversation extends Conversation {
  excerpt?: string;
}

// Prepared once per store: every call reuses them.
/** A conversation as saved now, or gone. */
export type ConversationChange = { kind: 'saved'; conversation: Conversation } | { kind: 'deleted'; conversationId: string };

export class HistoryStore {
  private readonly db: Database;
  private readonly flushIntervalMs: number;
  private readonly flushChars: number;
  private readonly now: () => number;
  private readonly newId: () => string;
  private readonly onFlushError: (error: unknown) => void;
  private readonly streams = new Map<string, Stream>();
  private pendingChars = 0;
  private lastFlushAt = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly sql: Statements;
  private readonly conversationChanges = new ChangeListeners<ConversationChange>();
  /** The tool calls the model made in each conversation. */
  readonly toolCalls: ToolCallLog;
  /** The requests from servers a person was asked to settle, and how each ended. */
  readonly requests: RequestJournal;
  /** The lines Atrium adds to each conversation (a tool withheld because it changed). */
  readonly notes: ConversationNotes;

  /** `db` must have been opened with `historyMigrations` among its migrations. */
  constructor(db: Database, options: HistoryStoreOptions = {}) {
    this.db = db;
    this.flushIntervalMs = options.flushIntervalMs ?? 200;
    this.flushChars = options.flushChars ?? 2048;
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? randomUUID;
    this.onFlushError = options.onFlushError ?? ((error) => process.emitWarning(`history: could not save streamed text: ${String(error)}`));
    this.sql = prepareStatements(db);
    this.toolCalls = new ToolCallLog(db, this.now);
    this.requests = new RequestJournal(db, this.now, this.newId);
    this.notes = new ConversationNotes(db, this.now);
  }

  /**
   * At startup: tool calls and requests in flight when the process died were cancelled or withdrawn with it,
   * but for the calls in `stillRunning` (a call its server runs on as a task, which outlives the process).
   */
  closeInterruptedWork(stillRunning: readonly { conversationId: string; callId: string }[] = []): { toolCalls: number; requests: number } {
    return transaction(this.db, () => ({ toolCalls: this.toolCalls.cancelInterrupted(stillRunning), requests: this.requests.withdrawAll() }));
  }

  // ── conversations ──────────────────────────────────────────────────────────────────────────────────

  /** `id`: the one its starter chose (a UUID), else a new one. */
  createConversation(options: { id?: string; title?: string; providerId?: string; model?: string } = {}): Conversation {
    const now = this.now();
    const conversation: Conversation = { id: options.id ?? this.newId(), title: options.title ?? '', createdAt: now, updatedAt: now };
    if (options.providerId !== undefined) conversation.providerId = options.providerId;
    if (options.model !== undefined) conversation.model = options.model;
    this.sql.insertConversation.run(conversation.id, conversation.title, now, now, options.providerId ?? null, options.model ?? null);
    this.conversationChanges.tell({ kind: 'saved', conversation: { ...conversation } });
    return conversation;
  }

  /** Told when a conversation is made, renamed, written in by the person, given another model, or deleted. */
  onConversationChange(listener: (change: ConversationChange) => void): () => void {
    return this.conversationChanges.add(listener);
  }

  /**
   * Most recently active first: a conversation's updated_at moves when a person writes in it or renames it.
   * `search` matches the title or the text blocks of any message as a plain, ASCII-case-insensitive substring;
   * one found in a message only carries an excerpt of the first such message around the words.
   */
  listConversations(options: { search?: string; limit?: number } = {}): ListedConversation[] {
    const limit = options.limit ?? -1;
    const search = options.search?.trim() ?? '';
    if (search === '') return readRows('conversations', this.sql.listConversations.all(limit), readConversation);
    const rows = this.sql.searchConversations.all({ pattern: likePattern(search), needle: search, limit });
    return readRows('conversations', rows, (row) => {
      const window = row.optJson('excerpt') as ExcerptWindow | undefined;
      return window ? { ...readConversation(row), excerpt: finishExcerpt(window, search) } : readConversation(row);
    });
  }

  getConversation(id: string): Conversation | undefined {
    return readOne('conversations', this.sql.getConversation.get(id), readConversation);
  }

  renameConversation(id: string, title: string): boolean {
    return this.saved(id, this.sql.renameConversation.run(title, this.now(), id).changes);
  }

  /** The provider and model the conversation's next messages (and its servers' sampling) use. */
  setConversationModel(id: string, providerId: string, model: string): boolean {
    return this.saved(id, this.sql.setConversationModel.run(providerId, model, id).changes);
  }

  /** Removes the conversation with its messages, tool calls and requests. */
  deleteConversation(id: string): boolean {
    for (const [messageId, stream] of this.streams) {
      if (stream.conversationId !== id) continue;
      this.pendingChars -= stream.pending;
      this.streams.delete(messageId);
    }
    const deleted = Number(this.sql.deleteConversation.run(id).changes) > 0;
    if (deleted) this.conversationChanges.tell({ kind: 'deleted', conversationId: id });
    return deleted;
  }

  /** Announces the conversation as it is now, when `changes` rows were written; whether any were. */
  private saved(id: string, changes: number | bigint): boolean {
    const conversation = Number(changes) > 0 ? this.getConversation(id) : undefined;
    if (conversation) this.conversationChanges.tell({ kind: 'saved', conversation });
    return conversation !== undefined;
  }

  // ── messages ───────────────────────────────────────────────────────────────────────────────────────

  /** Committed when it returns: the person's words survive whatever happens to the LLM call that follows. */
  appendUserMessage(conversationId: string, content: ChatContent[], origin?: MessageOrigin): StoredMessage {
    const message = this.insertMessage(conversationId, 'user', content, 'complete', origin);
    // The person's message makes the conversation the most recent.
    this.saved(conversationId, 1);
    return message;
  }

  /** A reply about to stream: committed as 'streaming' so a crash leaves a visible, incomplete turn. */
  beginAssistantMessage(conversationId: string): string {
    const message = this.insertMessage(conversationId, 'assistant', [], 'streaming');
    this.streams.set(message.id, { conversationId, content: [], pending: 0 });
    return message.id;
  }

  /**
   * Adds streamed text to the reply (to its last text block, or a new one). The text is buffered and
   * written by `flush()`, which runs here when `flushChars` characters wait or `flushIntervalMs` passed
   * since the last flush (so the first delta after a quiet spell is written at once), and otherwise from a
   * timer at that deadline: a reply is saved while it streams, losing at most the last window to a kill; a
   * fast stream costs a few transactions a second rather than one per token; a stalled stream is still saved.
   */
  appendAssistantText(messageId: string, delta: string): void {
    if (delta === '') return;
    const stream = this.streamOf(messageId);
    appendText(stream.content, delta);
    stream.pending += delta.length;
    this.pendingChars += delta.length;
    if (this.pendingChars >= this.flushChars || this.now() - this.lastFlushAt >= this.flushIntervalMs) this.flush();
    else this.timer ??= setTimeout(() => this.flushFromTimer(), Math.max(0, this.lastFlushAt + this.flushIntervalMs - this.now())).unref();
  }

  /** Replaces the reply's whole content (e.g. with its tool calls once they are known); committed at once. */
  setAssistantContent(messageId: string, content: ChatContent[]): void {
    const stream = this.streamOf(messageId);
    stream.content = structuredClone(content);
    this.pendingChars -= stream.pending;
    stream.pending = 0;
    this.sql.saveContent.run(JSON.stringify(stream.content), this.now(), messageId);
  }

  /** Writes every buffered delta, all replies in one transaction. */
  flush(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
    this.lastFlushAt = this.now();
    const dirty = [...this.streams].filter(([, stream]) => stream.pending > 0);
    const save = () => {
      for (const [messageId, stream] of dirty) this.sql.saveContent.run(JSON.stringify(stream.content), this.lastFlushAt, messageId);
    };
    // One reply (the usual case) is one statement, a transaction by itself; several share one.
    if (dirty.length === 1) save();
    else if (dirty.length > 1) transaction(this.db, save);
    for (const [, stream] of dirty) stream.pending = 0;
    this.pendingChars = 0;
  }

  /**
   * Ends a reply: its status, usage, error and content (the given `content`, else its buffered text) are
   * committed together, in one statement.
   */
  finishAssistantMessage(messageId: string, end: { status: Exclude<MessageStatus, 'streaming'>; content?: ChatContent[]; usage?: TokenUsage; error?: string }): void {
    const stream = this.streams.get(messageId);
    const content = end.content !== undefined ? JSON.stringify(end.content) : stream !== undefined && stream.pending > 0 ? JSON.stringify(stream.content) : null;
    const changed = this.sql.finishMessage.run(content, end.status, end.usage === undefined ? null : JSON.stringify(end.usage), end.error ?? null, this.now(), messageId);
    if (Number(changed.changes) === 0) throw new Error(`history: message ${messageId} is not a streaming reply`);
    if (stream !== undefined) this.pendingChars -= stream.pending;
    this.streams.delete(messageId);
  }

  /**
   * For Retry: what came after the person's last message (the replies, the tool results) is marked as
   * replaced, so the next reply answers that message again. Replaced messages stay for the person to read
   * and are never given to a model. Returns how many were replaced; undefined when the person has written
   * nothing in the conversation (there is nothing to answer again).
   */
  replaceRepliesToLastMessage(conversationId: string): number | undefined {
    return transaction(this.db, () => {
      const seq = this.lastPersonSeq(conversationId);
      if (seq === undefined) return undefined;
      return Number(this.sql.replaceAfter.run(this.now(), conversationId, seq).changes);
    });
  }

  /**
   * For an edit of the person's last message: that message and what came after it are marked as replaced
   * (kept for the person to read, never given to a model), so the edited words take its place. False, and
   * nothing changed, when `messageId` is no longer the person's last message (another window wrote since).
   */
  replaceLastMessage(conversationId: string, messageId: string): boolean {
    return transaction(this.db, () => {
      const seq = this.lastPersonSeq(conversationId);
      const row = this.sql.messageSeq.get(conversationId, messageId);
      if (seq === undefined || row === undefined || new RowReader('messages', row).optInt('seq') !== seq) return false;
      this.sql.replaceAfter.run(this.now(), conversationId, seq - 1);
      return true;
    });
  }

  private lastPersonSeq(conversationId: string): number | undefined {
    const row = this.sql.lastPersonMessage.get(conversationId);
    return row === undefined ? undefined : new RowReader('messages', row).optInt('seq');
  }

  /** At startup: replies that were streaming when the process died become 'incomplete'. Returns how many. */
  markInterruptedMessages(): number {
    if (this.streams.size > 0) throw new Error('history: markInterruptedMessages is for startup, while no reply streams');
    return Number(this.sql.markInterrupted.run(this.now()).changes);
  }

  /** Runs `work` without its commits waiting for the disk, for a turn's steps (see database.ts). */
  withoutDiskWait<T>(work: () => T): T {
    return withoutDiskWait(this.db, work);
  }

  /** Puts on the disk what was saved without waiting for it. */
  syncToDisk(): void {
    syncToDisk(this.db);
  }

  /** The conversation's messages in order; a reply streaming in this store shows its latest text. */
  loadMessages(conversationId: string): StoredMessage[] {
    const messages = readRows('messages', this.sql.loadMessages.all(conversationId), readMessage);
    if (this.streams.size > 0) {
      for (const message of messages) {
        const stream = this.streams.get(message.id);
        if (stream !== undefined) message.content = structuredClone(stream.content);
      }
    }
    return messages;
  }

  getMessage(messageId: string): StoredMessage | undefined {
    return readOne('messages', this.sql.getMessage.get(messageId), readMessage);
  }

  private insertMessage(conversationId: string, role: ChatRole, content: ChatContent[], status: MessageStatus, origin?: MessageOrigin): StoredMessage {
    const id = this.newId();
    const now = this.now();
    const json = JSON.stringify(content);
    const insert = () => {
      const row = this.sql.insertMessage.get({ id, conversationId, role, content: json, status, origin: origin ? JSON.stringify(origin) : null, now });
      if (row === undefined) throw new Error(`history: message ${id} was not saved`);
      return new RowReader('messages', row).int('seq');
    };
    // One INSERT takes the write lock before it reads MAX(seq), so it is atomic alone; a person's message
    // also makes its conversation the most recent, in the same transaction.
    const seq =
      role === 'assistant'
        ? insert()
        : transaction(this.db, () => {
            if (Number(this.sql.touchConversation.run(now, conversationId).changes) === 0) throw new Error(`history: no conversation ${conversationId}`);
            return insert();
          });
    return { id, conversationId, seq, role, content: structuredClone(content), status, createdAt: now, updatedAt: now };
  }

  private streamOf(messageId: string): Stream {
    let stream = this.streams.get(messageId);
    if (stream === undefined) {
      // A reply begun by another store instance (or before a restart) can be continued while it is 'streaming'.
      const message = this.getMessage(messageId);
      if (message === undefined || message.role !== 'assistant' || message.status !== 'streaming') throw new Error(`history: message ${messageId} is not a streaming reply`);
      stream = { conversationId: message.conversationId, content: message.content, pending: 0 };
      this.streams.set(messageId, stream);
    }
    return stream;
  }

  private flushFromTimer(): void {
    this.timer = undefined;
    try {
      this.flush();
    } catch (error) {
      this.onFlushError(error);
    }
  }

  /** Writes what is buffered and stops the flush timer; the database stays open (its owner closes it). */
  close(): void {
    this.flush();
    this.streams.clear();
  }
}
