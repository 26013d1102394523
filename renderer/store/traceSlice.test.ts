// The window's mirror of one server's trace: what the watch answered, then the batches the host announces
// — nothing twice, bounded as the host's trace is, and a request learns its answer when the answer comes.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TraceMessage } from '../../shared/contract.ts';
import { createAtriumStore } from './useAtriumStore.ts';

const message = (seq: number, fields: Partial<TraceMessage> = {}): TraceMessage => ({ serverId: 'srv', seq, at: seq, direction: 'out', kind: 'notification', bytes: 1, ...fields });

test('batches add only what is new, a request learns its answer, and the mirror keeps what the host keeps', () => {
  const store = createAtriumStore();
  const state = () => store.getState();
  state().openTrace('srv');
  // A batch that came before the watch's answer is kept after what the answer holds.
  state().appendTrace('srv', [message(3)], 0);
  state().setTrace('srv', [message(1), message(2, { kind: 'request', id: 7 })], { messages: 4, bytes: 1000 });
  assert.deepEqual(
    state().trace?.messages.map((m) => m.seq),
    [1, 2, 3],
  );
  state().appendTrace('srv', [message(3), message(4, { kind: 'result', id: 7, pairSeq: 2, durationMs: 12 }), message(5)], 120);
  assert.deepEqual(
    state().trace?.messages.map((m) => m.seq),
    [2, 3, 4, 5],
  );
  assert.deepEqual([state().trace?.messages[0]?.pairSeq, state().trace?.messages[0]?.durationMs], [4, 12]);
  assert.equal(state().trace?.skipped, 120);
  // Another server's batch is not this trace's.
  state().appendTrace('other', [message(9)], 0);
  assert.equal(state().trace?.messages.at(-1)?.seq, 5);
});

test('showing a tool call from its trace opens its conversation in the chat', () => {
  const store = createAtriumStore();
  store.getState().showServerTrace('srv', 'call-1');
  assert.deepEqual([store.getState().view, store.getState().selectedServerTab, store.getState().traceCall], ['servers', 'trace', { serverId: 'srv', callId: 'call-1' }]);
  store.getState().showToolCall('conv-1', 'call-1');
  assert.deepEqual([store.getState().view, store.getState().selectedConversationId, store.getState().shownPlace], ['chat', 'conv-1', { conversationId: 'conv-1', callId: 'call-1' }]);
});
