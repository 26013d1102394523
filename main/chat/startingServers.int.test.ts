// A message sent while a server is still starting (the window just opened, an npx server still being
// fetched): the turn waits for it, a bounded while, and says so, so that the model is offered its tools
// rather than answering "I have no access to that". Stop ends the wait at once.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import type { FakeLlmServer } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import type { TestHost } from '../../e2e/fixtures/hostHarness.ts';
import { nextEvent, scriptedModelOptions, startTestHost } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A host whose one server, `slow`, starts only once the file it returns the path of exists. */
async function hostWithSlowServer(): Promise<{ host: TestHost; llm: FakeLlmServer; release: () => Promise<void> }> {
  const folder = await mkdtemp(join(tmpdir(), 'atrium-starting-'));
  const ready = join(folder, 'ready');
  const llm = await startFakeAnthropic([{ text: 'Hello.' }]);
  // Unsandboxed: a sandboxed server sees only what was there at its start, and the file it waits for is made later.
  const host = await startTestHost({ slow: { ...fixtureCommand('slowStartServer', ['--until-file', ready]), sandbox: false } }, scriptedModelOptions(llm.url));
  cleanups.push(async () => {
    await host.close();
    await llm.close();
    await rm(folder, { recursive: true, force: true });
  });
  return { host, llm, release: () => writeFile(ready, '') };
}

const modelRequests = (llm: FakeLlmServer) => llm.requests.filter((request) => request.method === 'POST');
const noticeNaming = (host: TestHost, words: RegExp) =>
  nextEvent(host.core, 'chatEvent', ({ event }) => event.type === 'notice' && words.test(event.message)).then(({ conversationId, event }) => ({ conversationId, message: event.type === 'notice' ? event.message : '' }));

describe('a message sent while a server starts', () => {
  test('waits for the server, says so in the chat, and the model is offered its tools', async () => {
    const { host, llm, release } = await hostWithSlowServer();
    const waiting = noticeNaming(host, /slow/);
    const sent = host.core.api.sendMessage({ text: 'what can you do?' });
    const { conversationId, message } = await waiting;
    assert.match(message, /waiting for slow to start/);
    assert.equal(modelRequests(llm).length, 0, 'the model was asked before the server was ready');
    // Meanwhile the person's message is saved, and shown: a window that loads the conversation has it.
    const { messages } = await host.core.api.getConversation({ conversationId });
    assert.deepEqual(
      messages.map((saved) => saved.role),
      ['user'],
    );

    await release();
    await sent;
    const offered = (modelRequests(llm)[0]?.body as { tools?: { name: string }[] } | undefined)?.tools?.map((tool) => tool.name) ?? [];
    assert.ok(offered.includes('slow__ok'), `the model was offered ${offered.join(', ') || 'no tool'}`);
  });

  test('Stop ends the wait at once, and the model is not asked', async () => {
    const { host, llm } = await hostWithSlowServer();
    const waiting = noticeNaming(host, /slow/);
    const sent = host.core.api.sendMessage({ text: 'what can you do?' });
    const { conversationId } = await waiting;
    await host.core.api.cancelTurn({ conversationId });
    await sent;
    assert.equal(modelRequests(llm).length, 0);
  });
});
