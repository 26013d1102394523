import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import type { FetchLike } from '@modelcontextprotocol/client';
import { withSignalPerRequest } from './openTransport.ts';

const url = 'http://127.0.0.1:1/mcp';
const listenersOn = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;

/**
 * Answers as fetch does with the signal it is given: a listener on it that stays until the request is
 * garbage-collected (never, here), and a request or a body under way that fails once it is aborted.
 */
function likeFetch(answer: (signal: AbortSignal) => Promise<Response>): { fetch: FetchLike; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    signals,
    fetch: async (_url, init) => {
      const signal = init?.signal as AbortSignal;
      signal.addEventListener('abort', () => undefined);
      signals.push(signal);
      return answer(signal);
    },
  };
}

test('thousands of requests leave no listener on the transport’s signal', async () => {
  const transport = new AbortController();
  const server = likeFetch(async () => new Response('{}', { headers: { 'content-type': 'application/json' } }));
  const fetchForTransport = withSignalPerRequest(server.fetch);
  for (let request = 0; request < 2_000; request++) await (await fetchForTransport(url, { method: 'POST', body: '{}', signal: transport.signal })).json();
  assert.equal(listenersOn(transport.signal), 0);
  assert.ok(server.signals.every((signal) => signal !== transport.signal));
  const unsignalled = await withSignalPerRequest(async (_url, init) => new Response(String(init?.signal === undefined)))(url, { method: 'GET' });
  assert.equal(await unsignalled.text(), 'true', 'a request without a signal is sent as it was');
});

test('closing the transport still aborts a request waiting for its answer and an event stream being read', async () => {
  const transport = new AbortController();
  const waiting = likeFetch((signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))));
  const pending = withSignalPerRequest(waiting.fetch)(url, { method: 'POST', body: '{}', signal: transport.signal });
  const streaming = likeFetch(async (signal) => {
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('event: message\ndata: {}\n\n'));
        signal.addEventListener('abort', () => controller.error(signal.reason));
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  });
  const stream = await withSignalPerRequest(streaming.fetch)(url, { method: 'GET', signal: transport.signal });
  const reader = stream.body!.getReader();
  assert.match(new TextDecoder().decode((await reader.read()).value), /data: \{\}/);
  assert.equal(listenersOn(transport.signal), 2, 'both are under way');
  transport.abort(new Error('the connection closed'));
  await assert.rejects(pending, /the connection closed/);
  await assert.rejects(reader.read(), /the connection closed/);
});

test('an event stream that ends, or that its reader stops reading, is done with the transport’s signal', async () => {
  const transport = new AbortController();
  const server = likeFetch(async () => new Response('event: message\ndata: {}\n\n', { headers: { 'content-type': 'text/event-stream; charset=utf-8' } }));
  const fetchForTransport = withSignalPerRequest(server.fetch);
  const ended = await fetchForTransport(url, { method: 'GET', signal: transport.signal });
  assert.match(await ended.text(), /data: \{\}/);
  const endless = withSignalPerRequest(async () => new Response(new ReadableStream({ pull: () => new Promise(() => undefined) }), { headers: { 'content-type': 'text/event-stream' } }));
  const stopped = await endless(url, { method: 'GET', signal: transport.signal });
  await stopped.body!.cancel();
  // The cancel reaches the stream's source a few turns of the event loop later.
  for (let turn = 0; turn < 100 && listenersOn(transport.signal) > 0; turn++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(listenersOn(transport.signal), 0);
});
