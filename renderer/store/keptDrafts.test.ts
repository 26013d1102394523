import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { DraftKeeper, clearLegacyDrafts, legacyDrafts } from './keptDrafts.ts';
import type { Draft } from '../../shared/contract.ts';

/** The window's local storage as an older Atrium used it; any write fails the test: drafts are never written there. */
function fakeStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string) => assert.fail(`nothing may be written to the origin's storage (${key})`),
    removeItem: (key: string) => void items.delete(key),
  };
}

let storage = fakeStorage();
beforeEach(() => {
  storage = fakeStorage();
  Object.defineProperty(globalThis, 'localStorage', { value: storage, configurable: true });
});
afterEach(() => {
  Reflect.deleteProperty(globalThis, 'localStorage');
  mock.timers.reset();
});

/** A host that takes drafts when `up`, and records each save. */
function host() {
  const saves: [string, string][] = [];
  const link = { up: true };
  const save = async (key: string, { text }: Draft) => {
    if (!link.up) throw new Error('the link is down');
    saves.push([key, text]);
  };
  return { saves, link, save };
}

test('drafts go to the host once typing pauses, one request per conversation with its latest words', async () => {
  mock.timers.enable({ apis: ['setTimeout'] });
  const { saves, save } = host();
  const keeper = new DraftKeeper(save);
  for (const text of ['a', 'a l', 'a lo', 'a long paste']) keeper.typed('new', { text });
  keeper.typed('c-1', { text: 'another' });
  mock.timers.tick(100);
  assert.deepEqual(saves, [], 'nothing sent mid-typing');
  assert.equal(keeper.isWriting('new'), true, 'words not confirmed yet are the box’s, whatever the host says meanwhile');
  mock.timers.tick(300);
  await keeper.flush();
  assert.deepEqual(saves, [['new', 'a long paste'], ['c-1', 'another']]);
  assert.equal(keeper.isWriting('new'), false);
  keeper.dispose();
});

test('a draft the host could not take (the link was down) waits and goes with the next flush', async () => {
  const { saves, link, save } = host();
  const keeper = new DraftKeeper(save);
  link.up = false;
  keeper.typed('c-1', { text: 'typed while offline' });
  assert.equal(await keeper.flush(), false);
  assert.equal(keeper.isWriting('c-1'), true);
  link.up = true;
  assert.equal(await keeper.flush(), true);
  assert.deepEqual(saves, [['c-1', 'typed while offline']]);
  keeper.dispose();
});

test('an older Atrium’s drafts are read from the origin’s storage, then cleared; a damaged value reads as none', () => {
  storage.items.set('atrium.drafts', JSON.stringify({ new: 'kept', odd: 5, empty: '' }));
  assert.deepEqual(legacyDrafts(), { new: 'kept' });
  clearLegacyDrafts();
  assert.equal(storage.items.has('atrium.drafts'), false);
  for (const damaged of ['{not json', '[1,2]', '"text"', 'null']) {
    storage.items.set('atrium.drafts', damaged);
    assert.deepEqual(legacyDrafts(), {}, damaged);
  }
  Reflect.deleteProperty(globalThis, 'localStorage');
  assert.deepEqual(legacyDrafts(), {}, 'no storage: nothing to read');
  assert.doesNotThrow(clearLegacyDrafts);
});
