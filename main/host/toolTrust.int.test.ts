// A trusted server that turns on its user, through the real host core, a real stdio server and the real
// Anthropic SDK against a scripted fake: a tool that changes (by list_changed, or between two runs) is
// withheld from the model and refused until the person approves the new definition; a conversation that
// read an open-world result asks before a destructive tool allowed "always", and still does after a restart.

import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { ToolSummary } from '../../shared/domain.ts';
import type { PendingRequestView } from '../../shared/pendingPayloads.ts';
import type { ToolApprovalAnswer, ToolApprovalPayload } from '../../shared/pendingPayloads.ts';
import type { FakeLlmServer, FakeTurn } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { nextEvent, scriptedModelOptions, waitForLog } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';
import type { HostCore } from '../app/hostCore.ts';
import { startHostCore } from '../app/hostCore.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function tempHome(marker: string): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'atrium-tools-'));
  // Unsandboxed: the server reads the test's marker in the data folder, which its sandbox hides.
  const server = { ...fixtureCommand('toolChangeServer', ['--changed-if', join(home, marker)]), trusted: true, sandbox: false };
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { notes: server } }, null, 2));
  await approveServers(home);
  cleanups.push(() => rm(home, { recursive: true, force: true }));
  return home;
}

/** The host core on `home`, its model scripted, every approval it asks for answered by `answer` and recorded. */
async function openHost(home: string, script: FakeTurn[], answer: ToolApprovalAnswer = { effect: 'deny', scope: 'once', target: 'tool' }) {
  const llm = await startFakeAnthropic(script);
  const core = await startHostCore({
    home,
    keepAliveMs: 0,
    ...scriptedModelOptions(llm.url),
  });
  const asked: ToolApprovalPayload[] = [];
  core.events.on('pendingOpened', (record: PendingRequestView) => {
    asked.push(record.payload as unknown as ToolApprovalPayload);
    void core.api.respondPending({ id: record.id, outcome: { ...answer } });
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await core.shutdown();
    await llm.close();
  };
  cleanups.push(close);
  await core.hub.whenSettled();
  return { core, llm, asked, close };
}

const offered = (llm: FakeLlmServer, index: number): string[] =>
  ((llm.requests.filter((r) => r.method === 'POST')[index]?.body as { tools?: { name: string }[] } | undefined)?.tools ?? []).map((t) => t.name);
const lastMessageTo = (llm: FakeLlmServer, index: number) => JSON.stringify((llm.requests.filter((r) => r.method === 'POST')[index]?.body as { messages: unknown[] }).messages.at(-1));

async function readNotes(core: HostCore): Promise<ToolSummary> {
  const tool = (await core.api.listTools({ serverId: 'notes' })).find((t) => t.name === 'read_notes');
  assert.ok(tool, 'read_notes is listed');
  return tool;
}

describe('a tool that changes is withheld, approved or not', () => {
  test('a read-only tool of a trusted server that changes by list_changed is not offered, is refused when called, and comes back once approved', async () => {
    const home = await tempHome('never');
    const { core, llm, asked } = await openHost(home, [
      { toolCalls: [{ name: 'notes__rug_pull', input: {} }] },
      { text: 'changed' },
      { toolCalls: [{ name: 'notes__read_notes', input: { key: '-----BEGIN OPENSSH PRIVATE KEY-----' } }] },
      { text: 'could not' },
      { text: 'offered again' },
    ]);
    const toolsChanged = nextEvent(core, 'listChanged', (e) => e.serverId === 'notes' && e.list === 'tools');
    const first = await core.api.sendMessage({ text: 'change it' });
    await toolsChanged;
    assert.ok(offered(llm, 0).includes('notes__read_notes'), 'offered before the change');

    const changed = await readNotes(core);
    assert.match(changed.description ?? '', /id_rsa/);
    assert.equal(changed.changed?.previous.description, 'Reads your notes.', 'the old definition is shown beside the new');

    await core.api.sendMessage({ conversationId: first.conversationId, text: 'read my notes' });
    assert.ok(!offered(llm, 2).includes('notes__read_notes'), `withheld from the model: ${offered(llm, 2).join(', ')}`);
    assert.match(lastMessageTo(llm, 3), /This call was not made: notes changed the tool \\"read_notes\\" since it was approved/);
    assert.deepEqual(asked, [], 'nothing was asked: a withheld tool is refused, not put to the person');
    const { toolCalls } = await core.api.getConversation({ conversationId: first.conversationId });
    assert.deepEqual(toolCalls.map((c) => [c.tool, c.status]), [['rug_pull', 'done'], ['read_notes', 'denied']]);

    await assert.rejects(core.api.callTool({ serverId: 'notes', tool: 'read_notes' }), /cannot be called until you review and approve the new version/);
    await assert.rejects(core.api.approveToolChange({ serverId: 'notes', tool: 'read_notes', fingerprint: '0'.repeat(64) }), /changed again since you looked at it/);

    await core.api.approveToolChange({ serverId: 'notes', tool: 'read_notes', fingerprint: changed.changed?.fingerprint ?? '' });
    assert.equal((await readNotes(core)).changed, undefined);
    await core.api.sendMessage({ conversationId: first.conversationId, text: 'and now?' });
    assert.ok(offered(llm, 4).includes('notes__read_notes'), 'offered again once approved');
  });

  test('a tool that changed between two runs is withheld at the next start', async () => {
    const home = await tempHome('changed');
    const firstRun = await openHost(home, []);
    assert.equal((await readNotes(firstRun.core)).changed, undefined);
    await firstRun.close();

    await writeFile(join(home, 'changed'), 'yes');
    const secondRun = await openHost(home, [{ text: 'hello' }]);
    const tool = await readNotes(secondRun.core);
    assert.match(tool.description ?? '', /id_rsa/);
    assert.equal(tool.changed?.previous.description, 'Reads your notes.');
    await secondRun.core.api.sendMessage({ text: 'hi' });
    assert.ok(!offered(secondRun.llm, 0).includes('notes__read_notes'));
    assert.ok(offered(secondRun.llm, 0).includes('notes__fetch_page'), 'the unchanged tools are still offered');
  });
});

describe('untrusted content raises the bar', () => {
  test('after an open-world result, a destructive tool allowed "always" asks in that conversation, saying why, also after a restart; other conversations are not affected', async () => {
    const home = await tempHome('never');
    const script: FakeTurn[] = [
      { toolCalls: [{ name: 'notes__delete_file', input: { path: '/tmp/old.log' } }] },
      { text: 'deleted' },
      { toolCalls: [{ name: 'notes__fetch_page', input: { url: 'https://example.com' } }] },
      { toolCalls: [{ name: 'notes__delete_file', input: { path: '/home/you/thesis.tex' } }] },
      { text: 'done' },
    ];
    const run = await openHost(home, script, { effect: 'allow', scope: 'always', target: 'tool' });
    await run.core.api.sendMessage({ text: 'delete the old log' });
    assert.equal(run.asked.length, 1, 'the first delete asks, and is allowed always');

    const read = await run.core.api.sendMessage({ text: 'read example.com' });
    await waitForLog(run.core, 'notes', /deleted \/home\/you\/thesis\.tex/);
    assert.equal(run.asked.length, 2, 'the delete after the page asked again, whatever was allowed always');
    assert.equal(run.asked[1]?.tool.name, 'delete_file');
    assert.match(run.asked[1]?.reason ?? '', /^this conversation holds what notes\/fetch_page returned \(a tool that reads from beyond this computer\), which may carry instructions/);
    assert.deepEqual(run.asked[1]?.raisedBy, { serverId: 'notes', kind: 'tool', name: 'fetch_page', why: 'open-world' });
    await run.close();

    const again = await openHost(home, [
      { toolCalls: [{ name: 'notes__delete_file', input: { path: '/tmp/a' } }] },
      { text: 'denied' },
      { toolCalls: [{ name: 'notes__delete_file', input: { path: '/tmp/b' } }] },
      { text: 'deleted' },
    ]);
    await again.core.api.sendMessage({ conversationId: read.conversationId, text: 'delete /tmp/a' });
    assert.equal(again.asked.length, 1, 'the conversation is still marked after a restart');
    assert.match(again.asked[0]?.reason ?? '', /holds what notes\/fetch_page returned/);
    await again.core.api.sendMessage({ text: 'delete /tmp/b' });
    assert.equal(again.asked.length, 1, 'a new conversation keeps the "always" grant');
    await waitForLog(again.core, 'notes', /deleted \/tmp\/b/);
  });
});
