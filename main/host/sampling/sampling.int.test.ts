// A real server's sampling requests (2025-era sampling/createMessage, and 2026-07-28 input_required)
// put to the person through pending requests, answered by the real Anthropic SDK against a scripted
// fake: approve and review (with an edit), and reject.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { JsonObject } from '../../../shared/contract.ts';
import type { FakeLlmServer } from '../../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import type { TestHost } from '../../../e2e/fixtures/hostHarness.ts';
import { nextEvent, startTestHost } from '../../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../../e2e/servers/launch.ts';
import type { SamplingRequestPayload, SamplingResultPayload } from './samplingBroker.ts';

const textOf = (result: JsonObject) => ((result['content'] as { text?: string }[])[0]?.text ?? '') as string;

for (const era of ['2025 (sampling/createMessage)', '2026-07-28 (input_required)'] as const) {
  describe(`sampling for a ${era} server`, () => {
    let host: TestHost;
    let llm: FakeLlmServer;
    before(async () => {
      llm = await startFakeAnthropic([{ text: 'Hi there!' }]);
      host = await startTestHost(
        { echo: fixtureCommand('echoServer', era.startsWith('2026') ? ['--both-eras'] : []) },
        {
          samplingPolicy: 'ask',
          providerSettings: { providers: [{ id: 'fake', kind: 'anthropic', baseUrl: llm.url, apiKeySecret: 'fake' }], default: { provider: 'fake', model: 'claude-fake-1' } },
          secrets: { get: async () => 'sk-test-key-not-real' },
        },
      );
      await host.core.hub.whenSettled();
    });
    after(async () => {
      await host.close();
      await llm.close();
    });

    test('MCP 2024-11-05 Sampling (a human reviews the request and the completion): the person sees the request, approves it, reviews the reply and sends an edited one', async () => {
      const request = nextEvent(host.core, 'pendingOpened');
      const call = host.core.api.callTool({ serverId: 'echo', tool: 'sample', arguments: { prompt: 'say hi', max_tokens: 50 } });
      const first = await request;
      const shown = first.payload as SamplingRequestPayload;
      assert.deepEqual([first.kind, shown.stage, shown.maxTokens, shown.messages], ['sampling', 'request', 50, [{ role: 'user', text: 'say hi', attachments: [] }]]);
      assert.equal(shown.model, 'claude-fake-1');
      const review = nextEvent(host.core, 'pendingOpened');
      await host.core.api.respondPending({ id: first.id, outcome: { action: 'approve' } });
      const second = await review;
      assert.deepEqual(second.payload as SamplingResultPayload, { stage: 'result', provider: 'fake', model: 'claude-fake-1', why: shown.why, text: 'Hi there!', stopReason: 'endTurn' });
      await host.core.api.respondPending({ id: second.id, outcome: { action: 'send', text: 'Hello, kindly.' } });
      assert.equal(textOf(await call), 'Hello, kindly.');
      // The server's own log says, in the host's words, which model answered and why.
      const log = await host.core.api.getServerLog({ serverId: 'echo' });
      assert.ok(log.some((line) => line.source === 'host' && /^sampling with claude-fake-1: /.test(line.text)), 'the server log names the model');
    });

    test('MCP 2024-11-05 Sampling (a human may reject it): a rejected request runs no model and the server is told', async () => {
      const posts = llm.requests.filter((r) => r.method === 'POST').length;
      const request = nextEvent(host.core, 'pendingOpened');
      const call = host.core.api.callTool({ serverId: 'echo', tool: 'sample', arguments: { prompt: 'say hi' } }).then(textOf, (error: Error) => error.message);
      await host.core.api.respondPending({ id: (await request).id, outcome: { action: 'reject' } });
      assert.match(await call, /rejected by the person/);
      assert.equal(llm.requests.filter((r) => r.method === 'POST').length, posts);
    });
  });
}
