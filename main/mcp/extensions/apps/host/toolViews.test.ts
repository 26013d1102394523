// MCP Apps: what a view may ask for, decided before the consent gate is asked (issue 16).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CachedSchemaValidator } from '../../../schemaValidatorCache.ts';
import type { ToolSummary } from '../../../../../shared/domain.ts';
import type { GateDecision } from '../../../../host/consentGate.ts';
import { withheldFrom } from '../../../../host/tools/toolCatalog.ts';
import { createToolCallPipeline } from '../../../../host/tools/toolCallPipeline.ts';
import { createToolViews, viewDocumentOf } from './toolViews.ts';
import { shownText } from '../../../../../shared/visibleText.ts';
import { viewContextNote } from './viewContextNote.ts';

const tool = (name: string, extra: Partial<ToolSummary> = {}): ToolSummary => ({ serverId: 'charts', name, modelName: `charts__${name}`, inputSchema: { type: 'object' }, enabled: true, ...extra });
const tools = [tool('show', { view: { resourceUri: 'ui://charts/view.html' } }), tool('refresh', { visibility: ['app'] }), tool('sum', { visibility: ['model'] })];

function views() {
  const calls: string[] = [];
  const kept: { conversationId: string; callId: string; text: string }[] = [];
  const settle: ((decision: GateDecision) => void)[] = [];
  // The person is asked once the pipeline reaches consent: a test waits for the question, not a turn of the loop.
  let opened: (() => void)[] = [];
  const asked = (count: number) => new Promise<void>((resolve) => (settle.length >= count ? resolve() : opened.push(resolve)));
  const toolOf = async (serverId: string, name: string) => tools.find((t) => t.serverId === serverId && t.name === name);
  const pipeline = createToolCallPipeline({
    catalog: { resolve: toolOf, withheld: withheldFrom, unavailable: () => undefined },
    consent: {
      tookIn: () => undefined,
      check: () =>
        new Promise<GateDecision>((resolve) => {
          settle.push(resolve);
          const waiting = opened;
          opened = [];
          waiting.forEach((wake) => wake());
        }),
    },
    runner: {
      call: async (_serverId, name) => {
        calls.push(name);
        return { content: [{ type: 'text', text: `${name} ran` }] };
      },
    },
    validator: new CachedSchemaValidator(),
    audit: { append: () => undefined as never },
  });
  const api = createToolViews({
    toolOf,
    readViewPage: async () => ({ contents: [] }),
    callOf: (conversationId, callId) => (conversationId === 'c1' && callId === 'call-show' ? { serverId: 'charts', tool: 'show' } : conversationId === 'c1' && callId === 'call-other' ? { serverId: 'other', tool: 'show' } : undefined),
    context: { set: (conversationId, entry) => void kept.push({ conversationId, callId: entry.callId, text: entry.text }), list: () => [] },
    conversationExists: (id) => id === 'c1',
    calls: pipeline,
  });
  return { api, calls, settle, kept, asked };
}

const fromShow = (name: string) => ({ conversationId: 'c1', viewOf: { serverId: 'charts', tool: 'show' }, tool: name, arguments: {}, callId: `view-${name}`, signal: new AbortController().signal });

test('a view that polls while its question is open is refused at once, instead of queueing a question a second', async () => {
  const { api, calls, settle, asked } = views();
  const first = api.call(fromShow('refresh'));
  await assert.rejects(api.call(fromShow('refresh')), /while its previous call still waits for your answer/);
  await assert.rejects(api.call(fromShow('refresh')), /still waits/);
  await asked(1);
  settle[0]?.({ allowed: true, decidedBy: 'person', reason: 'allowed by the person (once)' });
  assert.deepEqual((await first).content, [{ type: 'text', text: 'refresh ran' }]);
  assert.equal(settle.length, 1, 'the person was asked once');
  const next = api.call(fromShow('refresh'));
  await asked(2);
  settle[1]?.({ allowed: false, decidedBy: 'person', reason: 'denied by the person (once)' });
  await assert.rejects(next, /denied by the person/);
  assert.deepEqual(calls, ['refresh']);
});

test('a view calls only its own server’s tools for views, in a conversation that exists', async () => {
  const { api, settle } = views();
  await assert.rejects(api.call({ ...fromShow('refresh'), conversationId: 'gone' }), /There is no conversation "gone"/);
  await assert.rejects(api.call(fromShow('sum')), /for the model only, not for its views/);
  await assert.rejects(api.call(fromShow('delete_everything')), /charts does not offer/);
  await assert.rejects(api.call({ ...fromShow('refresh'), viewOf: { serverId: 'other', tool: 'show' } }), /other does not offer/);
  assert.equal(settle.length, 0, 'nothing refused here reached the person');
});

test('a view page is read from text or base64, must be an MCP Apps page, and keeps only allowed origins', () => {
  const html = '<!doctype html><p>hi</p>';
  const fromBlob = viewDocumentOf('charts', 'ui://charts/view.html', { contents: [{ uri: 'ui://charts/view.html', mimeType: 'text/html;profile=mcp-app', blob: Buffer.from(html).toString('base64'), _meta: { ui: { csp: { connectDomains: ['https://api.example.org', 'http://evil.example'] }, prefersBorder: false } } }] });
  assert.equal(fromBlob.html, html);
  assert.deepEqual(fromBlob.csp.connectDomains, ['https://api.example.org']);
  assert.equal(fromBlob.dropped.length, 1);
  assert.equal(fromBlob.prefersBorder, false);
  assert.throws(() => viewDocumentOf('charts', 'ui://charts/view.html', { contents: [{ uri: 'ui://charts/view.html', mimeType: 'application/javascript', text: 'alert(1)' }] }), /not an MCP Apps page/);
  assert.throws(() => viewDocumentOf('charts', 'ui://charts/view.html', { contents: [] }), /sent nothing/);
});

test('MCP Apps ui/update-model-context: a view speaks for its own call only; what it says is cleaned and capped', () => {
  const { api, kept } = views();
  const viewOf = { serverId: 'charts', tool: 'show' };
  // Kept with a mark where the hidden character was (the window shows it); the model reads it plain, with a note.
  const said = api.setContext({ conversationId: 'c1', callId: 'call-show', viewOf, text: 'Point \u202e2 of 3.' });
  assert.equal(shownText(said), 'Point ⟨U+202E⟩2 of 3.');
  assert.match(viewContextNote([{ callId: 'call-show', serverId: 'charts', tool: 'show', text: said, updatedAt: 1 }]) ?? '', / {2}Point 2 of 3\. \[Atrium removed 1 hidden character from this text: bidirectional controls\]$/);
  const long = api.setContext({ conversationId: 'c1', callId: 'call-show', viewOf, text: 'x'.repeat(10_000) });
  assert.match(long, /\[… cut at 4000 characters of 10000\]$/);
  assert.throws(() => api.setContext({ conversationId: 'c1', callId: 'call-other', viewOf, text: 'I am the other view' }), /not its own/);
  assert.throws(() => api.setContext({ conversationId: 'c1', callId: 'no-such-call', viewOf, text: 'hello' }), /not its own/);
  assert.throws(() => api.setContext({ conversationId: 'gone', callId: 'call-show', viewOf, text: 'hello' }), /There is no conversation "gone"/);
  assert.deepEqual(kept.map((k) => k.callId), ['call-show', 'call-show']);
});
