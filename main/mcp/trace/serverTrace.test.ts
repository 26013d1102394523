import assert from 'node:assert/strict';
import { mock, test } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import type { TraceMessage } from '../../../shared/contract.ts';
import { MAX_ANNOUNCED, ServerTrace } from './serverTrace.ts';
import { linkCall } from './traceLink.ts';
import { MAX_STRING_CHARS } from './tracePreview.ts';

function traceOf(limits?: { messages: number; bytes: number }): { trace: ServerTrace; announced: TraceMessage[][]; skipped: number[] } {
  const announced: TraceMessage[][] = [];
  const skipped: number[] = [];
  const trace = new ServerTrace(
    'srv',
    {
      announce: (messages, more) => {
        announced.push(messages);
        skipped.push(more);
      },
    },
    limits,
  );
  return { trace, announced, skipped };
}

const call = (id: number, name = 'echo', args: Record<string, unknown> = { text: 'hi' }): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
const answer = (id: number, text = 'hi'): JSONRPCMessage => ({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text }] } });

test('a request and its answer are paired: the answer carries its method and subject, both the other’s seq and the duration', () => {
  const { trace } = traceOf();
  trace.record('out', call(7));
  trace.record('in', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: 'working' } });
  trace.record('in', answer(7));
  const [request, note, reply] = trace.messages();
  assert.equal(request?.kind, 'request');
  assert.equal(request?.subject, 'echo');
  assert.equal(note?.kind, 'notification');
  assert.equal(note?.pairSeq, undefined);
  assert.deepEqual([reply?.kind, reply?.method, reply?.subject, reply?.id, reply?.direction], ['result', 'tools/call', 'echo', 7, 'in']);
  assert.equal(reply?.pairSeq, request?.seq);
  assert.equal(request?.pairSeq, reply?.seq);
  assert.ok(reply?.durationMs !== undefined && reply.durationMs >= 0 && reply.durationMs === request?.durationMs);
  // Sizes are the UTF-8 bytes of the JSON as it travelled.
  assert.equal(request?.bytes, Buffer.byteLength(JSON.stringify(call(7))));
});

test('the server’s requests are paired with Atrium’s answers, apart from Atrium’s own ids', () => {
  const { trace } = traceOf();
  trace.record('out', call(1));
  trace.record('in', { jsonrpc: '2.0', id: 1, method: 'roots/list' });
  trace.record('out', { jsonrpc: '2.0', id: 1, result: { roots: [] } });
  trace.record('in', answer(1));
  const [ourCall, theirRequest, ourAnswer, theirAnswer] = trace.messages();
  assert.equal(ourAnswer?.pairSeq, theirRequest?.seq);
  assert.equal(ourAnswer?.method, 'roots/list');
  assert.equal(theirAnswer?.pairSeq, ourCall?.seq);
  assert.equal(theirAnswer?.method, 'tools/call');
});

test('an error answer and a tool result that says it failed are marked failed', () => {
  const { trace } = traceOf();
  trace.record('out', call(1));
  trace.record('in', { jsonrpc: '2.0', id: 1, error: { code: -32602, message: 'no such tool' } });
  trace.record('out', call(2));
  trace.record('in', { jsonrpc: '2.0', id: 2, result: { content: [], isError: true } });
  const [, error, , toolError] = trace.messages();
  assert.deepEqual([error?.kind, error?.failed], ['error', true]);
  assert.deepEqual([toolError?.kind, toolError?.failed], ['result', true]);
});

test('a 2025-era server\'s "method not found" to the discovery probe is how the handshake goes, not a failure; another error to it is', () => {
  const { trace } = traceOf();
  trace.record('out', { jsonrpc: '2.0', id: 0, method: 'server/discover', params: {} });
  trace.record('in', { jsonrpc: '2.0', id: 0, error: { code: -32601, message: 'Method not found' } });
  trace.record('out', { jsonrpc: '2.0', id: 1, method: 'server/discover', params: {} });
  trace.record('in', { jsonrpc: '2.0', id: 1, error: { code: -32603, message: 'internal error' } });
  const [, expected, , fault] = trace.messages();
  assert.deepEqual([expected?.method, expected?.kind, expected?.failed], ['server/discover', 'error', undefined]);
  assert.deepEqual([fault?.kind, fault?.failed], ['error', true]);
});

test('a linked tool call’s request, progress, cancellation and answer all carry its call and conversation', () => {
  const { trace } = traceOf();
  const request = call(1 << 30) as { params: object } & JSONRPCMessage;
  linkCall(request.params, { callId: 'call-1', conversationId: 'conv-1' });
  // The channel and the SDK copy the params before sending: the link goes along with the copy.
  const sent = { ...request, params: { ...request.params, _meta: { progressToken: 1 << 30 } } };
  trace.record('out', sent);
  trace.record('in', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1 << 30, progress: 1, total: 2 } });
  trace.record('out', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 << 30, reason: 'cancelled by the person' } });
  trace.record('in', answer(1 << 30));
  trace.record('out', call(5));
  const messages = trace.messages();
  assert.deepEqual(
    messages.map((message) => message.link),
    [...Array.from({ length: 4 }, () => ({ callId: 'call-1', conversationId: 'conv-1' })), undefined],
  );
  // The link is Atrium's own: it is not in what was sent.
  assert.doesNotMatch(JSON.stringify(trace.message(messages[0]?.seq ?? 0)?.json), /call-1/);
});

test('a new session starts its ids again: an answer in it is not paired with a request of the last one', () => {
  const { trace } = traceOf();
  trace.record('out', call(0));
  trace.sessionStarted();
  trace.record('in', answer(0));
  assert.equal(trace.messages()[1]?.pairSeq, undefined);
});

test('a request its session ended without answering says so, with how long it waited; one Atrium called off says it was', () => {
  const { trace } = traceOf();
  trace.record('out', call(1));
  trace.record('out', call(2));
  trace.record('out', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'cancelled by the person' } });
  trace.record('in', { jsonrpc: '2.0', id: 7, method: 'roots/list' });
  trace.sessionEnded();
  const [lost, cancelled, , theirs] = trace.messages();
  assert.equal(lost?.unanswered, 'closed');
  assert.ok((lost?.durationMs ?? -1) >= 0, 'how long it waited');
  assert.equal(cancelled?.unanswered, 'cancelled');
  assert.equal(theirs?.unanswered, 'closed', "the server's own request, too");
});

test('a request Atrium called off that is answered all the same is paired, not called off', () => {
  const { trace } = traceOf();
  trace.record('out', call(3));
  trace.record('out', { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } });
  assert.equal(trace.messages()[0]?.unanswered, 'cancelled');
  trace.record('in', answer(3));
  const [request, , reply] = trace.messages();
  assert.equal(request?.unanswered, undefined);
  assert.equal(reply?.pairSeq, request?.seq);
});

test('the trace keeps the newest messages within its count', () => {
  const { trace } = traceOf({ messages: 3, bytes: 1 << 20 });
  for (let id = 1; id <= 5; id++) trace.record('out', call(id));
  assert.deepEqual(
    trace.messages().map((message) => message.id),
    [3, 4, 5],
  );
  const dropped = 1;
  assert.equal(trace.message(dropped), null);
});

test('the trace keeps the newest messages within its size', () => {
  const { trace } = traceOf({ messages: 1000, bytes: 10_000 });
  for (let id = 1; id <= 50; id++) trace.record('out', call(id, 'echo', { text: 'x'.repeat(900) }));
  const kept = trace.messages();
  assert.ok(kept.length >= 9 && kept.length <= 11, `kept ${kept.length}`);
  assert.equal(kept.at(-1)?.id, 50);
  assert.ok(kept.reduce((sum, message) => sum + message.bytes, 0) <= 10_000);
});

test('a big message is kept cut, says where and how much, and still reports its whole size', () => {
  const { trace } = traceOf();
  const big = 'y'.repeat(5_000_000);
  trace.record('out', call(1));
  trace.record('in', answer(1, big));
  const [, reply] = trace.messages();
  assert.ok((reply?.bytes ?? 0) > 5_000_000);
  const detail = trace.message(reply?.seq ?? 0);
  assert.equal(detail?.truncated, true);
  const text = (detail?.json as { result: { content: { text: string }[] } }).result.content[0]?.text ?? '';
  assert.ok(text.length < MAX_STRING_CHARS + 100);
  assert.match(text, /… \[cut: 4,995,904 more characters\]$/);
  // Long lists are cut too, with the count of what was left out.
  trace.record('in', { jsonrpc: '2.0', id: 9, result: { items: Array.from({ length: 100_000 }, (_, index) => `item ${index}`) } });
  const list = trace.message(trace.messages().at(-1)?.seq ?? 0)?.json as { result: { items: string[] } };
  assert.match(list.result.items.at(-1) ?? '', /^\[cut: \d+ more items\]$/);
});

test('secrets in what is shown and exported are redacted: keys that name one, and credentials by their shape', () => {
  const { trace } = traceOf();
  const token = 'ghp_0123456789abcdefghijABCDEFGHIJ0123';
  trace.record('out', call(1, 'deploy', { api_key: 'hunter2-very-secret', headers: { Authorization: 'Bearer abcdef0123456789abcdef' }, note: `clone https://${token}@github.com/x`, verbose: true }));
  trace.record('in', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 99, progress: 1 } });
  const [request, progress] = trace.messages();
  const shown = JSON.stringify(trace.message(request?.seq ?? 0)?.json);
  for (const secret of ['hunter2-very-secret', 'abcdef0123456789abcdef', token]) assert.ok(!shown.includes(secret), `${secret} shown`);
  assert.match(shown, /"api_key":"\[redacted\]"/);
  assert.match(shown, /"verbose":true/);
  // A progress token is the protocol's own number, not a credential.
  assert.deepEqual((trace.message(progress?.seq ?? 0)?.json as { params: unknown }).params, { progressToken: 99, progress: 1 });
  assert.ok(!trace.exportLines().includes('hunter2'));
  // Finding text looks at what is shown: a secret is not found, so the trace cannot be asked where it was.
  assert.deepEqual(trace.find('hunter2'), []);
  assert.deepEqual(trace.find('DEPLOY'), [request?.seq]);
});

test('exported lines are JSON, one message each, with hidden and terminal characters escaped', () => {
  const { trace } = traceOf();
  trace.record('out', call(1));
  trace.record('in', answer(1, 'report\u202egnp.exe \u001b]0;owned\u0007'));
  const lines = trace.exportLines().trimEnd().split('\n');
  assert.equal(lines.length, 2);
  assert.ok(!['\u202e', '\u001b', '\u0007'].some((ch) => lines.join('').includes(ch)));
  const reply = JSON.parse(lines[1] ?? '') as { direction: string; method: string; json: { result: { content: { text: string }[] } } };
  assert.equal(reply.direction, 'in');
  assert.equal(reply.method, 'tools/call');
  // Escaped, not removed: the trace shows exactly what the server sent.
  assert.equal(reply.json.result.content[0]?.text, 'report\u202egnp.exe \u001b]0;owned\u0007');
  const named = trace.exportLines([trace.messages()[0]?.seq ?? 0]);
  assert.equal(named.trimEnd().split('\n').length, 1);
});

test('new messages are announced only while watched, in one batch per 100 ms', (t) => {
  mock.timers.enable({ apis: ['setTimeout'] });
  t.after(() => mock.timers.reset());
  const { trace, announced } = traceOf();
  trace.record('out', call(1));
  mock.timers.tick(500);
  assert.equal(announced.length, 0);
  trace.setWatched(true);
  trace.record('in', answer(1));
  trace.record('out', call(2));
  mock.timers.tick(99);
  assert.equal(announced.length, 0);
  mock.timers.tick(1);
  assert.deepEqual(
    announced.map((batch) => batch.map((message) => message.id)),
    [[1, 2]],
  );
  trace.setWatched(false);
  trace.record('in', answer(2));
  mock.timers.tick(500);
  assert.equal(announced.length, 1);
});

test('a flood is announced as its newest messages and a count of the rest, which are kept all the same', (t) => {
  mock.timers.enable({ apis: ['setTimeout'] });
  t.after(() => mock.timers.reset());
  const { trace, announced, skipped } = traceOf();
  trace.setWatched(true);
  for (let index = 0; index < 600; index++) trace.record('in', { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `line ${index}` } });
  mock.timers.tick(100);
  assert.equal(announced.length, 1);
  assert.equal(announced[0]?.length, MAX_ANNOUNCED);
  assert.equal(skipped[0], 600 - MAX_ANNOUNCED);
  assert.equal(announced[0]?.at(-1)?.seq, trace.messages().at(-1)?.seq, 'the newest are listed');
  assert.equal(trace.messages().length, 600);
});
