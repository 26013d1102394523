// The banner's memory of what the person put away: a problem hidden stays hidden while it lasts, and
// one that went (its file was fixed) and came back, or a new one, shows again.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { DataFileProblem } from '../../shared/domain.ts';
import { unreadDataFileProblems } from './dataFilesSlice.ts';
import { createAtriumStore } from './useAtriumStore.ts';

const broken = (problem: string): DataFileProblem => ({ file: 'servers.json', problem, keptAt: null, inPlace: true, withoutIt: 'Atrium keeps the servers it had', recovery: [] });

test('a problem hidden, fixed and made again shows again; while it lasts it stays hidden', () => {
  const store = createAtriumStore();
  const unread = () => unreadDataFileProblems(store.getState());
  store.getState().setDataFileProblems([broken('line 2, column 30: a comma with nothing after it (remove it)')]);
  assert.equal(unread(), true);
  store.getState().hideDataFileProblems();
  assert.equal(unread(), false);
  // Listed again unchanged (another window's reload): still put away.
  store.getState().setDataFileProblems([broken('line 2, column 30: a comma with nothing after it (remove it)')]);
  assert.equal(unread(), false);
  // Fixed, then the same mistake made again: it shows.
  store.getState().setDataFileProblems([]);
  store.getState().setDataFileProblems([broken('line 2, column 30: a comma with nothing after it (remove it)')]);
  assert.equal(unread(), true);
  store.getState().hideDataFileProblems();
  // Another mistake in the same file shows.
  store.getState().setDataFileProblems([broken('line 3, column 6: a colon (:) is missing here')]);
  assert.equal(unread(), true);
});
