// The tool-call channel as a layer of a transport, over the SDK's in-memory transport pair with the test
// playing the server: it takes the answers to its own calls and hands everything else on; it knows a task
// answer for what it is; a call given up on tells the server; a closed transport ends every call.
// Against real server processes: toolCallChannel.int.test.ts.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { InMemoryTransport } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { ToolCallChannel } from './toolCallChannel.ts';

/** A channel over one end of an in-memory pair; the test answers as the server on the other end. */
async function linked() {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const dropped: { text: string; mistake: boolean }[] = [];
  const channel = new ToolCallChannel(clientSide, (text, mistake) => dropped.push({ text, mistake }));
  const passedOn: JSONRPCMessage[] = [];
  channel.onmessage = (message) => void passedOn.push(message);
  const atServer: JSONRPCMessage[] = [];
  let heard: ((message: JSONRPCMessage) => void) | undefined;
  serverSide.onmessage = (message) => {
    atServer.push(message);
    heard?.(message);
  };
  /** The next message the server receives that `match` accepts. */
  const serverReceives = (match: (message: JSONRPCMessage) => boolean) =>
    new Promise<JSONRPCMessage>((resolve) => {
      const found = atServer.find(match);
      if (found) return resolve(found);
      heard = (message) => {
        if (match(message)) resolve(message);
      };
    });
  await serverSide.start();
  await channel.start();
  return { channel, serverSide, passedOn, serverReceives, dropped };
}

const callRequest = (message: JSONRPCMessage): message is JSONRPCMessage & { id: number; method: string } => 'method' in message && message.method === 'tools/call' && 'id' in message;

test('the answer to a call goes to that call; whatever else the server sends is handed on to the SDK', async () => {
  const { channel, serverSide, passedOn, serverReceives } = await linked();
  const call = channel.call({ name: 'echo', arguments: { text: 'hi' } }, { timeout: 5_000 });
  const request = await serverReceives(callRequest);
  await serverSide.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
  await serverSide.send({ jsonrpc: '2.0', id: 7, result: {} });
  await serverSide.send({ jsonrpc: '2.0', id: (request as { id: number }).id, result: { content: [{ type: 'text', text: 'hi' }] } });
  assert.deepEqual(await call, { content: [{ type: 'text', text: 'hi' }] });
  assert.deepEqual(passedOn, [{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, { jsonrpc: '2.0', id: 7, result: {} }]);
});

test('an answer to a request never sent is said as the server\'s mistake; one that comes after its call ended is noted quietly', async () => {
  const { channel, serverSide, serverReceives, dropped } = await linked();
  const call = channel.call({ name: 'wrongid', arguments: {} }, { timeout: 5_000 });
  const request = (await serverReceives(callRequest)) as { id: number };
  await serverSide.send({ jsonrpc: '2.0', id: request.id + 1000, result: { content: [] } });
  assert.equal(dropped.length, 1);
  assert.equal(dropped[0]?.mistake, true);
  assert.match(dropped[0]?.text ?? '', new RegExp(`^the server answered request ${request.id + 1000}, which Atrium never sent; the answer was dropped`));
  await serverSide.send({ jsonrpc: '2.0', id: request.id, result: { content: [{ type: 'text', text: 'at last' }] } });
  await call;
  await serverSide.send({ jsonrpc: '2.0', id: request.id, result: { content: [] } });
  assert.deepEqual(dropped.at(-1), { text: `an answer to request ${request.id} came after its call had ended (its time limit, or it was called off); it was dropped`, mistake: false });
});

test('a task in answer to a call not made as one is refused as such, not taken for a result with no content', async () => {
  const { channel, serverSide, serverReceives } = await linked();
  const call = channel.call({ name: 'research' }, { timeout: 5_000 });
  const request = await serverReceives(callRequest);
  await serverSide.send({ jsonrpc: '2.0', id: (request as { id: number }).id, result: { task: { taskId: 't-1', status: 'working', createdAt: '2026-11-27T00:00:00Z', ttl: 60_000 } } });
  await assert.rejects(call, /answered with a task, though the call was not made as one/);
});

test('a call aborted right after it was sent is cancelled, and the server is told which request to stop', async () => {
  const { channel, serverReceives } = await linked();
  const controller = new AbortController();
  const call = channel.call({ name: 'slow' }, { timeout: 5_000, signal: controller.signal });
  const request = await serverReceives(callRequest);
  // The channel's timer never holds a process open (a real transport's pipe does); here nothing else would.
  const holdOpen = setInterval(() => undefined, 1_000);
  controller.abort(new Error('cancelled by the person'));
  await assert.rejects(call, /cancelled by the person/);
  const cancelled = await serverReceives((message) => 'method' in message && message.method === 'notifications/cancelled');
  clearInterval(holdOpen);
  assert.equal((cancelled as unknown as { params: { requestId: number } }).params.requestId, (request as { id: number }).id);
  assert.equal((cancelled as unknown as { params: { reason: string } }).params.reason, 'cancelled by the person', 'the words given, without "Error: "');
});

test('a call stopped without words (a turn stopped, its conversation deleted) tells the server it was cancelled, not the platform\'s AbortError', async () => {
  const { channel, serverReceives } = await linked();
  const controller = new AbortController();
  const call = channel.call({ name: 'slow' }, { timeout: 5_000, signal: controller.signal });
  await serverReceives(callRequest);
  const holdOpen = setInterval(() => undefined, 1_000);
  controller.abort();
  await assert.rejects(call);
  const cancelled = await serverReceives((message) => 'method' in message && message.method === 'notifications/cancelled');
  clearInterval(holdOpen);
  assert.equal((cancelled as unknown as { params: { reason: string } }).params.reason, 'the request was cancelled');
});

test('when the transport closes, every waiting call fails and so does every later one', async () => {
  const { channel, serverSide, serverReceives } = await linked();
  const call = channel.call({ name: 'slow' }, { timeout: 5_000 });
  await serverReceives(callRequest);
  await serverSide.close();
  await assert.rejects(call, /Connection closed/);
  await assert.rejects(channel.call({ name: 'echo' }, { timeout: 5_000 }), /Connection closed/);
});

test("a request sent as it is (the tasks library's) gets the server's answer as it came, a task answer or an error, unread", async () => {
  const { channel, serverSide, serverReceives } = await linked();
  const call = channel.request('tools/call', { name: 'research', task: {} }, { timeout: 5_000 });
  const request = (await serverReceives((message) => 'method' in message && message.method === 'tools/call')) as { id: number; params: unknown };
  assert.deepEqual(request.params, { name: 'research', task: {} });
  const task = { task: { taskId: 't-1', status: 'working', createdAt: '2026-11-27T00:00:00Z', ttl: 60_000 } };
  await serverSide.send({ jsonrpc: '2.0', id: request.id, result: task });
  assert.deepEqual(await call, { kind: 'result', result: task });
  const poll = channel.request('tasks/get', { taskId: 't-1' }, { timeout: 5_000 });
  const get = (await serverReceives((message) => 'method' in message && message.method === 'tasks/get')) as { id: number };
  await serverSide.send({ jsonrpc: '2.0', id: get.id, error: { code: -32602, message: 'Unknown task' } });
  assert.deepEqual(await poll, { kind: 'error', error: { code: -32602, message: 'Unknown task' } });
});

test('a task request given up on is not answered with notifications/cancelled: a task is cancelled with tasks/cancel only', async () => {
  const { channel, serverReceives } = await linked();
  const controller = new AbortController();
  const poll = channel.request('tasks/result', { taskId: 't-1' }, { timeout: 5_000, signal: controller.signal });
  await serverReceives((message) => 'method' in message && message.method === 'tasks/result');
  const holdOpen = setInterval(() => undefined, 1_000);
  controller.abort(new Error('the task ended'));
  await assert.rejects(poll, /the task ended/);
  // A tools/call given up on is announced as an ordinary call is: that notice is the only one the server gets.
  const other = new AbortController();
  const slow = channel.request('tools/call', { name: 'slow' }, { timeout: 5_000, signal: other.signal });
  const sent = (await serverReceives((message) => 'method' in message && message.method === 'tools/call')) as { id: number };
  other.abort(new Error('stop'));
  await assert.rejects(slow, /stop/);
  const notice = (await serverReceives((message) => 'method' in message && message.method === 'notifications/cancelled')) as unknown as { params: { requestId: number } };
  clearInterval(holdOpen);
  assert.equal(notice.params.requestId, sent.id, 'the only notifications/cancelled is for the tools/call, not the tasks/result');
});
