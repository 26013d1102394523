import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CallTeller } from './callTeller.ts';
import type { ViewedCall } from './viewedCall.ts';

function teller() {
  const told: string[] = [];
  const view = {
    sendToolInput: async (params: { arguments?: Record<string, unknown> }) => void told.push(`input ${JSON.stringify(params.arguments)}`),
    sendToolResult: async (params: { content: unknown[]; isError?: boolean }) => void told.push(`result ${JSON.stringify(params)}`),
    sendToolCancelled: async (params: { reason?: string }) => void told.push(`cancelled ${params.reason}`),
  };
  return { told, teller: new CallTeller(view) };
}

const call = (extra: Partial<ViewedCall>): ViewedCall => ({ id: 'c1', conversationId: 'conv', messageId: 'm1', serverId: 'views', tool: 'show', cancelled: false, ...extra });

test('a view is told nothing before it is ready, and then the call as far as it went, each step once', () => {
  const { told, teller: t } = teller();
  t.follow(call({ arguments: { n: 1 } }));
  assert.deepEqual(told, []);
  t.initialized();
  t.follow(call({ arguments: { n: 1 } }));
  t.follow(call({ arguments: { n: 1 }, result: { content: [{ type: 'text', text: 'ok' }] } }));
  t.follow(call({ arguments: { n: 1 }, result: { content: [{ type: 'text', text: 'ok' }] } }));
  assert.deepEqual(told, ['input {"n":1}', 'result {"content":[{"type":"text","text":"ok"}]}']);
});

test('a call not yet allowed tells its view nothing; one that was not made tells it only that, and why', () => {
  const { told, teller: t } = teller();
  t.initialized();
  t.follow(call({}));
  assert.deepEqual(told, []);
  t.follow(call({ notRun: 'The call was not allowed.' }));
  t.follow(call({ notRun: 'The call was not allowed.' }));
  assert.deepEqual(told, ['cancelled The call was not allowed.']);
});

test('a failed call reaches its view as an error result; a call cancelled while it ran, as cancelled', () => {
  const failed = teller();
  failed.teller.initialized();
  failed.teller.follow(call({ arguments: {}, result: { error: 'the server went away' } }));
  assert.deepEqual(failed.told, ['input {}', 'result {"content":[{"type":"text","text":"the server went away"}],"isError":true}']);
  const cancelled = teller();
  cancelled.teller.initialized();
  cancelled.teller.follow(call({ arguments: {}, cancelled: true }));
  assert.deepEqual(cancelled.told, ['input {}', 'cancelled The call was cancelled.']);
});
