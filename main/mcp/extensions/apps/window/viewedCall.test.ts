import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolCallRecord } from '../../../../../shared/conversation.ts';
import type { LiveToolCall } from '../../../../../renderer/store/chatSlice.ts';
import { viewedCall } from './viewedCall.ts';

const live = (status: LiveToolCall['status'], extra: Partial<LiveToolCall> = {}): LiveToolCall => ({
  callId: 'c1',
  serverId: 'views',
  tool: 'show',
  arguments: status === 'composing' ? {} : { secret: 'hunter2' },
  partialArguments: { secret: 'hun' },
  status,
  ...extra,
});

const saved = (extra: Partial<ToolCallRecord>): ToolCallRecord => ({
  id: 'c1',
  conversationId: 'conv',
  messageId: 'm1',
  serverId: 'views',
  tool: 'show',
  modelName: 'views__show',
  arguments: { secret: 'hunter2' },
  status: 'done',
  isError: false,
  createdAt: 1,
  ...extra,
});

test('a view learns nothing of its call while the model writes it or while the person decides', () => {
  for (const status of ['composing', 'awaiting_approval'] as const) {
    const seen = viewedCall(undefined, live(status), 'conv', 'm1');
    assert.deepEqual(seen, { id: 'c1', conversationId: 'conv', messageId: 'm1', serverId: 'views', tool: 'show', cancelled: false }, status);
  }
});

test('a view learns the whole arguments once the call runs, and its result once it ended', () => {
  assert.deepEqual(viewedCall(undefined, live('running', { startedAt: 5 }), 'conv', 'm1')?.arguments, { secret: 'hunter2' });
  const done = viewedCall(saved({ startedAt: 5, result: { content: [{ type: 'text', text: 'ok' }] } }), live('done', { startedAt: 5 }), undefined, undefined);
  assert.deepEqual(done?.arguments, { secret: 'hunter2' });
  assert.deepEqual(done?.result, { content: [{ type: 'text', text: 'ok' }] });
});

test('a call that never ran is told to its view as not run, why, and never with its arguments', () => {
  const denied = viewedCall(saved({ status: 'denied', decision: 'deny', result: { error: 'denied' } }), live('denied'), undefined, undefined);
  assert.equal(denied?.arguments, undefined);
  assert.equal(denied?.result, undefined);
  assert.equal(denied?.notRun, 'The call was not allowed.');
  assert.equal(viewedCall(undefined, live('cancelled'), 'conv', 'm1')?.notRun, 'The call was cancelled before it ran.');
  assert.equal(viewedCall(undefined, live('invalid'), 'conv', 'm1')?.arguments, undefined);
});

test('a reopened conversation shows an allowed call from its record; an earlier run’s record does not open a call being decided', () => {
  const reopened = viewedCall(saved({ startedAt: 5, decision: 'allow', result: { content: [] } }), undefined, undefined, undefined);
  assert.deepEqual(reopened?.arguments, { secret: 'hunter2' });
  const askedAgain = viewedCall(saved({ startedAt: 5, decision: 'allow' }), live('awaiting_approval'), undefined, undefined);
  assert.equal(askedAgain?.arguments, undefined);
});

test('a call cancelled while it ran was allowed: its view has the arguments and hears it was cancelled', () => {
  const cancelled = viewedCall(saved({ status: 'cancelled', startedAt: 5, decision: 'allow' }), live('cancelled', { startedAt: 5 }), undefined, undefined);
  assert.deepEqual(cancelled?.arguments, { secret: 'hunter2' });
  assert.equal(cancelled?.cancelled, true);
  assert.equal(cancelled?.notRun, undefined);
});
