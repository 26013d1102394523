import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TraceMessage } from '../../../shared/contract.ts';
import { exportFileName, filterTrace, formatBytes, formatDuration, methodsIn, messageCount, showWholeTrace } from './traceFilter.ts';

const message = (seq: number, fields: Partial<TraceMessage>): TraceMessage => ({ serverId: 'srv', seq, at: 0, direction: 'out', kind: 'request', bytes: 10, ...fields });
const trace: TraceMessage[] = [
  message(1, { method: 'initialize', id: 0 }),
  message(2, { method: 'tools/call', id: 1, subject: 'search_files', link: { callId: 'c1', conversationId: 'k' } }),
  message(3, { direction: 'in', kind: 'notification', method: 'notifications/progress', link: { callId: 'c1', conversationId: 'k' } }),
  message(4, { direction: 'in', kind: 'result', method: 'tools/call', id: 1, subject: 'search_files', link: { callId: 'c1', conversationId: 'k' } }),
  message(5, { method: 'tools/call', id: 2, subject: 'read_file', link: { callId: 'c2' } }),
];
const seqs = (messages: readonly TraceMessage[]) => messages.map((m) => m.seq);

test('nothing is hidden without a filter', () => {
  assert.equal(filterTrace(trace, showWholeTrace), trace);
});

test('one tool call’s messages: its request, progress and answer', () => {
  assert.deepEqual(seqs(filterTrace(trace, { ...showWholeTrace, callId: 'c1' })), [2, 3, 4]);
});

test('by direction and method', () => {
  assert.deepEqual(seqs(filterTrace(trace, { ...showWholeTrace, direction: 'in' })), [3, 4]);
  assert.deepEqual(seqs(filterTrace(trace, { ...showWholeTrace, method: 'tools/call', direction: 'out' })), [2, 5]);
  assert.deepEqual(methodsIn(trace), ['initialize', 'notifications/progress', 'tools/call']);
});

test('a search finds what the list shows at once, and the contents the host found', () => {
  assert.deepEqual(seqs(filterTrace(trace, { ...showWholeTrace, search: 'READ_file' })), [5]);
  assert.deepEqual(seqs(filterTrace(trace, { ...showWholeTrace, search: 'report.csv', found: new Set([3]) })), [3]);
});

test('counts, sizes, durations and the export’s file name read as a person expects', () => {
  assert.equal(messageCount(5, 5, false), '5 messages');
  assert.equal(messageCount(2, 5, true), '2 of 5 messages');
  assert.deepEqual([formatBytes(512), formatBytes(1234), formatBytes(3_400_000)], ['512 B', '1.2 kB', '3.4 MB']);
  assert.deepEqual([formatDuration(0.4236), formatDuration(12.4), formatDuration(2400)], ['0.42 ms', '12 ms', '2.4 s']);
  assert.equal(exportFileName('my/server: one', new Date('2026-11-27T08:30:00Z')), 'my_server_one-trace-2026-11-27-08-30-00.jsonl');
});
