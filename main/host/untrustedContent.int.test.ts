// What the person allowed holds, and untrusted content raises the bar by whatever path it comes in —
// through the real host core, the real Anthropic SDK against a scripted fake, a trusted stdio server with
// a destructive tool (toolChangeServer) and a pasted, untrusted server-everything.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { PendingRequestView, ToolApprovalAnswer, ToolApprovalPayload } from '../../shared/pendingPayloads.ts';
import type { FakeTurn } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { everythingServerPath, scriptedModelOptions, startTestHost, waitForLog } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';
import type { HostCore } from '../app/hostCore.ts';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

type Answering = (payload: ToolApprovalPayload) => ToolApprovalAnswer;

/** `notes` is trusted and has a destructive tool; `everything` was pasted in and is not trusted. Every question is answered by `answer` and recorded. */
async function openHost(script: FakeTurn[], answer: Answering) {
  const llm = await startFakeAnthropic(script);
  const host = await startTestHost(
    {
      notes: { ...fixtureCommand('toolChangeServer', ['--changed-if', '/nonexistent']), trusted: true },
      everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'] },
    },
    {
      ...scriptedModelOptions(llm.url),
    },
  );
  cleanups.push(async () => {
    await host.close();
    await llm.close();
  });
  const asked: ToolApprovalPayload[] = [];
  host.core.events.on('pendingOpened', (record: PendingRequestView) => {
    if (record.kind !== 'tool_approval') return;
    asked.push(record.payload);
    void host.core.api.respondPending({ id: record.id, outcome: answer(record.payload) });
  });
  await host.core.hub.whenSettled();
  return { core: host.core, asked };
}

const once = (effect: 'allow' | 'deny'): ToolApprovalAnswer => ({ effect, scope: 'once', target: 'tool' });
const always: ToolApprovalAnswer = { effect: 'allow', scope: 'always', target: 'tool' };

async function callsOf(core: HostCore, conversationId: string): Promise<string[][]> {
  return (await core.api.getConversation({ conversationId })).toolCalls.map((call) => [call.tool, call.status]);
}

describe("the person's answers mean what they say", () => {
  test("a pasted server's read-only, closed-world echo allowed “always” does not ask again after its result; get-sum allowed “in this conversation” holds there, and only there", async () => {
    const { core, asked } = await openHost(
      [
        { toolCalls: [{ name: 'everything__echo', input: { message: 'one' } }] },
        { toolCalls: [{ name: 'everything__echo', input: { message: 'two' } }] },
        { text: 'echoed twice' },
        { toolCalls: [{ name: 'everything__get-sum', input: { a: 1, b: 2 } }] },
        { toolCalls: [{ name: 'everything__get-sum', input: { a: 3, b: 4 } }] },
        { text: 'summed twice' },
        { toolCalls: [{ name: 'everything__get-sum', input: { a: 5, b: 6 } }] },
        { text: 'summed in another conversation' },
      ],
      (payload) => (payload.tool.name === 'echo' ? always : { effect: 'allow', scope: 'conversation', target: 'tool' }),
    );
    const echoed = await core.api.sendMessage({ text: 'echo one, then two' });
    assert.deepEqual(await callsOf(core, echoed.conversationId), [['echo', 'done'], ['echo', 'done']]);
    assert.deepEqual(asked.map((p) => p.tool.name), ['echo'], 'asked once: the second echo read the first one’s result, and still ran');
    assert.equal(asked[0]?.keepsAfterUntrusted, true, 'the question said so before the answer');

    const summed = await core.api.sendMessage({ text: 'add twice' });
    assert.deepEqual(await callsOf(core, summed.conversationId), [['get-sum', 'done'], ['get-sum', 'done']]);
    assert.deepEqual(asked.map((p) => p.tool.name), ['echo', 'get-sum']);
    await core.api.sendMessage({ text: 'add in a new conversation' });
    assert.deepEqual(asked.map((p) => p.tool.name), ['echo', 'get-sum', 'get-sum'], '“in this conversation” does not reach another one');
  });

  test('a step of three calls is put to the person once, listing the two later ones, and one answer runs them all', async () => {
    const { core, asked } = await openHost(
      [
        {
          toolCalls: [
            { name: 'everything__echo', input: { message: 'first' } },
            { name: 'everything__get-sum', input: { a: 1, b: 2 } },
            { name: 'notes__delete_file', input: { path: '/tmp/step.log' } },
          ],
        },
        { text: 'all three ran' },
      ],
      () => ({ effect: 'allow', scope: 'step', target: 'tool' }),
    );
    const { conversationId } = await core.api.sendMessage({ text: 'do the three things' });
    assert.equal(asked.length, 1);
    assert.deepEqual(asked[0]?.alongside?.map((call) => [call.tool.serverId, call.tool.name, call.arguments]), [
      ['everything', 'get-sum', { a: 1, b: 2 }],
      ['notes', 'delete_file', { path: '/tmp/step.log' }],
    ]);
    assert.deepEqual(await callsOf(core, conversationId), [['echo', 'done'], ['get-sum', 'done'], ['delete_file', 'done']]);
    await waitForLog(core, 'notes', /deleted \/tmp\/step\.log/);
  });
});

describe('untrusted content raises the bar by any path, and the question names it', () => {
  /** A host where notes/delete_file was allowed "always" in a first conversation; the script goes on with `then`. */
  async function afterDeleteAllowedAlways(then: FakeTurn[]) {
    const run = await openHost([{ toolCalls: [{ name: 'notes__delete_file', input: { path: '/tmp/first' } }] }, { text: 'deleted' }, ...then], (payload) =>
      payload.tool.name === 'delete_file' ? always : once('deny'),
    );
    await run.core.api.sendMessage({ text: 'delete /tmp/first' });
    assert.equal(run.asked.length, 1);
    return run;
  }
  const deleteThen = (path: string): FakeTurn[] => [{ toolCalls: [{ name: 'notes__delete_file', input: { path } }] }, { text: 'done' }];

  test('a resource of the pasted server attached to the message', async () => {
    const { core, asked } = await afterDeleteAllowedAlways(deleteThen('/tmp/after-resource'));
    const [resource] = await core.api.listResources({ serverId: 'everything' });
    assert.ok(resource, 'server-everything lists resources');
    await core.api.sendMessage({ text: 'read this, then tidy up', resources: [{ serverId: 'everything', uri: resource.uri }] });
    assert.equal(asked.length, 2, 'the delete allowed always asked again');
    assert.equal(asked[1]?.reason, `this conversation holds the resource ${resource.uri} of everything (a server you do not trust), which may carry instructions`);
    assert.deepEqual(asked[1]?.raisedBy, { serverId: 'everything', kind: 'resource', name: resource.uri, why: 'untrusted' });
  });

  test("the pasted server's prompt", async () => {
    const { core, asked } = await afterDeleteAllowedAlways(deleteThen('/tmp/after-prompt'));
    await core.api.runPrompt({ serverId: 'everything', name: 'simple-prompt' });
    assert.equal(asked.length, 2, 'the delete allowed always asked again');
    assert.match(asked[1]?.reason ?? '', /^this conversation holds the prompt “simple-prompt” of everything \(a server you do not trust\)/);
  });

  test("what the pasted server's view reported to the model", async () => {
    const { core, asked } = await afterDeleteAllowedAlways([
      // The call the view belongs to is denied, so nothing but the view's report comes from its server.
      { toolCalls: [{ name: 'everything__echo', input: { message: 'show it' } }] },
      { text: 'it was not allowed' },
      ...deleteThen('/tmp/after-view'),
    ]);
    const { conversationId } = await core.api.sendMessage({ text: 'show me' });
    const [call] = (await core.api.getConversation({ conversationId })).toolCalls;
    assert.deepEqual([call?.tool, call?.status], ['echo', 'denied']);
    await core.api.setViewContext({ conversationId, callId: call?.id ?? '', viewOf: { serverId: 'everything', tool: 'echo' }, text: 'The person picked the second row.' });
    await core.api.sendMessage({ conversationId, text: 'now tidy up' });
    assert.equal(asked.length, 3, 'the delete allowed always asked again');
    assert.match(asked[2]?.reason ?? '', /^this conversation holds what the view of everything\/echo reported \(a server you do not trust\)/);
  });
});
