import assert from 'node:assert/strict';
import { test } from 'node:test';
import { traceLine } from './traceCommand.ts';

const at = new Date(2026, 10, 27, 14, 3, 7, 215).getTime();

test('a message is one line: when, which way, what, its id, size, how long its answer took, its call', () => {
  assert.equal(
    traceLine({ serverId: 's', seq: 2, at, direction: 'in', kind: 'result', method: 'tools/call', subject: 'search_files', id: 5, bytes: 1234, durationMs: 3.1, link: { callId: 'c-1', conversationId: 'k-9' } }),
    '14:03:07.215  <-  result        tools/call search_files           #5              1.2 kB    3.10 ms  call c-1 in conversation k-9',
  );
  assert.equal(traceLine({ serverId: 's', seq: 3, at, direction: 'out', kind: 'notification', method: 'notifications/initialized', bytes: 54 }), '14:03:07.215  ->  notification  notifications/initialized                           54 B');
  assert.match(traceLine({ serverId: 's', seq: 4, at, direction: 'in', kind: 'error', id: 'x', bytes: 80, failed: true }), / {2}<- {2}error {9}error\s+#x\s+80 B\s+failed$/);
});

test('a request that will get no answer says so after how long it waited: its server gone, or called off', () => {
  assert.match(traceLine({ serverId: 's', seq: 5, at, direction: 'out', kind: 'request', method: 'tools/call', subject: 'crash', id: 3, bytes: 60, durationMs: 37, unanswered: 'closed' }), /#3\s+60 B\s+37 ms {2}no answer$/);
  assert.match(traceLine({ serverId: 's', seq: 6, at, direction: 'out', kind: 'request', method: 'tools/call', id: 4, bytes: 60, durationMs: 1200, unanswered: 'cancelled' }), /1\.2 s {2}called off$/);
});

test('a tool’s name from a server cannot drive the terminal: its hidden characters are marked', () => {
  const line = traceLine({ serverId: 's', seq: 1, at, direction: 'out', kind: 'request', method: 'tools/call', subject: 'ls\u001b]0;owned\u0007\u202e', id: 1, bytes: 10 });
  assert.ok(!['\u001b', '\u0007', '\u202e'].some((ch) => line.includes(ch)));
  assert.match(line, /ls\\u\{1b\}\]0;owned\\u\{7\}\\u\{202e\}/);
});
