import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ServerError } from '../../mcp/connection/serverError.ts';
import { createResilientRunner } from './resilientRunner.ts';

function flaky(failures: number, kind: 'unavailable' | 'timeout' | 'protocol' = 'unavailable') {
  let calls = 0;
  return {
    calls: () => calls,
    runner: {
      call: async (serverId: string) => {
        calls++;
        if (calls <= failures) throw new ServerError(serverId, kind, `${serverId}: down`);
        return { content: [{ type: 'text' as const, text: 'ok' }] };
      },
    },
  };
}

const options = { signal: new AbortController().signal, onProgress: () => undefined };

test('an idempotent tool is retried on a transient failure', async () => {
  const server = flaky(2);
  const runner = createResilientRunner(server.runner, { isIdempotent: () => true, retryDelayMs: 1 });
  assert.deepEqual(await runner.call('s', 't', {}, options), { content: [{ type: 'text', text: 'ok' }] });
  assert.equal(server.calls(), 3);
});

test('a tool that is not idempotent is never retried; nor is a protocol error', async () => {
  const notIdempotent = flaky(1);
  await assert.rejects(createResilientRunner(notIdempotent.runner, { isIdempotent: () => false, retryDelayMs: 1 }).call('s', 't', {}, options));
  assert.equal(notIdempotent.calls(), 1);
  const protocol = flaky(1, 'protocol');
  await assert.rejects(createResilientRunner(protocol.runner, { isIdempotent: () => true, retryDelayMs: 1 }).call('s', 't', {}, options));
  assert.equal(protocol.calls(), 1);
});

test('the circuit breaker pauses a failing server, then lets one call through after the cool-down', async () => {
  let clock = 1_000;
  const server = flaky(3);
  const runner = createResilientRunner(server.runner, { isIdempotent: () => false, failureThreshold: 3, cooldownMs: 10_000, now: () => clock });
  for (let i = 0; i < 3; i++) await assert.rejects(runner.call('s', 't', {}, options), /s: down/);
  await assert.rejects(runner.call('s', 't', {}, options), /s: calls are paused for 10 s after 3 failures in a row/);
  assert.equal(server.calls(), 3, 'no call reached the server while paused');
  clock += 10_000;
  assert.ok(await runner.call('s', 't', {}, options));
  assert.equal(server.calls(), 4);
});
