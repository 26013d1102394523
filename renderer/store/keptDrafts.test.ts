import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { keepDrafts, keepDraftsSoon, loadKeptDrafts } from './keptDrafts.ts';

/** The window's local storage, as far as drafts use it; `full` refuses every write, as a full quota does. */
function fakeStorage(full = false) {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      if (full) throw new Error('QuotaExceededError');
      items.set(key, value);
    },
  };
}

let storage = fakeStorage();
beforeEach(() => {
  storage = fakeStorage();
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
});
afterEach(() => {
  Reflect.deleteProperty(globalThis, 'localStorage');
});

test('drafts kept by one page are there for the next', () => {
  keepDrafts({ new: 'half a question', 'c-1': 'another' });
  assert.deepEqual(loadKeptDrafts(), { new: 'half a question', 'c-1': 'another' });
});

test('only the 50 drafts written last are kept', () => {
  keepDrafts(Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`c-${i}`, `draft ${i}`])));
  const kept = loadKeptDrafts();
  assert.equal(Object.keys(kept).length, 50);
  assert.equal(kept['c-10'], 'draft 10');
  assert.equal(kept['c-9'], undefined);
});

test('a damaged or foreign value reads as no drafts, and what is not a draft is left out', () => {
  for (const damaged of ['{not json', '[1,2]', '"text"', 'null']) {
    storage.items.set('atrium.drafts', damaged);
    assert.deepEqual(loadKeptDrafts(), {}, damaged);
  }
  storage.items.set('atrium.drafts', JSON.stringify({ new: 'kept', odd: 5, empty: '' }));
  assert.deepEqual(loadKeptDrafts(), { new: 'kept' });
});

test('no storage, or a full one, keeps nothing and breaks nothing', () => {
  Object.defineProperty(globalThis, 'localStorage', { value: fakeStorage(true), configurable: true });
  assert.doesNotThrow(() => keepDrafts({ new: 'words' }));
  assert.deepEqual(loadKeptDrafts(), {});
  Reflect.deleteProperty(globalThis, 'localStorage');
  assert.doesNotThrow(() => keepDrafts({ new: 'words' }));
  assert.deepEqual(loadKeptDrafts(), {});
});

test('while typing, the drafts are written once the typing pauses, not at every keystroke', () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  try {
    let writes = 0;
    const setItem = storage.setItem;
    storage.setItem = (key: string, value: string) => {
      writes++;
      setItem(key, value);
    };
    for (const text of ['a', 'a l', 'a lo', 'a long paste']) keepDraftsSoon({ new: text });
    mock.timers.tick(100);
    assert.equal(writes, 0, 'nothing written mid-typing');
    mock.timers.tick(300);
    assert.equal(writes, 1);
    assert.deepEqual(loadKeptDrafts(), { new: 'a long paste' });
  } finally {
    mock.timers.reset();
  }
});
