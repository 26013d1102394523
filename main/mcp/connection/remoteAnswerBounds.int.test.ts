// What the window's host does with remote answers that never end (e2e/servers/endlessAnswerServer.ts on
// 127.0.0.1): a call whose answer grows without end fails at the server's cap at once, one whose answer
// trickles on is given up at its time limit or when the person cancels it, and in every case the
// answer stops being read then (the server sees its connection closed), while the server's other
// tools and the other servers carry on. The host runs in this process, under a memory cap (past it the
// file fails at once). The same attacks against the CLI are in main/cli/endlessAnswers.int.test.ts.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestHost } from '../../../e2e/fixtures/hostHarness.ts';
import { capThisProcess } from '../../../e2e/fixtures/memoryCappedCli.ts';
import { startTestHost } from '../../../e2e/fixtures/hostHarness.ts';
import type { HttpFixtureHandle } from '../../../e2e/servers/launch.ts';
import { fixtureCommand, startHttpFixture } from '../../../e2e/servers/launch.ts';
import { durationText } from '../../../shared/durationText.ts';

const TIME_LIMIT_MS = 1_500;
/** A few times what this process needs with the host in it; an unbounded read passes it in a second. */
const MEMORY_CAP = 800 * 1024 * 1024;
/** Each test is over in a few seconds; one that waits for an answer's time limit (60 s here) failed. */
const TEST_LIMIT = { timeout: 20_000 };
const CAP = 1024 * 1024;
/** Longer than closing a connection takes on a busy machine; an answer still read past it is not bounded. */
const CUT_WITHIN_MS = 5_000;
const textOf = (result: Record<string, unknown>) => ((result.content as { text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');

/** How many of the fixture's stderr lines so far match. */
const linesSoFar = (fixture: HttpFixtureHandle, pattern: RegExp) => fixture.stderr().split('\n').filter((line) => pattern.test(line)).length;

/** Resolves once the fixture has written more lines matching `pattern` than `before`; fails past `withinMs`. */
function moreLines(fixture: HttpFixtureHandle, pattern: RegExp, before: number, withinMs: number, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = setInterval(() => {
      if (linesSoFar(fixture, pattern) <= before) return;
      clearInterval(check);
      clearTimeout(late);
      resolve();
    }, 10);
    const late = setTimeout(() => {
      clearInterval(check);
      reject(new Error(`${what} within ${withinMs} ms:\n${fixture.stderr()}`));
    }, withinMs);
  });
}

const CUT = /^answer cut after \d+ bytes$/;
const STARTED = /^answer started$/;
/** The fixture saw its connection closed in the middle of an endless answer: Atrium stopped reading it. */
const answerCut = (fixture: HttpFixtureHandle, before: number) => moreLines(fixture, CUT, before, CUT_WITHIN_MS, 'the answer was still being read');

describe('remote answers that never end, in the window’s host', () => {
  const fixtures: Record<string, HttpFixtureHandle> = {};
  let host: TestHost;
  const uncap = capThisProcess(MEMORY_CAP, () => Object.values(fixtures).forEach((fixture) => fixture.killNow()));
  before(async () => {
    for (const answer of ['json', 'json-trickle', 'event', 'legacy-event'] as const) fixtures[answer] = await startHttpFixture('endlessAnswerServer', ['--answer', answer]);
    host = await startTestHost(
      {
        json: { url: fixtures.json!.url, maxMessageBytes: CAP },
        trickle: { url: fixtures['json-trickle']!.url, requestTimeoutMs: TIME_LIMIT_MS },
        event: { url: fixtures.event!.url, maxMessageBytes: CAP },
        legacy: { type: 'sse', url: fixtures['legacy-event']!.url, maxMessageBytes: CAP },
        healthy: fixtureCommand('echoServer'),
      },
      // The others wait long for an answer: theirs must fail at the cap, long before.
      { requestTimeoutMs: 60_000, restartPolicy: { baseDelayMs: 50, maxDelayMs: 200, maxConsecutiveFailures: 3, healthyAfterMs: 60_000 } },
    );
    const statuses = await host.core.hub.whenSettled();
    assert.deepEqual([...statuses].filter(([, status]) => status.kind !== 'ready'), []);
  });
  after(async () => {
    await host.close();
    await Promise.all(Object.values(fixtures).map((fixture) => fixture.stop()));
    uncap();
  });

  const cutsSoFar = (fixture: HttpFixtureHandle) => linesSoFar(fixture, CUT);

  test('a JSON answer that grows without end fails its call at the server’s cap, at once, and is no longer read', TEST_LIMIT, async () => {
    const before = cutsSoFar(fixtures.json!);
    await assert.rejects(
      host.core.api.callTool({ serverId: 'json', tool: 'endless' }),
      /^.*json: tool "endless": the server's answer was too large: message from server exceeded 1 MB and was discarded$/,
    );
    await answerCut(fixtures.json!, before);
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'json', tool: 'small' })), 'ok');
  });

  test('an event that never ends fails its call at once (it did not wait for the time limit); the server’s other tools still answer', TEST_LIMIT, async () => {
    const before = cutsSoFar(fixtures.event!);
    await assert.rejects(
      host.core.api.callTool({ serverId: 'event', tool: 'endless' }),
      /event: tool "endless": the server's answer was too large: message from server exceeded 1 MB and was discarded$/,
    );
    await answerCut(fixtures.event!, before);
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'event', tool: 'small' })), 'ok');
    const log = await host.core.api.getServerLog({ serverId: 'event' });
    assert.ok(log.some((line) => line.level === 'warning' && /message from server exceeded 1 MB and was discarded/.test(line.text)), 'the server log says why');
  });

  test('an event without end on the legacy HTTP+SSE stream ends that connection before the call’s time limit; other servers carry on', TEST_LIMIT, async () => {
    await assert.rejects(host.core.api.callTool({ serverId: 'legacy', tool: 'endless' }), /legacy: tool "endless": the connection to the server was closed$/);
    const log = await host.core.api.getServerLog({ serverId: 'legacy' });
    assert.ok(log.some((line) => /went on past twice the 1 MB cap without ending/.test(line.text)), 'the server log says why');
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'healthy', tool: 'echo', arguments: { text: 'still here' } })), 'still here');
  });

  test('an answer that trickles on past the call’s time limit stops being read when the call times out', TEST_LIMIT, async () => {
    const before = cutsSoFar(fixtures['json-trickle']!);
    await assert.rejects(host.core.api.callTool({ serverId: 'trickle', tool: 'endless' }), new RegExp(`trickle: tool "endless": no answer within the time limit \\(${durationText(TIME_LIMIT_MS).replace('.', '\\.')}\\)`));
    await answerCut(fixtures['json-trickle']!, before);
  });

  test('an answer that trickles on stops being read when the person cancels the call', TEST_LIMIT, async () => {
    const before = cutsSoFar(fixtures['json-trickle']!);
    const started = linesSoFar(fixtures['json-trickle']!, STARTED);
    const callId = 'cancel-the-trickle';
    const call = host.core.api.callTool({ serverId: 'trickle', tool: 'endless', callId });
    await moreLines(fixtures['json-trickle']!, STARTED, started, TIME_LIMIT_MS, 'the answer did not start');
    await host.core.api.cancelCall({ callId });
    await assert.rejects(call, /trickle: tool "endless": cancelled/);
    await answerCut(fixtures['json-trickle']!, before);
  });
});
