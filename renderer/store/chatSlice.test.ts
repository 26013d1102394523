// The chat slice on its own: a window reloaded while a turn runs follows it from where it joined.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ConversationSummary } from '../../shared/contract.ts';
import { createAtriumStore } from './useAtriumStore.ts';

const conversation = (id: string, running: boolean): ConversationSummary => ({ id, title: id, createdAt: 0, updatedAt: 0, ...(running ? { running: true as const } : {}) });

test('a window that opens while a turn runs lands on that conversation and follows the reply from the first delta it hears', () => {
  const store = createAtriumStore();
  store.getState().setConversations([conversation('quiet', false), conversation('answering', true)]);
  store.getState().joinRunningTurns();
  store.getState().landOnRunningConversation();
  assert.equal(store.getState().selectedConversationId, 'answering');
  assert.equal(store.getState().view, 'chat');
  assert.deepEqual(Object.keys(store.getState().live), ['answering'], 'only the running one is followed');
  assert.equal(store.getState().live['answering']?.textFrom, undefined, 'nothing heard yet: the saved reply is all there is');

  store.getState().applyTurnEvent('answering', { type: 'text', messageId: 'm1', delta: 'second half', at: 15 });
  store.getState().applyTurnEvent('answering', { type: 'text', messageId: 'm1', delta: '.', at: 26 });
  const live = store.getState().live['answering'];
  assert.deepEqual([live?.messageId, live?.textFrom, live?.text], ['m1', 15, 'second half.']);

  store.getState().applyTurnEvent('answering', { type: 'assistant_started', messageId: 'm2' });
  assert.equal(store.getState().live['answering']?.textFrom, 0, 'a step seen from its start is all heard');
});

test('a window where the person already went somewhere stays there', () => {
  const store = createAtriumStore();
  store.getState().showView('settings');
  store.getState().setConversations([conversation('answering', true)]);
  store.getState().landOnRunningConversation();
  assert.deepEqual([store.getState().view, store.getState().selectedConversationId], ['settings', null]);
});
