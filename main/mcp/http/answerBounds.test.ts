import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import type { FetchLike } from '@modelcontextprotocol/client';
import { MESSAGE_TOO_LARGE, MessageTooLargeError } from '../oversizedMessage.ts';
import { boundedFetch } from './answerBounds.ts';

const url = 'http://127.0.0.1:1/mcp';
const listenersOn = (signal: AbortSignal) => getEventListeners(signal, 'abort').length;
const MB = 1024 * 1024;
const bounds = { maxMessageBytes: MB };
const encode = (text: string) => new TextEncoder().encode(text);

/**
 * Answers as fetch does with the signal it is given: a listener on it that stays until the request is
 * garbage-collected (never, here), and a request or a body under way that fails once it is aborted.
 */
function likeFetch(answer: (signal: AbortSignal, init: RequestInit | undefined) => Promise<Response>): { fetch: FetchLike; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    signals,
    fetch: async (_url, init) => {
      const signal = init?.signal as AbortSignal;
      signal.addEventListener('abort', () => undefined);
      signals.push(signal);
      return answer(signal, init);
    },
  };
}

/** A body that sends `first` and then nothing, until it is aborted or cancelled; `cancelled` says whether its reader let go. */
function openEnded(signal: AbortSignal, first: string, contentType: string): { response: Response; cancelled: () => boolean } {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encode(first));
      signal.addEventListener('abort', () => controller.error(signal.reason));
    },
    cancel() {
      cancelled = true;
    },
  });
  return { response: new Response(body, { headers: { 'content-type': contentType } }), cancelled: () => cancelled };
}

/** A body that never ends, sent in chunks of `chunkBytes` as fast as it is read; counts what was read. */
function endless(start: string, contentType: string, chunkBytes = 64 * 1024): { response: Response; sent: () => number; cancelled: () => boolean } {
  let sent = 0;
  let cancelled = false;
  const filler = new Uint8Array(chunkBytes).fill(0x61);
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encode(start));
    },
    pull(controller) {
      sent += filler.length;
      controller.enqueue(filler);
    },
    cancel() {
      cancelled = true;
    },
  });
  return { response: new Response(body, { headers: { 'content-type': contentType } }), sent: () => sent, cancelled: () => cancelled };
}

test('thousands of requests leave no listener on the transport’s signal', async () => {
  const transport = new AbortController();
  const server = likeFetch(async () => new Response('{}', { headers: { 'content-type': 'application/json' } }));
  const fetchForTransport = boundedFetch(bounds, server.fetch);
  for (let request = 0; request < 2_000; request++) await (await fetchForTransport(url, { method: 'POST', body: '{}', signal: transport.signal })).json();
  assert.equal(listenersOn(transport.signal), 0);
  assert.ok(server.signals.every((signal) => signal !== transport.signal));
});

test('closing the transport aborts a request waiting for its answer, a JSON answer being read and an event stream being read', async () => {
  const transport = new AbortController();
  const waiting = likeFetch((signal) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))));
  const pending = boundedFetch(bounds, waiting.fetch)(url, { method: 'POST', body: '{}', signal: transport.signal });
  // A JSON answer is read whole before the transport gets it.
  const reading = boundedFetch(bounds, likeFetch(async (signal) => openEnded(signal, '{"jsonrpc":"2.0",', 'application/json').response).fetch)(url, { method: 'POST', body: '{}', signal: transport.signal });
  const stream = await boundedFetch(bounds, likeFetch(async (signal) => openEnded(signal, 'event: message\ndata: {}\n\n', 'text/event-stream').response).fetch)(url, { method: 'GET', signal: transport.signal });
  const reader = stream.body!.getReader();
  assert.match(new TextDecoder().decode((await reader.read()).value), /data: \{\}/);
  assert.equal(listenersOn(transport.signal), 3, 'all three are under way');
  transport.abort(new Error('the connection closed'));
  await assert.rejects(pending, /the connection closed/);
  await assert.rejects(reading, /the connection closed/);
  await assert.rejects(reader.read(), /the connection closed/);
  assert.equal(listenersOn(transport.signal), 0);
});

test('an event stream that ends, or that its reader stops reading, is done with the transport’s signal', async () => {
  const transport = new AbortController();
  const server = likeFetch(async () => new Response('event: message\ndata: {}\n\n', { headers: { 'content-type': 'text/event-stream; charset=utf-8' } }));
  const ended = await boundedFetch(bounds, server.fetch)(url, { method: 'GET', signal: transport.signal });
  assert.match(await ended.text(), /data: \{\}/);
  const stopped = await boundedFetch(bounds, async () => new Response(new ReadableStream({ pull: () => new Promise(() => undefined) }), { headers: { 'content-type': 'text/event-stream' } }))(url, {
    method: 'GET',
    signal: transport.signal,
  });
  await stopped.body!.cancel();
  // The cancel reaches the stream's source a few turns of the event loop later.
  for (let turn = 0; turn < 100 && listenersOn(transport.signal) > 0; turn++) await new Promise((resolve) => setImmediate(resolve));
  assert.equal(listenersOn(transport.signal), 0);
});

test('a JSON answer that never ends fails its read past the cap, and the rest of it is never read', async () => {
  const server = endless('{"result":{"content":[{"type":"text","text":"', 'application/json');
  await assert.rejects(
    boundedFetch(bounds, async () => server.response)(url, { method: 'POST', body: '{"method":"tools/call","jsonrpc":"2.0","id":7}' }),
    (error: unknown) => error instanceof MessageTooLargeError && error.message === 'message from server exceeded 1 MB and was discarded',
  );
  assert.ok(server.cancelled(), 'the answer was cancelled at its source');
  assert.ok(server.sent() < 2 * MB, `read ${server.sent()} bytes`);
});

test('a JSON answer within the cap arrives whole', async () => {
  const text = 'x'.repeat(MB - 100);
  const answer = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }] } });
  const response = await boundedFetch(bounds, async () => new Response(answer, { headers: { 'content-type': 'application/json' } }))(url, { method: 'POST', body: '{}' });
  assert.equal(((await response.json()) as { result: { content: { text: string }[] } }).result.content[0]?.text, text);
});

test('an error page is read only as far as its first 64 KB: the rest is not waited for', async () => {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start: (controller) => controller.enqueue(new Uint8Array(100 * 1024).fill(0x62)),
    cancel: () => void (cancelled = true),
  });
  const response = await boundedFetch(bounds, async () => new Response(body, { status: 500 }))(url, { method: 'POST', body: '{}' });
  assert.equal(response.status, 500);
  assert.equal((await response.text()).length, 64 * 1024);
  assert.ok(cancelled);
});

test('an event past the cap in the answer to a request fails that request at once and ends the stream', async () => {
  const server = endless('event: message\ndata: {"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n\nevent: message\ndata: {"result":', 'text/event-stream');
  const discarded: MessageTooLargeError[] = [];
  const response = await boundedFetch({ maxMessageBytes: MB, onDiscarded: (error) => discarded.push(error) }, async () => server.response)(url, {
    method: 'POST',
    body: '{"method":"tools/call","params":{"name":"endless"},"jsonrpc":"2.0","id":"call-1"}',
  });
  const events = (await response.text()).split('\n\n').filter(Boolean);
  assert.equal(events.length, 2, 'the progress report, then the failure in place of the endless event');
  const failure = JSON.parse(events[1]!.replace(/^event: message\ndata: /, '')) as { id: string; error: { code: number; message: string } };
  assert.deepEqual(failure, { jsonrpc: '2.0', id: 'call-1', error: { code: MESSAGE_TOO_LARGE, message: 'message from server exceeded 1 MB and was discarded' } });
  assert.ok(server.cancelled(), 'the stream was cancelled at its source');
  assert.ok(server.sent() < 2 * MB);
  assert.equal(discarded.length, 1);
});

test('on a stream of the server’s own, an event past the cap is skipped; the request it names fails, and the stream goes on', async () => {
  const big = JSON.stringify({ result: { content: [{ type: 'text', text: 'z'.repeat(1.5 * MB) }] }, jsonrpc: '2.0', id: 12 });
  const wire = `event: message\ndata: ${big}\n\nevent: message\ndata: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"after"}}\n\n`;
  const chunks: Uint8Array[] = [];
  for (let at = 0; at < wire.length; at += 10_000) chunks.push(encode(wire.slice(at, at + 10_000)));
  const body = new ReadableStream<Uint8Array>({ start: (controller) => (chunks.forEach((chunk) => controller.enqueue(chunk)), controller.close()) });
  const response = await boundedFetch(bounds, async () => new Response(body, { headers: { 'content-type': 'text/event-stream' } }))(url, { method: 'GET' });
  const events = (await response.text()).split('\n\n').filter(Boolean);
  assert.equal(events.length, 2);
  assert.match(events[0]!, /"id":12,"error":\{"code":-32099,/);
  assert.match(events[1]!, /"data":"after"/);
});

test('a 2025-era request given up (notifications/cancelled) stops the answer still being read for it, and no other', async () => {
  const answers = new Map<string, { cancelled: () => boolean }>();
  const server = likeFetch(async (signal, init) => {
    const { id } = JSON.parse(String(init?.body)) as { id?: number };
    if (id === undefined) return new Response(null, { status: 202 });
    const answer = openEnded(signal, '{"result":', 'application/json');
    answers.set(String(id), answer);
    return answer.response;
  });
  const fetchForTransport = boundedFetch(bounds, server.fetch);
  const first = fetchForTransport(url, { method: 'POST', body: '{"method":"tools/call","params":{},"jsonrpc":"2.0","id":1}' });
  const second = fetchForTransport(url, { method: 'POST', body: '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{}}' });
  for (let turn = 0; turn < 100 && answers.size < 2; turn++) await new Promise((resolve) => setImmediate(resolve));
  await fetchForTransport(url, { method: 'POST', body: '{"method":"notifications/cancelled","params":{"requestId":2,"reason":"timed out"},"jsonrpc":"2.0"}' });
  await assert.rejects(second, /Atrium stopped reading an answer nobody waits for any more/);
  let firstSettled = false;
  void first.then(
    () => (firstSettled = true),
    () => (firstSettled = true),
  );
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(firstSettled, false, 'the other answer is still being read');
});
