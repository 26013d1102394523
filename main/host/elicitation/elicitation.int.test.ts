// A real server's elicitations (2025-era elicitation/create, and 2026-07-28 input_required) become
// pending requests the person settles through the typed API: forms checked, answers checked against
// them, secrets flagged and masked in history, URLs shown but opened only after consent.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { JsonObject } from '../../../shared/contract.ts';
import type { PendingRequestView } from '../../../shared/pendingPayloads.ts';
import type { TestHost } from '../../../e2e/fixtures/hostHarness.ts';
import { nextEvent, startTestHost } from '../../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../../e2e/servers/launch.ts';
import type { ElicitationFormPayload, ElicitationUrlPayload } from './personElicitation.ts';

const textOf = (result: JsonObject) => ((result['content'] as { text?: string }[])[0]?.text ?? '') as string;

for (const era of ['2025 (elicitation/create)', '2026-07-28 (input_required)'] as const) {
  describe(`elicitation from a ${era} server`, () => {
    let host: TestHost;
    const opened: string[] = [];
    before(async () => {
      host = await startTestHost(
        { echo: fixtureCommand('echoServer', era.startsWith('2026') ? ['--both-eras'] : []) },
        { openUrl: (url) => opened.push(url) },
      );
      await host.core.hub.whenSettled();
    });
    after(() => host.close());

    /** Calls the ask tool and hands its pending request to `settle`; resolves with the tool's answer. */
    async function ask(args: JsonObject, settle: (record: PendingRequestView) => Promise<void>) {
      const pending = nextEvent(host.core, 'pendingOpened');
      const call = host.core.api.callTool({ serverId: 'echo', tool: 'ask', arguments: args });
      await settle(await pending);
      return JSON.parse(textOf(await call)) as { action: string; content?: Record<string, unknown> };
    }

    test('a form is shown as fields; an answer that does not fit is refused and the form stays open; a fitting one reaches the server', async () => {
      const answer = await ask({ message: 'Who are you?' }, async (record) => {
        const payload = record.payload as ElicitationFormPayload;
        assert.equal(record.kind, 'elicitation');
        assert.equal(payload.message, 'Who are you?');
        assert.deepEqual(payload.fields.map((f) => [f.name, f.kind, f.required]), [['name', 'text', true], ['confirm', 'boolean', false]]);
        await assert.rejects(host.core.api.respondPending({ id: record.id, outcome: { action: 'accept', content: { confirm: true } } }), { message: 'Name is required: fill it in.', fields: [{ field: 'name', message: 'Name is required: fill it in.' }] });
        await assert.rejects(host.core.api.respondPending({ id: record.id, outcome: { action: 'accept', content: { name: 7 } } }), /Name must be text/);
        assert.equal((await host.core.api.listPending({})).length, 1, 'still waiting for a proper answer');
        await host.core.api.respondPending({ id: record.id, outcome: { action: 'accept', content: { name: 'Ada', confirm: true } } });
      });
      assert.deepEqual(answer, { action: 'accept', content: { name: 'Ada', confirm: true } });
    });

    test('MCP 2025-11-25 Elicitation (accept, decline, cancel): decline and cancel reach the server as such', async () => {
      for (const action of ['decline', 'cancel'] as const) {
        const answer = await ask({}, (record) => host.core.api.respondPending({ id: record.id, outcome: { action } }).then(() => undefined));
        assert.equal(answer.action, action);
      }
    });

    test('a field asking for a key is flagged; defaults fill untouched fields; the history keeps the answer masked', async () => {
      let id = '';
      const answer = await ask({ form: 'secret', message: 'Your key, please' }, async (record) => {
        id = record.id;
        const payload = record.payload as ElicitationFormPayload;
        assert.equal(payload.asksForSecrets, true);
        assert.deepEqual(payload.fields.map((f) => [f.name, f.secretLooking]), [['apiKey', true], ['retries', false]]);
        await host.core.api.respondPending({ id: record.id, outcome: { action: 'accept', content: { apiKey: 'sk-live-very-secret' } } });
      });
      assert.deepEqual(answer.content, { apiKey: 'sk-live-very-secret', retries: 3 });
      const stored = host.core.conversations.history.requests.get(id);
      assert.equal(stored?.status, 'settled');
      assert.doesNotMatch(JSON.stringify(stored), /sk-live-very-secret/);
      assert.deepEqual(stored?.outcome, { action: 'accept', content: { apiKey: '[secret]' } });
    });

    test('a server that goes away while the person decides takes its request with it', async () => {
      const asked = nextEvent(host.core, 'pendingOpened');
      const call = host.core.api.callTool({ serverId: 'echo', tool: 'ask', arguments: {} }).then(
        () => 'answered',
        (error: Error) => error.message,
      );
      const record = await asked;
      const closed = nextEvent(host.core, 'pendingClosed', (event) => event.id === record.id);
      await host.core.api.restartServer({ serverId: 'echo' });
      assert.deepEqual(await closed, { id: record.id, how: 'withdrawn', reason: 'echo is no longer connected' });
      assert.deepEqual(await host.core.api.listPending({}), []);
      assert.notEqual(await call, 'answered');
      await assert.rejects(host.core.api.respondPending({ id: record.id, outcome: { action: 'decline' } }), /no longer waiting/);
      assert.equal(host.core.conversations.history.requests.get(record.id)?.status, 'withdrawn');
      await host.core.hub.whenSettled();
    });

    test('a URL is shown with its real (punycode) domain, never opened before consent, and opened once accepted', async () => {
      const declined = await ask({ form: 'url', message: 'Sign in' }, async (record) => {
        const payload = record.payload as ElicitationUrlPayload;
        assert.equal(payload.mode, 'url');
        assert.equal(payload.url, 'https://xn--exmple-cua.com/sign-in?session=42');
        assert.equal(payload.domain, 'xn--exmple-cua.com');
        assert.deepEqual(opened, [], 'nothing is opened while the person decides');
        await host.core.api.respondPending({ id: record.id, outcome: { action: 'decline' } });
      });
      assert.equal(declined.action, 'decline');
      assert.deepEqual(opened, []);
      const accepted = await ask({ form: 'url', message: 'Sign in' }, (record) => host.core.api.respondPending({ id: record.id, outcome: { action: 'accept' } }).then(() => undefined));
      assert.equal(accepted.action, 'accept');
      assert.deepEqual(opened, ['https://xn--exmple-cua.com/sign-in?session=42']);
    });
  });
}
