// Remote answers that never end, replayed against the real `atrium` CLI under a memory cap (the process
// is killed the moment it passes it, so a failure cannot take the machine down): an endless tool-call
// body (Streamable HTTP JSON and event stream, and the legacy HTTP+SSE stream), an answer that trickles
// past the call's time limit, and endless OAuth metadata during `atrium sign-in`, which must also obey
// --timeout, Ctrl+C and SIGTERM. The servers are e2e/servers/endlessAnswerServer.ts on 127.0.0.1.

import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { describeRun, runCappedAtrium } from '../../e2e/fixtures/memoryCappedCli.ts';
import type { CappedRun, CappedRunOptions } from '../../e2e/fixtures/memoryCappedCli.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';
import type { HttpFixtureHandle } from '../../e2e/servers/launch.ts';
import { startHttpFixture } from '../../e2e/servers/launch.ts';

const MB = 2 ** 20;
/** Twice what a CLI run needs (about 150 MB), far below what an unbounded read reaches in a second. */
const MEMORY_CAP = 300 * MB;
/** For a run that reads up to Atrium's default cap (256 MB) before it gives up. */
const MEMORY_CAP_AT_DEFAULT = 640 * MB;
/** The cap configured for most servers here, so a run reads little to prove the bound. */
const SERVER_CAP = 8 * MB;
const TIME_LIMIT_MS = 60_000;

type Answer = 'json' | 'json-trickle' | 'event' | 'legacy-event' | 'metadata' | 'metadata-trickle';

describe('remote answers that never end', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  /** A home with one remote server, `endless`, answering as `answer` says. */
  async function endlessServer(answer: Answer, entry: Record<string, unknown> = { maxMessageBytes: SERVER_CAP }): Promise<{ home: string; fixture: HttpFixtureHandle }> {
    const fixture = await startHttpFixture('endlessAnswerServer', ['--answer', answer]);
    cleanups.push(() => fixture.stop());
    const home = await makeTempDir('atrium-endless-');
    cleanups.push(() => rm(home, { recursive: true, force: true }));
    const type = answer === 'legacy-event' ? { type: 'sse' } : {};
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { endless: { url: fixture.url, ...type, ...entry } } }));
    // Approved as the person would have before these runs: a new address asks first (launch approval).
    await approveServers(home);
    return { home, fixture };
  }

  const run = (home: string, args: string[], options: Partial<Pick<CappedRunOptions, 'whileRunning' | 'maxRssBytes'>> = {}): Promise<CappedRun> =>
    runCappedAtrium({ home, args, maxRssBytes: MEMORY_CAP, timeLimitMs: TIME_LIMIT_MS, ...options });

  /** The run ended by itself, within its memory cap and time limit, with this exit code and message. */
  function assertBounded(outcome: CappedRun, stderr: RegExp, code = 1): void {
    assert.ok(!outcome.overCap && !outcome.overTime, describeRun(outcome));
    assert.equal(outcome.code, code, describeRun(outcome));
    assert.match(outcome.stderr, stderr);
  }

  test('an endless JSON tool-call answer fails the call at the default cap, within memory, long before its time limit', { timeout: TIME_LIMIT_MS + 10_000 }, async () => {
    // The server as the person configured it: no cap of its own, so Atrium's default (256 MB) holds.
    const { home, fixture } = await endlessServer('json', {});
    const outcome = await run(home, ['call', 'endless', 'endless', '--timeout', '30000'], { maxRssBytes: MEMORY_CAP_AT_DEFAULT });
    assertBounded(outcome, /^atrium: endless: tool "endless": the server's answer was too large: message from server exceeded 256 MB and was discarded$/m);
    assert.ok(outcome.elapsedMs < 30_000, describeRun(outcome));
    await fixture.waitForStderr(/^answer cut after \d+ bytes$/);
  });

  test('an endless event in a Streamable HTTP answer fails the call at once; the server’s other tools still answer', { timeout: TIME_LIMIT_MS + 10_000 }, async () => {
    const { home } = await endlessServer('event');
    const outcome = await run(home, ['call', 'endless', 'endless', '--timeout', '30000']);
    assertBounded(outcome, /^atrium: endless: tool "endless": the server's answer was too large: message from server exceeded 8 MB and was discarded$/m);
    assert.ok(outcome.elapsedMs < 30_000, describeRun(outcome));
    const small = await run(home, ['call', 'endless', 'small']);
    assertBounded(small, /^$/, 0);
    assert.equal(small.stdout.trim(), 'ok');
  });

  test('an endless event on the legacy HTTP+SSE stream ends the connection, within memory, before the call’s time limit', { timeout: TIME_LIMIT_MS + 10_000 }, async () => {
    const { home, fixture } = await endlessServer('legacy-event');
    const outcome = await run(home, ['call', 'endless', 'endless', '--timeout', '30000']);
    assertBounded(outcome, /^atrium: endless: tool "endless": the connection to the server was closed$/m);
    assert.ok(outcome.elapsedMs < 30_000, describeRun(outcome));
    await fixture.waitForStderr(/^answer cut after \d+ bytes$/);
  });

  test('an answer that trickles on past the call’s time limit is given up at the limit: the process ends at once', { timeout: TIME_LIMIT_MS + 10_000 }, async () => {
    const { home, fixture } = await endlessServer('json-trickle');
    const outcome = await run(home, ['call', 'endless', 'endless', '--timeout', '2000']);
    assertBounded(outcome, /^atrium: endless: tool "endless": no answer within the time limit \(2 s\)$/m);
    // Starting the CLI takes a second or two; what matters is that nothing is read on after the limit.
    assert.ok(outcome.elapsedMs < 10_000, describeRun(outcome));
    await fixture.waitForStderr(/^answer cut after \d+ bytes$/);
  });

  test('endless OAuth metadata stops `atrium sign-in` with the reason, within memory', { timeout: TIME_LIMIT_MS + 10_000 }, async () => {
    const { home, fixture } = await endlessServer('metadata', {});
    const outcome = await run(home, ['sign-in', 'endless']);
    assertBounded(outcome, /^atrium: endless: sign-in stopped: the answer from http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp is larger than 256 KB; Atrium stopped reading it$/m);
    await fixture.waitForStderr(/^metadata cut after \d+ bytes$/);
  });

  test('`atrium sign-in` obeys --timeout while metadata trickles in', { timeout: TIME_LIMIT_MS + 10_000 }, async () => {
    const { home } = await endlessServer('metadata-trickle', {});
    const outcome = await run(home, ['sign-in', 'endless', '--timeout', '2000']);
    assertBounded(outcome, /^atrium: endless: sign-in stopped: http:\/\/127\.0\.0\.1:\d+\/\.well-known\/oauth-protected-resource\/mcp did not finish answering within 2 s$/m);
    assert.ok(outcome.elapsedMs < 10_000, describeRun(outcome));
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    test(`\`atrium sign-in\` ends at once on ${signal} while metadata trickles in (exit 130)`, { timeout: TIME_LIMIT_MS + 10_000 }, async () => {
      const { home, fixture } = await endlessServer('metadata-trickle', {});
      let sentAt = Infinity;
      const outcome = await run(home, ['sign-in', 'endless'], {
        whileRunning: async (running) => {
          // The metadata is being read: the sign-in is past connecting, in discovery.
          await fixture.waitForStderr(/^metadata started$/);
          sentAt = performance.now();
          running.kill(signal);
        },
      });
      assertBounded(outcome, /^atrium: the sign-in to endless was cancelled$/m, 130);
      assert.ok(outcome.endedAt - sentAt < 3_000, `ended ${Math.round(outcome.endedAt - sentAt)} ms after ${signal}`);
      await fixture.waitForStderr(/^metadata cut after \d+ bytes$/);
    });
  }
});
