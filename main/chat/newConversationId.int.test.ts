// A window that starts a conversation gives it its id (a UUID it made), so that among the conversations
// appearing at that moment (another window's, at the same address) it knows its own. The host makes the
// conversation with that id, and refuses one it already has.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, test } from 'node:test';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { scriptedModelOptions, startTestHost } from '../../e2e/fixtures/hostHarness.ts';

const llm = await startFakeAnthropic([{ text: 'First.' }, { text: 'Second.' }]);
const host = await startTestHost({}, scriptedModelOptions(llm.url));
after(async () => {
  await host.close();
  await llm.close();
});

test('a conversation started with the id its window gave it has that id; the same id again, or beside an existing conversation, is refused', async () => {
  const id = randomUUID();
  const sent = await host.core.api.sendMessage({ text: 'hello', newConversationId: id });
  assert.deepEqual([sent.conversationId, sent.stopReason], [id, 'end_turn']);
  assert.ok((await host.core.api.listConversations({})).some((conversation) => conversation.id === id && conversation.title === 'hello'));

  await assert.rejects(host.core.api.sendMessage({ text: 'again', newConversationId: id }), /there is a conversation "[0-9a-f-]+" already: a new one needs an id of its own/);
  await assert.rejects(host.core.api.sendMessage({ text: 'both', conversationId: id, newConversationId: randomUUID() }), /a message to a conversation that exists takes no id for a new one/);
  const { messages } = await host.core.api.getConversation({ conversationId: id });
  assert.deepEqual(
    messages.filter((message) => message.role === 'user').map((message) => message.content.map((c) => (c.type === 'text' ? c.text : '')).join('')),
    ['hello'],
    'nothing refused was written',
  );
  assert.equal((await host.core.api.sendMessage({ text: 'a fresh one' })).stopReason, 'end_turn', 'without an id, the host makes one as before');
});
