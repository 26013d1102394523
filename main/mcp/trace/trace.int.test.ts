// A server's trace through the real host core and real stdio servers: a tool call made through the pipeline
// — the model's in a conversation, the person's — shows up as its request and its answer, paired, timed and
// linked to the call (and the conversation), in both protocol eras; the trace sees what the server really
// sent, before the neutraliser; and a watched trace announces new messages as they pass.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { TraceMessage } from '../../../shared/contract.ts';
import { startFakeAnthropic } from '../../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { nextEvent, scriptedModelOptions, startTestHost } from '../../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand, startHttpFixture } from '../../../e2e/servers/launch.ts';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const isCall = (message: TraceMessage) => message.method === 'tools/call';

describe('a tool call is traced with its link', () => {
  test('the model’s call: its request and answer carry the call and the conversation, paired and timed', async () => {
    const llm = await startFakeAnthropic([{ toolCalls: [{ name: 'echo__echo', input: { text: 'traced words' } }] }, { text: 'Echoed.' }]);
    const host = await startTestHost(
      { echo: { ...fixtureCommand('echoServer'), trusted: true } },
      {
        ...scriptedModelOptions(llm.url),
      },
    );
    cleanups.push(async () => {
      await host.close();
      await llm.close();
    });
    const { core } = host;
    core.events.on('pendingOpened', (record) => {
      if (record.kind === 'tool_approval') void core.api.respondPending({ id: record.id, outcome: { effect: 'allow', scope: 'once', target: 'tool' } });
    });
    await core.hub.whenSettled();

    const watch = await core.api.watchTrace({ serverId: 'echo' });
    assert.ok(watch.messages.some((message) => message.method === 'initialize' || message.method === 'server/discover'), 'the handshake is in the trace');
    const announced: TraceMessage[] = [];
    core.events.on('traceMessages', ({ serverId, messages }) => {
      if (serverId === 'echo') announced.push(...messages);
    });
    const answered = nextEvent(core, 'traceMessages', ({ messages }) => messages.some((message) => isCall(message) && message.kind === 'result'));

    const { conversationId } = await core.api.sendMessage({ text: 'echo something' });
    const { toolCalls } = await core.api.getConversation({ conversationId });
    const callId = toolCalls[0]?.id ?? '';
    assert.deepEqual([toolCalls[0]?.tool, toolCalls[0]?.status], ['echo', 'done']);

    await answered;
    const request = announced.find((message) => isCall(message) && message.kind === 'request');
    const answer = announced.find((message) => isCall(message) && message.kind === 'result');
    assert.deepEqual(request?.link, { callId, conversationId });
    assert.deepEqual(answer?.link, { callId, conversationId });
    assert.deepEqual([request?.direction, answer?.direction, request?.subject], ['out', 'in', 'echo']);
    assert.equal(answer?.pairSeq, request?.seq);
    assert.ok((answer?.durationMs ?? -1) >= 0);
    assert.ok((request?.bytes ?? 0) > 0 && (answer?.bytes ?? 0) > 0);

    // The request's contents are what was sent: the tool's arguments.
    const detail = await core.api.getTraceMessage({ serverId: 'echo', seq: request?.seq ?? 0 });
    assert.deepEqual((detail?.json as { params: { name: string; arguments: unknown } }).params.arguments, { text: 'traced words' });
    // The server's log notifications during the call are in the trace too, as it sent them.
    assert.ok(announced.some((message) => message.method === 'notifications/message' && message.direction === 'in'));

    const exported = (await core.api.exportTrace({ serverId: 'echo', seqs: [request?.seq ?? 0, answer?.seq ?? 0] })).trimEnd().split('\n');
    assert.equal(exported.length, 2);
    assert.deepEqual((JSON.parse(exported[1] ?? '') as TraceMessage).link, { callId, conversationId });

    // Once unwatched, nothing more is announced.
    await core.api.unwatchTrace({ watchId: watch.watchId });
    const count = announced.length;
    await core.api.callTool({ serverId: 'echo', tool: 'echo', arguments: { text: 'unwatched' } });
    assert.ok((await core.api.watchTrace({ serverId: 'echo' })).messages.some((message) => isCall(message) && message.kind === 'result' && message.seq > (answer?.seq ?? 0)), 'still recorded');
    assert.equal(announced.length, count, 'not announced while nobody watched');
  });

  for (const era of ['2025-era', '2026-07-28'] as const) {
    test(`the person’s call on a ${era} server: its JSON-RPC id is the channel’s or the SDK’s, the link is the call’s`, async () => {
      const host = await startTestHost({ echo: fixtureCommand('echoServer', era === '2026-07-28' ? ['--both-eras'] : []) });
      cleanups.push(() => host.close());
      const { core } = host;
      await core.hub.whenSettled();
      assert.equal(core.hub.get('echo').snapshot.era, era === '2026-07-28' ? 'modern' : 'legacy');
      await core.api.callTool({ serverId: 'echo', tool: 'add', arguments: { a: 2, b: 3 }, callId: 'person-call-1' });
      const { messages } = await core.api.watchTrace({ serverId: 'echo' });
      const linked = messages.filter((message) => message.link?.callId === 'person-call-1');
      assert.deepEqual(
        linked.map((message) => [message.kind, message.method]),
        [
          ['request', 'tools/call'],
          ['result', 'tools/call'],
        ],
      );
      assert.equal(linked[0]?.link?.conversationId, undefined, 'the person’s own call belongs to no conversation');
      assert.equal(linked[1]?.pairSeq, linked[0]?.seq);
    });
  }
});

describe('a call its server never answers', () => {
  test('a server that exits mid-call: its request says it got no answer, not that it is still waiting', async () => {
    const host = await startTestHost({ crashy: { ...fixtureCommand('crashServer'), trusted: true } });
    cleanups.push(() => host.close());
    const { core } = host;
    await core.hub.whenSettled();
    // The call fails (how it fails is the pipeline's to say); what matters here is what the trace says of it.
    await core.api.callTool({ serverId: 'crashy', tool: 'crash', arguments: {}, callId: 'crash-call' }).catch(() => undefined);
    const { messages } = await core.api.watchTrace({ serverId: 'crashy' });
    const request = messages.find((message) => message.link?.callId === 'crash-call' && message.kind === 'request');
    assert.equal(request?.unanswered, 'closed');
    assert.ok((request?.durationMs ?? -1) >= 0);
  });
});

describe('a remote server is traced as a local one is', () => {
  test('Streamable HTTP: the handshake, a call and its answer, paired and linked', async () => {
    const remote = await startHttpFixture('listChangedServer');
    cleanups.push(() => remote.stop());
    const host = await startTestHost({ remote: { type: 'http', url: remote.url } });
    cleanups.push(() => host.close());
    const { core } = host;
    await core.hub.whenSettled();
    await core.api.callTool({ serverId: 'remote', tool: 'counter_value', callId: 'remote-call' });
    const { messages } = await core.api.watchTrace({ serverId: 'remote' });
    assert.ok(messages.some((message) => message.method === 'tools/list' && message.kind === 'result' && message.bytes > 0));
    const linked = messages.filter((message) => message.link?.callId === 'remote-call');
    assert.deepEqual(
      linked.map((message) => [message.direction, message.kind]),
      [
        ['out', 'request'],
        ['in', 'result'],
      ],
    );
    assert.equal(linked[1]?.pairSeq, linked[0]?.seq);
  });
});

describe('the trace sees what the server really sent', () => {
  test('hidden characters the neutraliser removes before the result reaches anyone are in the trace, escaped when exported', async () => {
    const host = await startTestHost({ hostile: fixtureCommand('hostileTextServer') });
    cleanups.push(() => host.close());
    const { core } = host;
    await core.hub.whenSettled();
    const result = await core.api.callTool({ serverId: 'hostile', tool: 'lookup', arguments: {} });
    assert.ok(!JSON.stringify(result).includes('\u202e'), 'the result as delivered is clean');
    const { messages } = await core.api.watchTrace({ serverId: 'hostile' });
    const answer = messages.find((message) => isCall(message) && message.kind === 'result');
    const detail = await core.api.getTraceMessage({ serverId: 'hostile', seq: answer?.seq ?? 0 });
    assert.ok(JSON.stringify(detail?.json).includes('\u202e'), 'the trace shows the bidi control the server sent');
    const line = await core.api.exportTrace({ serverId: 'hostile', seqs: [answer?.seq ?? 0] });
    assert.ok(!line.includes('\u202e') && line.includes('\\u202e'), 'exported as an escape, so no terminal reorders the line');
  });
});
