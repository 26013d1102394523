// The window's place kept across a reload: a store made afresh (as a reload makes it) lands where the
// last one was; what is kept is only views and ids, and anything else found there is ignored.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { keepPlace, keptPlace } from './keptPlace.ts';
import { createAtriumStore } from './useAtriumStore.ts';

function memoryStorage(): Storage & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, value),
  };
}

test('a reload lands on the view, conversation, server and tab the person was on', () => {
  const storage = memoryStorage();
  const before = createAtriumStore();
  keepPlace(before, storage);
  before.getState().selectConversation('c-42');
  before.getState().showServerTrace('notes');

  const after = createAtriumStore();
  keepPlace(after, storage);
  const state = after.getState();
  assert.deepEqual([state.view, state.selectedConversationId, state.selectedServerId, state.selectedServerTab], ['servers', 'c-42', 'notes', 'trace']);
  state.offerFirstView('setup');
  assert.equal(after.getState().view, 'servers', "a first run's view does not override where the person was");
});

test('without a kept place, or with one that is not a place, the window starts as it always did', () => {
  const fresh = createAtriumStore();
  keepPlace(fresh, memoryStorage());
  assert.deepEqual([fresh.getState().view, fresh.getState().viewChosen], ['chat', false]);

  for (const text of ['not json', '[]', JSON.stringify({ view: 'nowhere', serverTab: 'log' }), JSON.stringify({ view: 'chat', serverTab: '<script>' })]) {
    const storage = memoryStorage();
    storage.setItem('atrium.place', text);
    assert.equal(keptPlace(storage), undefined, text);
  }
  const storage = memoryStorage();
  storage.setItem('atrium.place', JSON.stringify({ view: 'chat', serverTab: 'log', conversationId: 'x'.repeat(1000), serverId: 7 }));
  assert.deepEqual(keptPlace(storage), { view: 'chat', serverTab: 'log', conversationId: null, serverId: null });
});
