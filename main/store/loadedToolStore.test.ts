import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openDatabase } from './database.ts';
import { HistoryStore, historyMigrations } from './historyStore.ts';
import { LoadedToolStore, MAX_KEPT_TOOLS, loadedToolMigrations } from './loadedToolStore.ts';

function setup() {
  let now = 1_000;
  const db = openDatabase(':memory:', [...historyMigrations, ...loadedToolMigrations]);
  const history = new HistoryStore(db);
  const store = new LoadedToolStore(db, { now: () => (now += 10) });
  return { history, store };
}

test('a conversation keeps what it loaded or called, most recent first, and only its own', () => {
  const { history, store } = setup();
  const a = history.createConversation({}).id;
  const b = history.createConversation({}).id;
  store.note(a, ['x__one', 'x__two']);
  store.note(a, ['x__three']);
  store.note(a, ['x__one']);
  assert.deepEqual(store.of(a), ['x__one', 'x__three', 'x__two']);
  assert.deepEqual(store.of(b), []);
});

test('it is bounded: the least recently used fall out; a deleted conversation takes its list with it', () => {
  const { history, store } = setup();
  const a = history.createConversation({}).id;
  for (let i = 0; i < MAX_KEPT_TOOLS + 6; i++) store.note(a, [`t__${i}`]);
  const kept = store.of(a);
  assert.equal(kept.length, MAX_KEPT_TOOLS);
  assert.equal(kept[0], `t__${MAX_KEPT_TOOLS + 5}`);
  assert.ok(!kept.includes('t__0'));
  history.deleteConversation(a);
  assert.deepEqual(store.of(a), []);
});

test('each tool says how it came: the search’s words, a call, or the person’s hand; a later call keeps the first reason, loading by hand replaces it', () => {
  const { history, store } = setup();
  const a = history.createConversation({}).id;
  store.note(a, ['gh__create_issue', 'gh__list_issues'], { kind: 'search', query: 'open an issue' });
  store.note(a, ['gh__create_issue']);
  store.note(a, ['fs__read'], { kind: 'by-hand' });
  store.note(a, ['gh__list_issues'], { kind: 'by-hand' });
  store.note(a, ['x__other']);
  assert.deepEqual(store.entries(a), [
    { modelName: 'x__other', how: { kind: 'called' } },
    { modelName: 'gh__list_issues', how: { kind: 'by-hand' } },
    { modelName: 'fs__read', how: { kind: 'by-hand' } },
    { modelName: 'gh__create_issue', how: { kind: 'search', query: 'open an issue' } },
  ]);
  assert.deepEqual(store.loadedByHand(a), ['gh__list_issues', 'fs__read']);
  store.forget(a, 'fs__read');
  assert.deepEqual(store.loadedByHand(a), ['gh__list_issues']);
});
