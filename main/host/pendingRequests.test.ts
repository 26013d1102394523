import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PendingRequests, PendingWithdrawnError } from './pendingRequests.ts';
import type { PendingRecord } from './pendingRequests.ts';

/** A model's reply waiting for review: the smallest payload a pending request carries. */
const reply = { stage: 'result', provider: 'p', model: 'm', why: 'the default', text: 'hi', stopReason: 'endTurn' } as const;

function registry() {
  const log: string[] = [];
  const pending = new PendingRequests({
    opened: (r: PendingRecord) => log.push(`opened ${r.kind} ${r.serverId}`),
    closed: (r: PendingRecord, how, reason) => log.push(`${how} ${r.serverId}${reason ? `: ${reason}` : ''}`),
  });
  return { pending, log };
}

test('a pending request is settled by one respond(id, outcome); a second respond is refused', async () => {
  const { pending, log } = registry();
  const answer = pending.request<'elicitation', { action: string }>('elicitation', 'fs', { mode: 'url', message: 'Sign in', url: 'https://example.com', domain: 'example.com' });
  const [record] = pending.list();
  assert.ok(record);
  assert.equal(pending.respond(record.id, { action: 'accept' }), true);
  assert.deepEqual(await answer, { action: 'accept' });
  assert.equal(pending.respond(record.id, { action: 'decline' }), false);
  assert.deepEqual(log, ['opened elicitation fs', 'settled fs']);
});

test('a server that disconnects withdraws its open requests; other servers keep theirs', async () => {
  const { pending } = registry();
  const mine = pending.request('sampling', 'gone', reply);
  const theirs = pending.request('sampling', 'stays', reply);
  pending.withdrawForServer('gone', 'the server disconnected');
  await assert.rejects(mine, PendingWithdrawnError);
  assert.deepEqual(pending.list().map((r) => r.serverId), ['stays']);
  pending.respond(pending.list()[0]?.id ?? '', 'ok');
  assert.equal(await theirs, 'ok');
});

test('the caller giving up (its signal) withdraws the request', async () => {
  const { pending, log } = registry();
  const controller = new AbortController();
  const waiting = pending.request('sampling', 'fs', reply, { signal: controller.signal });
  controller.abort();
  await assert.rejects(waiting, /cancelled/);
  assert.deepEqual(pending.list(), []);
  assert.equal(log.at(-1), 'withdrawn fs: the request was cancelled');
});
