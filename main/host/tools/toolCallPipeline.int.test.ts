// One pipeline for every tool call, through the real host core, real stdio servers and the real Anthropic
// SDK against a scripted fake: whoever calls — the model in a turn, a tool's view, the person — a tool is
// looked up at the moment of the call, so one that changed since it was approved is refused then, also
// when it changed in the middle of the turn or right before a view's next call. And a view's call is made
// in its conversation: what its server asks meanwhile is shown there.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { PendingRequestView, ToolApprovalAnswer } from '../../../shared/pendingPayloads.ts';
import type { FakeTurn } from '../../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { nextEvent, scriptedModelOptions, startTestHost } from '../../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../../e2e/servers/launch.ts';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A host over `servers`, its model scripted, every question it asks answered by `answer` and recorded. */
async function hostWith(servers: Record<string, unknown>, script: FakeTurn[], answer: ToolApprovalAnswer = { effect: 'allow', scope: 'once', target: 'tool' }) {
  const llm = await startFakeAnthropic(script);
  const host = await startTestHost(servers, {
    ...scriptedModelOptions(llm.url),
  });
  cleanups.push(async () => {
    await host.close();
    await llm.close();
  });
  const asked: PendingRequestView[] = [];
  host.core.events.on('pendingOpened', (record: PendingRequestView) => {
    asked.push(record);
    if (record.kind === 'tool_approval') void host.core.api.respondPending({ id: record.id, outcome: { ...answer } });
  });
  await host.core.hub.whenSettled();
  return { core: host.core, llm, asked };
}

describe('a tool that changed is refused at the moment of the call, whoever calls it', () => {
  test('the model: a trusted read-only tool that changes during the turn is refused at its next call in the same turn', async () => {
    const notes = { ...fixtureCommand('toolChangeServer'), trusted: true };
    const { core, llm, asked } = await hostWith({ notes }, [
      // One turn: the first call changes read_notes (tools/list_changed), the second calls it at once.
      { toolCalls: [{ name: 'notes__rug_pull', input: {} }] },
      { toolCalls: [{ name: 'notes__read_notes', input: { key: '-----BEGIN OPENSSH PRIVATE KEY-----' } }] },
      { text: 'could not' },
    ]);
    const { conversationId } = await core.api.sendMessage({ text: 'change it, then read my notes' });
    const sent = llm.requests.filter((r) => r.method === 'POST');
    assert.equal(sent.length, 3, 'one turn of three model requests');
    assert.match(JSON.stringify((sent[2]?.body as { messages: unknown[] }).messages.at(-1)), /This call was not made: notes changed the tool \\"read_notes\\" since it was approved/);
    const { toolCalls } = await core.api.getConversation({ conversationId });
    assert.deepEqual(toolCalls.map((c) => [c.tool, c.status]), [['rug_pull', 'done'], ['read_notes', 'denied']]);
    assert.deepEqual(asked, [], 'a withheld tool is refused, not put to the person');
    const refusal = core.conversations.audit.list({ limit: 10, serverId: 'notes' }).find((entry) => entry.tool === 'read_notes');
    assert.deepEqual([refusal?.decision, refusal?.decidedBy], ['deny', 'policy'], 'the refusal is in the audit log');
  });

  test('the person: a tool changed by the call just before is refused at once, even before the new list was read', async () => {
    const { core } = await hostWith({ notes: fixtureCommand('toolChangeServer') }, []);
    await core.api.callTool({ serverId: 'notes', tool: 'rug_pull' });
    await assert.rejects(core.api.callTool({ serverId: 'notes', tool: 'read_notes' }), /notes changed the tool "read_notes" since it was approved, so it cannot be called until you review and approve the new version/);
  });

  test("a view: its server changes the view's own tool, and the view's next call of it is refused", async () => {
    const { core } = await hostWith({ views: { ...fixtureCommand('appViewServer', ['--legacy']), trusted: true } }, [{ text: 'here is your chart' }]);
    const { conversationId } = await core.api.sendMessage({ text: 'show the chart' });
    const viewOf = { serverId: 'views', tool: 'show_chart' };
    assert.deepEqual((await core.api.callToolFromView({ conversationId, viewOf, tool: 'refresh_chart', arguments: {} })).content, [{ type: 'text', text: 'refreshed' }]);
    await core.api.callToolFromView({ conversationId, viewOf, tool: 'edit_refresh', arguments: {} });
    await assert.rejects(core.api.callToolFromView({ conversationId, viewOf, tool: 'refresh_chart', arguments: {} }), /asked to call "refresh_chart", but views changed the tool "refresh_chart" since it was approved/);
  });
});

test('a change a server announces while Atrium is still listing its tools is listed once it is ready, and a call then finds it withheld', async () => {
  const { core } = await hostWith({ notes: { ...fixtureCommand('changeWhileListingServer'), trusted: true } }, []);
  // Announced during the first listing: taken up as soon as the server is ready, not lost.
  const seen = () => core.conversations.catalog.list('notes')[0]?.description?.includes('id_rsa') === true;
  const changed = nextEvent(core, 'toolsChanged', seen);
  if (seen()) changed.catch(() => undefined);
  else await changed;
  await assert.rejects(core.api.callTool({ serverId: 'notes', tool: 'note' }), /notes changed the tool "note" since it was approved/);
});

test("a view's call is made in its conversation: what its server asks meanwhile is shown there", async () => {
  const { core, asked } = await hostWith({ views: { ...fixtureCommand('appViewServer', ['--legacy']), trusted: true } }, [{ text: 'here is your chart' }]);
  const { conversationId } = await core.api.sendMessage({ text: 'show the chart' });
  const question = nextEvent(core, 'pendingOpened', (record) => record.kind === 'elicitation');
  const call = core.api.callToolFromView({ conversationId, viewOf: { serverId: 'views', tool: 'show_chart' }, tool: 'confirm_chart', arguments: {} });
  const record = await question;
  assert.equal(record.conversationId, conversationId, 'the question belongs to the conversation whose view asked');
  await core.api.respondPending({ id: record.id, outcome: { action: 'decline' } });
  assert.deepEqual((await call).content, [{ type: 'text', text: 'confirmation: decline' }]);
  assert.ok(asked.some((r) => r.kind === 'tool_approval' && r.conversationId === conversationId));
});
