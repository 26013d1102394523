import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase } from './database.ts';
import { HistoryStore, historyMigrations } from './historyStore.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function memoryHistory(): HistoryStore {
  const db = openDatabase(':memory:', historyMigrations);
  const history = new HistoryStore(db, { now: () => 7 });
  cleanups.push(() => db.close(), () => history.close());
  return history;
}

test('a withheld tool is noted after the latest message, once per conversation and definition, and goes with its conversation', () => {
  const history = memoryHistory();
  const { id } = history.createConversation({ title: 't' });
  history.appendUserMessage(id, [{ type: 'text', text: 'read my notes' }]);
  const withheld = { serverId: 'notes', tool: 'read_notes', fingerprint: 'v2' };
  assert.equal(history.notes.noteWithheld(id, withheld), true);
  history.appendUserMessage(id, [{ type: 'text', text: 'again' }]);
  assert.equal(history.notes.noteWithheld(id, withheld), false, 'the same change is said once in a conversation');
  assert.equal(history.notes.noteWithheld(id, { ...withheld, fingerprint: 'v3' }), true, 'a further change is said again');
  assert.deepEqual(
    history.notes.list(id).map(({ afterSeq, serverId, tool, kind }) => ({ afterSeq, serverId, tool, kind })),
    [
      { afterSeq: 1, serverId: 'notes', tool: 'read_notes', kind: 'tool_withheld' },
      { afterSeq: 2, serverId: 'notes', tool: 'read_notes', kind: 'tool_withheld' },
    ],
  );
  history.deleteConversation(id);
  assert.deepEqual(history.notes.list(id), []);
});
