// What goes with a conversation's next message besides its words: kept per conversation, so it never
// goes with a message sent in another, and given up without leaving an empty entry behind.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createAtriumStore } from './useAtriumStore.ts';
import { NOTHING_YET } from './nextMessageSlice.ts';

const doc = { serverId: 'everything', uri: 'demo://doc', name: 'doc' };
const file = { name: 'notes.txt', mimeType: 'text/plain', data: 'bm90ZXM=', size: 5 };

test('resources, files and a half-filled prompt belong to the conversation they were added in', () => {
  const store = createAtriumStore();
  const state = () => store.getState();
  state().attach('c-1', doc);
  state().attach('c-1', doc);
  state().setAttachedFiles('new', [file]);
  state().setPromptForm('c-1', { prompt: { serverId: 'everything', name: 'args-prompt', arguments: [{ name: 'city', required: true }] }, values: { city: 'Par' } });
  assert.deepEqual(state().attachments, { 'c-1': [doc] }, 'attached twice, counted once');
  assert.deepEqual(state().attachedFiles, { new: [file] });
  assert.equal(state().attachments['new'] ?? NOTHING_YET, NOTHING_YET, 'the other conversation has none');
  assert.deepEqual(state().promptForms['c-1']?.values, { city: 'Par' });

  state().setAttachedFiles('new', (current) => current.filter((f) => f.name !== 'notes.txt'));
  state().detach('c-1', 'demo://doc');
  state().setPromptForm('c-1', null);
  assert.deepEqual([state().attachments, state().attachedFiles, state().promptForms], [{}, {}, {}], 'nothing left behind');
});
