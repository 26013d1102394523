import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LogLine } from '../../../shared/domain.ts';
import { ServerLog } from '../serverLog.ts';
import { HeldProcessHooks } from './heldProcessHooks.ts';
import type { StdioProcessHooks } from './stdioProcessTransport.ts';

function recorder(): { hooks: StdioProcessHooks; heard: string[] } {
  const heard: string[] = [];
  return {
    heard,
    hooks: {
      onStderrLine: (line) => heard.push(`stderr ${line}`),
      onNoise: (line) => heard.push(`noise ${line}`),
      onExit: (info) => heard.push(`exit ${info.code}`),
    },
  };
}

test("what a process did before its session took it over reaches the session's hooks in order, then everything after", () => {
  const held = new HeldProcessHooks(new ServerLog('s', () => {}));
  held.onStderrLine('starting');
  held.onNoise('Listening on stdio');
  const { hooks, heard } = recorder();
  const transport = {};
  assert.equal(held.handTo(hooks, transport), transport);
  assert.deepEqual(heard, ['stderr starting', 'noise Listening on stdio']);
  held.onStderrLine('crashed');
  held.onExit({ code: 2, signal: null });
  assert.deepEqual(heard.slice(2), ['stderr crashed', 'exit 2']);
});

test('a process that floods stderr before its session exists keeps the newest 1,000 events, its exit among them, and the log says how many went', () => {
  const lines: LogLine[] = [];
  const held = new HeldProcessHooks(new ServerLog('s', (line) => lines.push(line)));
  for (let n = 1; n <= 1_500; n++) held.onStderrLine(`line ${n}`);
  held.onExit({ code: 1, signal: null });
  const { hooks, heard } = recorder();
  held.handTo(hooks, undefined);
  assert.equal(heard.length, 1_000);
  assert.equal(heard[0], 'stderr line 502');
  assert.equal(heard.at(-1), 'exit 1');
  assert.equal(lines.length, 1);
  assert.equal(lines[0]?.source, 'host');
  assert.match(lines[0]?.text ?? '', /the first 501 are not in this log/);
});
