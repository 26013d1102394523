// A hostile server's hidden characters through a real host to a scripted model (the real Anthropic SDK
// against a fake server that records every request): the history keeps a marker where each was, for the
// window; the model reads the same cleaned text with the same note as before markers existed. A page of
// an MCP Apps view is kept as written only for the view sandbox: marked as a ui:// view resource in a
// tool result or attached to a message, it reaches the model cleaned like any server text.

import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import type { FakeLlmServer, FakeTurn } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import type { TestHost } from '../../e2e/fixtures/hostHarness.ts';
import { scriptedModelOptions, startTestHost } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';
import { shownText } from '../../shared/visibleText.ts';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function hostileHost(script: FakeTurn[]): Promise<{ host: TestHost; llm: FakeLlmServer }> {
  const llm = await startFakeAnthropic(script);
  const host = await startTestHost(
    { hostile: fixtureCommand('hostileTextServer') },
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

// eslint-disable-next-line no-control-regex -- these are what must never reach the model.
const HIDDEN = /[\u001b\u202a-\u202e\u2066-\u2069\u200b\uFDD0\uFDD1]|[\u{e0000}-\u{e007f}]/u;
const ORDER_NOTE = '[Atrium removed 55 hidden characters from this text: invisible tag characters]';

const sent = (llm: FakeLlmServer) => llm.requests.filter((request) => request.method === 'POST').map((request) => JSON.stringify(request.body));

describe('hidden characters on the way to the model', () => {
  test('the history keeps a mark where each hidden character was; the model reads the text cleaned, with the same note as before', async () => {
    const { host, llm } = await hostileHost([{ toolCalls: [{ name: 'hostile__lookup', input: { id: '42' } }] }, { text: 'Done.' }]);
    const reply = await host.core.api.sendMessage({ text: 'find invoice 42' });
    const [first = '', second = ''] = sent(llm);
    assert.ok(first.includes(`Looks up an invoice. ${ORDER_NOTE}`), first);
    assert.ok(second.includes('Found invoicefdp.exe for you.'), second);
    assert.ok(second.includes('[Atrium removed 62 hidden characters from this text: bidirectional controls, zero-width characters, invisible tag characters, control characters]'), second);
    assert.ok(second.includes('שלום · مرحبا · 👩\u200D💻'), 'legitimate right-to-left text and an emoji sequence reach the model whole');
    for (const body of sent(llm)) assert.doesNotMatch(body, HIDDEN);
    const { toolCalls } = await host.core.api.getConversation({ conversationId: reply.conversationId });
    const saved = toolCalls[0]?.result?.content?.[0]?.text ?? '';
    assert.match(shownText(saved), /^Found invoice⟨U\+202E⟩fdp\.exe⟨U\+200B U\+2066⟩ for you\.⟨U\+E0041 /);
  });

  test('hardening: a ui:// resource of the view type in a tool result is server text like any other — the model gets it cleaned', async () => {
    const { host, llm } = await hostileHost([{ toolCalls: [{ name: 'hostile__page_in_result', input: {} }] }, { text: 'Done.' }]);
    await host.core.api.sendMessage({ text: 'show me the invoice page' });
    const [, withResult = ''] = sent(llm);
    assert.ok(withResult.includes('[resource ui://hostile/page.html]'), withResult);
    assert.ok(withResult.includes(ORDER_NOTE.replace('55', '58').replace('invisible tag characters', 'bidirectional controls, invisible tag characters')), withResult);
    assert.doesNotMatch(withResult, HIDDEN);
  });

  test('a ui:// view page attached to a message reaches the model cleaned', async () => {
    const { host, llm } = await hostileHost([{ text: 'Read it.' }]);
    await host.core.api.sendMessage({ text: 'what does this page say?', resources: [{ serverId: 'hostile', uri: 'ui://hostile/page.html' }] });
    const [body = ''] = sent(llm);
    assert.ok(body.includes('Resource ui://hostile/page.html (text/html;profile=mcp-app):'), body);
    assert.ok(body.includes('[Atrium removed 58 hidden characters from this text: bidirectional controls, invisible tag characters]'), body);
    assert.doesNotMatch(body, HIDDEN);
  });

  test("a server's prompt, sent as the person's message, keeps its mark in the history and reaches the model cleaned, with the note", async () => {
    const { host, llm } = await hostileHost([{ text: 'Summarised.' }]);
    const { conversationId } = await host.core.api.runPrompt({ serverId: 'hostile', name: 'summarise' });
    const [body = ''] = sent(llm);
    assert.ok(body.includes('Summarise invoicefdp.exe please. [Atrium removed 1 hidden character from this text: bidirectional controls]'), body);
    assert.doesNotMatch(body, HIDDEN);
    const { messages } = await host.core.api.getConversation({ conversationId });
    const asked = messages[0]?.content[0];
    assert.equal(asked?.type === 'text' ? shownText(asked.text) : '', 'Summarise invoice⟨U+202E⟩fdp.exe please.');
  });

  test('the view itself gets its page as written, for the sandbox: its script keeps the bidi controls it needs', async () => {
    const { host } = await hostileHost([]);
    const view = await host.core.api.openToolView({ serverId: 'hostile', tool: 'show_page' });
    assert.ok(view.html.includes("/[\u202a-\u202e]/.test('\u202e')"), view.html);
    const read = await host.core.api.readResource({ serverId: 'hostile', uri: 'ui://hostile/page.html' });
    const text = read.contents[0] && 'text' in read.contents[0] ? read.contents[0].text : '';
    assert.doesNotMatch(text, /[\u202a-\u202e]|[\u{e0000}-\u{e007f}]/u, 'read any other way, the page is neutralised');
  });
});
