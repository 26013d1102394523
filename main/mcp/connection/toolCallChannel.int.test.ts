// tools/call on a 2025-era connection goes through Atrium's ToolCallChannel, not the SDK's request layer
// (toolCallChannel.ts). These prove, against real fixture server processes, what that path must do as the
// SDK did: progress keeps a call alive and reaches the person, a call that falls silent times out and the
// server is told, a lying or refusing server fails only that call, and the server's own requests and the
// SDK's other requests keep working on the same connection. Crashes, hangs, cancellation by the person,
// oversized answers and HTTP session expiry are in misbehavingServers.int.test.ts.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { ProgressUpdate } from '../../../shared/domain.ts';
import type { TestHost } from '../../../e2e/fixtures/hostHarness.ts';
import { nextEvent, startTestHost } from '../../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../../e2e/servers/launch.ts';
import { durationText } from '../../../shared/durationText.ts';

const TIME_LIMIT_MS = 1_500;
const textOf = (result: Record<string, unknown>) => ((result.content as { text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');

describe('tool calls on 2025-era connections', () => {
  let host: TestHost;
  before(async () => {
    host = await startTestHost(
      {
        echo: fixtureCommand('echoServer'),
        liar: fixtureCommand('lyingResultServer'),
        modern: fixtureCommand('echoServer', ['--both-eras']),
      },
      { requestTimeoutMs: TIME_LIMIT_MS },
    );
    await host.core.hub.whenSettled();
  });
  after(() => host.close());

  test('the servers under test speak the 2025 era (the channel), and the both-eras one 2026-07-28 (the SDK)', async () => {
    const eras = Object.fromEntries((await host.core.api.listServers({})).map((server) => [server.id, server.era]));
    assert.deepEqual(eras, { echo: 'legacy', liar: 'legacy', modern: 'modern' });
  });

  test('progress reaches the person and keeps a call alive past its time limit; once it falls silent, the call times out and the server hears notifications/cancelled', async () => {
    const reports: ProgressUpdate[] = [];
    const off = host.core.events.on('progress', (update) => {
      if (update.serverId === 'echo') reports.push(update);
    });
    const heard = nextEvent(host.core, 'log', (line) => line.serverId === 'echo' && /slow cancelled/.test(line.text));
    // 24 reports 150 ms apart: the call lives about 3.6 s on progress, over twice its 1.5 s limit.
    const total = 25;
    await assert.rejects(
      host.core.api.callTool({ serverId: 'echo', tool: 'slow', arguments: { total, interval_ms: 150 } }),
      new RegExp(`echo: tool "slow": no answer within the time limit \\(${durationText(TIME_LIMIT_MS).replace('.', '\\.')}\\)`),
    );
    off();
    assert.deepEqual(
      reports.map((report) => report.progress),
      Array.from({ length: total - 1 }, (_, index) => index + 1),
      'every report arrived, in order, before the call ran out of time',
    );
    assert.equal(reports.at(-1)?.message, `step ${total - 1} of ${total}`);
    await heard;
  });

  test('a call cancelled as soon as its server starts it (likely before the call listens to its signal) ends as cancelled, and the server is told', async () => {
    const heard = nextEvent(host.core, 'log', (line) => line.serverId === 'echo' && /slow cancelled/.test(line.text));
    const started = nextEvent(host.core, 'log', (line) => line.serverId === 'echo' && /called slow/.test(line.text));
    const callId = 'cancelled-at-once';
    const call = host.core.api.callTool({ serverId: 'echo', tool: 'slow', arguments: { total: 100, interval_ms: 1000 }, callId });
    await started;
    await host.core.api.cancelCall({ callId });
    await assert.rejects(call, /echo: tool "slow": cancelled/);
    await heard;
  });

  test('a result that is not a tool result fails that call in words, and the server keeps working', async () => {
    await assert.rejects(host.core.api.callTool({ serverId: 'liar', tool: 'garbled' }), /^.*liar: tool "garbled": the server's answer is not a tool result: "content" is not an array$/);
    await assert.rejects(host.core.api.callTool({ serverId: 'liar', tool: 'untyped' }), /liar: tool "untyped": the server's answer is not a tool result: content\[0\] has no type$/);
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'liar', tool: 'echo', arguments: { text: 'still here' } })), 'still here');
  });

  test('a JSON-RPC error answer is reported in the server’s words', async () => {
    await assert.rejects(host.core.api.callTool({ serverId: 'liar', tool: 'refused', arguments: { city: 'Atlantis' } }), /liar: tool "refused": the server answered with an error: .*no forecast for Atlantis/);
  });

  test('on a 2026-07-28 connection the SDK makes the call, with the same progress and the same answer', async () => {
    const reports: number[] = [];
    const off = host.core.events.on('progress', (update) => {
      if (update.serverId === 'modern') reports.push(update.progress);
    });
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'modern', tool: 'long_op', arguments: { steps: 3, interval_ms: 10 } })), 'done 3');
    off();
    // The SDK hands the answer on before a progress report that came just ahead of it on the wire, and then
    // drops that report as late: the last one may be missing, never out of order or doubled.
    assert.deepEqual(reports, [1, 2, 3].slice(0, Math.max(2, reports.length)));
  });

  test('many calls at once each get their own answer, and the SDK’s own requests keep working between them', async () => {
    const texts = Array.from({ length: 200 }, (_, index) => `call ${index}`);
    const answers = await Promise.all([
      ...texts.map((text) => host.core.api.callTool({ serverId: 'echo', tool: 'echo', arguments: { text } })),
      host.core.api.setServerLogLevel({ serverId: 'echo', level: 'debug' }).then(() => undefined),
    ]);
    assert.deepEqual(answers.slice(0, texts.length).map((result) => textOf(result as Record<string, unknown>)), texts);
    // A server request in the middle of a call (elicitation needs a person; roots/list answers by itself).
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'echo', tool: 'roots' })), '[]');
  });
});
