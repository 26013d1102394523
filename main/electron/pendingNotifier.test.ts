import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PendingKind, PendingOf, PendingRequestView } from '../../shared/pendingPayloads.ts';
import { EventBus } from '../api/eventBus.ts';
import { describePending, notifyPendingRequests } from './pendingNotifier.ts';
import type { NotificationText } from './pendingNotifier.ts';

/** A request of each kind as the host opens it, with only what the notification reads set apart. */
const payloads = {
  tool_approval: (tool: { name: string; title?: string }): PendingOf<'tool_approval'>['payload'] => ({
    tool: { serverId: 'files', modelName: `files__${tool.name}`, inputSchema: { type: 'object' }, enabled: true, ...tool },
    arguments: {},
    annotationsTrusted: false,
    elevated: false,
    reason: 'not read-only',
    keepsAfterUntrusted: false,
    serverTools: [],
  }),
  elicitation: (mode: 'form' | 'url'): PendingOf<'elicitation'>['payload'] =>
    mode === 'url'
      ? { mode, message: 'Open this', url: 'https://x', domain: 'x' }
      : { mode, message: 'Fill this', fields: [], requestedSchema: { type: 'object' }, asksForSecrets: false },
  sampling: (stage: 'request' | 'result'): PendingOf<'sampling'>['payload'] =>
    stage === 'result'
      ? { stage, provider: 'p', model: 'm', why: 'default', text: 'hi', stopReason: 'endTurn' }
      : { stage, messages: [], maxTokens: 10, includeContext: 'none', contextAvailable: false, provider: 'p', model: 'm', why: 'default', models: ['m'] },
};

function record<K extends PendingKind>(kind: K, payload: PendingOf<K>['payload'], id = 'p1', serverId = 'files'): PendingRequestView {
  // The kind and its payload go together (the signature says so); TypeScript cannot follow K into the union.
  return { id, kind, serverId, payload, createdAt: 0 } as PendingOf<K>;
}

function setup(focused: boolean) {
  const events = new EventBus();
  const shown: { text: NotificationText; click(): void; closed: boolean }[] = [];
  let focusedWindow = 0;
  let isFocused = focused;
  const stop = notifyPendingRequests({
    events,
    isWindowFocused: () => isFocused,
    show: (text, onClick) => {
      const entry = { text, click: onClick, closed: false };
      shown.push(entry);
      return { close: () => void (entry.closed = true) };
    },
    focusWindow: () => focusedWindow++,
  });
  return { events, shown, stop, focusedWindow: () => focusedWindow, setFocused: (value: boolean) => (isFocused = value) };
}

test('each kind of request says which server asks and for what', () => {
  assert.deepEqual(describePending(record('tool_approval', payloads.tool_approval({ name: 'write_file', title: 'Write a file' }))), {
    title: 'files wants to run a tool',
    body: '“Write a file” is waiting for your approval in Atrium.',
  });
  assert.equal(describePending(record('elicitation', payloads.elicitation('form'))).title, 'files asks you for information');
  assert.equal(describePending(record('elicitation', payloads.elicitation('url'))).title, 'files asks you to open a web page');
  assert.equal(describePending(record('sampling', payloads.sampling('request'))).title, 'files asks to use your model');
  assert.equal(describePending(record('sampling', payloads.sampling('result'))).title, 'files’s model reply is ready');
  const skill = { serverId: 'files', uri: 'skill://tidy/SKILL.md', name: 'tidy', description: 'd', files: [], totalBytes: 0, allowedTools: [], approval: { kind: 'not-asked' as const }, listed: true };
  assert.equal(describePending(record('skill', { question: 'use', skill, by: 'model', askedTools: [] })).title, 'files’s skill “tidy” asks to be used');
  assert.equal(describePending(record('skill', { question: 'read-elsewhere', skill: { serverId: 'docs', uri: 'skill://x/SKILL.md', name: 'x' }, target: { serverId: 'files', uri: 'file:///etc/passwd' } })).title, 'A skill asks to read a file on files');
});

test('server text is made safe: control, bidi and zero-width characters become visible marks, one bounded line', () => {
  const text = describePending(record('tool_approval', payloads.tool_approval({ name: 'rm\u001b[31m\u202e\u200bfile\nnext' }), 'p1', 'ev\u0007il\tserver'));
  assert.equal(text.title, 'ev\\u{7}il server wants to run a tool');
  assert.equal(text.body, '“rm\\u{1b}[31m\\u{202e}\\u{200b}file next” is waiting for your approval in Atrium.');
  // eslint-disable-next-line no-control-regex -- the point is that none survive.
  assert.doesNotMatch(`${text.title}${text.body}`, /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u200b-\u200f]/);
  const long = describePending(record('sampling', payloads.sampling('request'), 'p1', 'x'.repeat(500)));
  assert.ok(long.title.length < 100);
  assert.match(long.title, /x…/);
});

test('a request opened while the window is not focused is notified; clicking it focuses the window', () => {
  const { events, shown, focusedWindow } = setup(false);
  events.emit('pendingOpened', record('tool_approval', payloads.tool_approval({ name: 'write_file' })));
  assert.equal(shown.length, 1);
  assert.equal(shown[0]?.text.title, 'files wants to run a tool');
  shown[0]?.click();
  assert.equal(focusedWindow(), 1);
});

test('no notification while the person is looking at the window', () => {
  const { events, shown, setFocused } = setup(true);
  events.emit('pendingOpened', record('sampling', payloads.sampling('request')));
  assert.equal(shown.length, 0);
  setFocused(false);
  events.emit('pendingOpened', record('sampling', payloads.sampling('request'), 'p2'));
  assert.equal(shown.length, 1);
});

test('a request settled or withdrawn takes its notification away; stopping closes the rest and notifies no more', () => {
  const { events, shown, stop } = setup(false);
  events.emit('pendingOpened', record('elicitation', payloads.elicitation('form'), 'a'));
  events.emit('pendingOpened', record('elicitation', payloads.elicitation('form'), 'b'));
  events.emit('pendingClosed', { id: 'a', how: 'withdrawn', reason: 'files is no longer connected' });
  assert.deepEqual(shown.map((n) => n.closed), [true, false]);
  stop();
  assert.deepEqual(shown.map((n) => n.closed), [true, true]);
  events.emit('pendingOpened', record('elicitation', payloads.elicitation('form'), 'c'));
  assert.equal(shown.length, 2);
});
