// Retry and Edit, end to end: the real Anthropic SDK against a scripted fake, a real MCP server, the
// SQLite history. Retry answers the person's last message again: the model reads it once, the replies it
// replaces are kept (marked) for the person and never given to a model again. An edit of the last message
// replaces it and what answered it the same way.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { FakeLlmServer, FakeTurn } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import type { TestHost } from '../../e2e/fixtures/hostHarness.ts';
import { scriptedModelOptions, startTestHost } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function retryHost(script: FakeTurn[]): Promise<{ host: TestHost; llm: FakeLlmServer }> {
  const llm = await startFakeAnthropic(script);
  const host = await startTestHost(
    { echo: { ...fixtureCommand('echoServer'), trusted: true } },
    {
      approvalMode: 'all',
      ...scriptedModelOptions(llm.url),
    },
  );
  cleanups.push(async () => {
    await host.close();
    await llm.close();
  });
  await host.core.hub.whenSettled();
  return { host, llm };
}

/** The messages the model was sent in its `index`-th request, as role and text. */
function sentMessages(llm: FakeLlmServer, index: number): { role: string; texts: string[] }[] {
  const body = llm.requests.filter((r) => r.method === 'POST')[index]?.body as { messages: { role: string; content: string | { type: string; text?: string }[] }[] };
  return body.messages.map(({ role, content }) => ({
    role,
    texts: typeof content === 'string' ? [content] : content.flatMap((block) => (block.type === 'text' && block.text !== undefined ? [block.text] : [`[${block.type}]`])),
  }));
}

describe('Retry', () => {
  test('after a failed reply, the model gets the person’s message once, and the history shows it once with the failed reply replaced', async () => {
    const { host, llm } = await retryHost([{ error: { status: 401, message: 'invalid x-api-key' } }, { text: 'Answered this time.' }]);
    const first = await host.core.api.sendMessage({ text: 'hello there' });
    assert.equal(first.stopReason, 'error');

    const retried = await host.core.api.retryTurn({ conversationId: first.conversationId });
    assert.equal(retried.stopReason, 'end_turn');
    assert.deepEqual(sentMessages(llm, 1), [{ role: 'user', texts: ['hello there'] }], 'the model reads the message once, and not the failed reply');

    const { messages } = await host.core.api.getConversation({ conversationId: first.conversationId });
    const shown = messages.map((m) => [m.role, m.status, m.replacedAt === undefined ? 'stands' : 'replaced', m.content.map((c) => (c.type === 'text' ? c.text : c.type)).join('')]);
    assert.deepEqual(shown, [
      ['user', 'complete', 'stands', 'hello there'],
      ['assistant', 'error', 'replaced', ''],
      ['assistant', 'complete', 'stands', 'Answered this time.'],
    ]);
  });

  test('a turn that called a tool and then failed is answered again from the person’s message: its steps are replaced, not given to the model', async () => {
    const { host, llm } = await retryHost([
      { text: 'Let me echo that.', toolCalls: [{ name: 'echo__echo', input: { text: 'ping' } }] },
      { error: { status: 400, message: 'the model fell over' } },
      { text: 'Second try, no tool needed.' },
      { text: 'And the next question is answered after it.' },
    ]);
    const first = await host.core.api.sendMessage({ text: 'echo ping please' });
    assert.equal(first.stopReason, 'error');
    await host.core.api.retryTurn({ conversationId: first.conversationId });
    assert.deepEqual(sentMessages(llm, 2), [{ role: 'user', texts: ['echo ping please'] }]);

    await host.core.api.sendMessage({ conversationId: first.conversationId, text: 'next question' });
    assert.deepEqual(sentMessages(llm, 3), [
      { role: 'user', texts: ['echo ping please'] },
      { role: 'assistant', texts: ['Second try, no tool needed.'] },
      { role: 'user', texts: ['next question'] },
    ]);
    // The replaced step's call is still there for the person to read.
    const { messages, toolCalls } = await host.core.api.getConversation({ conversationId: first.conversationId });
    assert.equal(toolCalls.length, 1);
    const replaced = messages.filter((m) => m.replacedAt !== undefined).map((m) => m.role);
    assert.deepEqual(replaced, ['assistant', 'user', 'assistant'], 'the step with the call, its result, and the failed step');
  });

  test('an edit of the last message: the model reads the edited words only; the message it replaces and its reply are kept, replaced', async () => {
    const { host, llm } = await retryHost([{ text: 'Paris has about two million people.' }, { text: 'Lyon has about half a million.' }, { text: 'unused' }]);
    const first = await host.core.api.sendMessage({ text: 'how many people live in Paris?' });
    const before = await host.core.api.getConversation({ conversationId: first.conversationId });
    const asked = before.messages.find((m) => m.role === 'user');
    assert.ok(asked);

    await host.core.api.sendMessage({ conversationId: first.conversationId, text: 'how many people live in Lyon?', replaces: asked.id });
    const [listed] = await host.core.api.listConversations({});
    assert.equal(listed?.title, 'how many people live in Lyon?', 'titled after its first message, it takes the edit’s words');
    assert.deepEqual(sentMessages(llm, 1), [{ role: 'user', texts: ['how many people live in Lyon?'] }], 'neither the old question nor its answer');
    const { messages } = await host.core.api.getConversation({ conversationId: first.conversationId });
    const shown = messages.map((m) => [m.role, m.replacedAt === undefined ? 'stands' : 'replaced', m.content.map((c) => (c.type === 'text' ? c.text : c.type)).join('')]);
    assert.deepEqual(shown, [
      ['user', 'replaced', 'how many people live in Paris?'],
      ['assistant', 'replaced', 'Paris has about two million people.'],
      ['user', 'stands', 'how many people live in Lyon?'],
      ['assistant', 'stands', 'Lyon has about half a million.'],
    ]);

    // An edit of a message that is no longer the last one (another window wrote since) is refused, and changes nothing.
    await assert.rejects(host.core.api.sendMessage({ conversationId: first.conversationId, text: 'and Nice?', replaces: asked.id }), /your last message changed meanwhile/);
    assert.equal((await host.core.api.getConversation({ conversationId: first.conversationId })).messages.length, 4);
    assert.equal(llm.requests.filter((r) => r.method === 'POST').length, 2);
    await assert.rejects(host.core.api.sendMessage({ text: 'no conversation', replaces: asked.id }), /an edit must name the conversation/);

    // A title the person gave stays theirs.
    await host.core.api.renameConversation({ conversationId: first.conversationId, title: 'Cities' });
    const lyon = (await host.core.api.getConversation({ conversationId: first.conversationId })).messages.findLast((m) => m.role === 'user');
    await host.core.api.sendMessage({ conversationId: first.conversationId, text: 'how many people live in Marseille?', replaces: lyon?.id ?? '' });
    assert.equal((await host.core.api.listConversations({}))[0]?.title, 'Cities');
  });

  test('Retry with the picker on another model answers with that one; a conversation without a message of the person’s has nothing to retry', async () => {
    const { host, llm } = await retryHost([{ error: { status: 401, message: 'invalid x-api-key' } }, { text: 'From the other model.' }]);
    const first = await host.core.api.sendMessage({ text: 'hi' });
    await host.core.api.retryTurn({ conversationId: first.conversationId, provider: 'fake', model: 'other-model' });
    assert.equal((llm.requests.filter((r) => r.method === 'POST')[1]?.body as { model: string }).model, 'other-model');
    await assert.rejects(host.core.api.retryTurn({ conversationId: 'no-such-conversation' }), /there is no conversation/);
  });
});
