import { afterEach, test } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { openDatabase } from './database.ts';
import { DraftStore, draftMigrations } from './draftStore.ts';
import type { DraftChange } from './draftStore.ts';
import { HistoryStore, historyMigrations } from './historyStore.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function stores() {
  const db = openDatabase(':memory:', [...historyMigrations, ...draftMigrations]);
  const history = new HistoryStore(db);
  const drafts = new DraftStore(db, history);
  const heard: DraftChange[] = [];
  drafts.onChange((change) => heard.push(change));
  cleanups.push(() => db.close(), () => history.close());
  return { history, drafts, heard };
}

test('a draft is kept per conversation, replaced by newer words, and gone when emptied; each change is announced once', () => {
  const { history, drafts, heard } = stores();
  const { id } = history.createConversation({ title: 't' });
  drafts.save('new', 'half a question');
  drafts.save(id, 'my API key is sk-not-real');
  drafts.save(id, 'my API key is sk-not-real');
  drafts.save(id, 'second thoughts');
  assert.deepEqual(drafts.list(), { new: { text: 'half a question' }, [id]: { text: 'second thoughts' } });
  drafts.save('new', '');
  assert.deepEqual(drafts.list(), { [id]: { text: 'second thoughts' } });
  assert.deepEqual(heard, [
    { conversationKey: 'new', text: 'half a question' },
    { conversationKey: id, text: 'my API key is sk-not-real' },
    { conversationKey: id, text: 'second thoughts' },
    { conversationKey: 'new', text: '' },
  ], 'the same words saved again are no change');
});

test('a conversation deleted takes its draft with it, and the windows are told; a draft for a conversation that is gone is not kept', () => {
  const { history, drafts, heard } = stores();
  const { id } = history.createConversation({ title: 't' });
  drafts.save(id, 'a secret typed and not sent');
  history.deleteConversation(id);
  assert.deepEqual(drafts.list(), {});
  assert.deepEqual(heard.at(-1), { conversationKey: id, text: '' });
  assert.equal(drafts.save(id, 'typed in a window that had not heard yet'), false);
  assert.equal(drafts.save('no-such-conversation', 'words'), false);
  assert.deepEqual(drafts.list(), {});
});

test('a draft that is an edit keeps which message it replaces, also when only that changes; the conversation not started has none', () => {
  const { history, drafts, heard } = stores();
  const { id } = history.createConversation({ title: 't' });
  drafts.save(id, 'what I meant', 'm-7');
  assert.deepEqual(drafts.list(), { [id]: { text: 'what I meant', replaces: 'm-7' } });
  assert.equal(drafts.save(id, 'what I meant'), true, 'the edit given up, the words kept: a change');
  assert.deepEqual(drafts.list(), { [id]: { text: 'what I meant' } });
  drafts.save('new', 'fresh words', 'm-7');
  assert.deepEqual(drafts.list().new, { text: 'fresh words' });
  assert.deepEqual(heard, [
    { conversationKey: id, text: 'what I meant', replaces: 'm-7' },
    { conversationKey: id, text: 'what I meant' },
    { conversationKey: 'new', text: 'fresh words' },
  ]);
});

test('drafts an earlier Atrium kept (before edits were marked) read as new words', () => {
  const folder = mkdtempSync(join(tmpdir(), 'atrium-drafts-'));
  cleanups.push(() => rmSync(folder, { recursive: true, force: true }));
  const path = join(folder, 'atrium.db');
  const before = openDatabase(path, [...historyMigrations, ...draftMigrations.slice(0, 1)]);
  before.prepare("INSERT INTO drafts (conversation_key, conversation_id, text, updated_at) VALUES ('new', NULL, 'kept from before', 1)").run();
  before.close();
  // The same file, opened by this Atrium: the column is added, and the old row keeps its words.
  const db = openDatabase(path, [...historyMigrations, ...draftMigrations]);
  const history = new HistoryStore(db);
  cleanups.push(() => db.close(), () => history.close());
  assert.deepEqual(new DraftStore(db, history).list(), { new: { text: 'kept from before' } });
});
