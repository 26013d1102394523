import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ChatContent } from '../../shared/conversation.ts';
import { openDatabase } from './database.ts';
import type { Database } from './database.ts';
import { HistoryStore, historyMigrations } from './historyStore.ts';
import type { HistoryStoreOptions } from './historyStore.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** A store over an in-memory database, with a clock the test moves by hand. */
function memoryStore(options: HistoryStoreOptions = {}) {
  const clock = { now: 1_000 };
  const db = openDatabase(':memory:', historyMigrations);
  cleanups.push(() => db.close());
  const store = new HistoryStore(db, { now: () => clock.now, ...options });
  cleanups.push(() => store.close());
  return { db, store, clock };
}

function tempFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'atrium-history-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'atrium.db');
}

function open(path: string): Database {
  const db = openDatabase(path, historyMigrations);
  cleanups.push(() => db.close());
  return db;
}

const say = (text: string): ChatContent[] => [{ type: 'text', text }];

function count(db: Database, table: string): number {
  return Number(db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get()?.n);
}

test('a conversation round-trips, is renamed, and conversations list most recently active first', () => {
  const { store, clock } = memoryStore();
  const first = store.createConversation({ title: 'First', providerId: 'anthropic', model: 'claude' });
  clock.now += 10;
  const second = store.createConversation();
  assert.deepEqual(store.getConversation(first.id), { id: first.id, title: 'First', createdAt: 1_000, updatedAt: 1_000, providerId: 'anthropic', model: 'claude' });
  assert.deepEqual(store.getConversation(second.id), { id: second.id, title: '', createdAt: 1_010, updatedAt: 1_010 });
  assert.deepEqual(store.listConversations().map((c) => c.id), [second.id, first.id]);

  clock.now += 10;
  store.appendUserMessage(first.id, say('hello'));
  assert.deepEqual(store.listConversations().map((c) => c.id), [first.id, second.id]);
  assert.deepEqual(store.listConversations({ limit: 1 }).map((c) => c.id), [first.id]);

  assert.equal(store.renameConversation(second.id, 'Renamed'), true);
  assert.equal(store.getConversation(second.id)?.title, 'Renamed');
  assert.equal(store.renameConversation('missing', 'x'), false);
  assert.equal(store.getConversation('missing'), undefined);
});

test('messages keep their order, content, status, usage and error', () => {
  const { store } = memoryStore();
  const { id } = store.createConversation();
  const rich: ChatContent[] = [
    { type: 'text', text: 'look at this' },
    { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
  ];
  const user = store.appendUserMessage(id, rich);
  assert.equal(user.seq, 1);
  assert.equal(user.status, 'complete');
  const replyId = store.beginAssistantMessage(id);
  store.setAssistantContent(replyId, [{ type: 'text', text: 'calling' }, { type: 'tool_use', id: 'toolu_1', name: 'files__read', input: { path: '/a' } }]);
  store.finishAssistantMessage(replyId, { status: 'complete', usage: { inputTokens: 12, outputTokens: 3 } });
  store.appendUserMessage(id, [{ type: 'tool_result', toolUseId: 'toolu_1', content: [{ type: 'text', text: 'A' }], isError: false }]);
  const failedId = store.beginAssistantMessage(id);
  store.finishAssistantMessage(failedId, { status: 'error', error: 'The API key was rejected.' });

  const messages = store.loadMessages(id);
  assert.deepEqual(messages.map((m) => [m.seq, m.role, m.status]), [
    [1, 'user', 'complete'],
    [2, 'assistant', 'complete'],
    [3, 'user', 'complete'],
    [4, 'assistant', 'error'],
  ]);
  assert.deepEqual(messages[0]?.content, rich);
  assert.deepEqual(messages[1]?.content[1], { type: 'tool_use', id: 'toolu_1', name: 'files__read', input: { path: '/a' } });
  assert.deepEqual(messages[1]?.usage, { inputTokens: 12, outputTokens: 3 });
  assert.equal(messages[3]?.error, 'The API key was rejected.');
  assert.equal(messages[0]?.error, undefined);
  assert.equal(Object.getPrototypeOf(messages[0]), Object.prototype, 'rows are mapped to plain objects');
  assert.deepEqual(store.getMessage(user.id), messages[0]);
});

test("a message expanded from a server's prompt keeps where it came from; a typed one has no origin", () => {
  const { store } = memoryStore();
  const { id } = store.createConversation();
  store.appendUserMessage(id, [{ type: 'text', text: 'typed' }]);
  store.appendUserMessage(id, [{ type: 'text', text: 'Please promote Bob.' }], { kind: 'prompt', serverId: 'everything', name: 'completable-prompt' });
  const [typed, expanded] = store.loadMessages(id);
  assert.equal(typed?.origin, undefined);
  assert.deepEqual(expanded?.origin, { kind: 'prompt', serverId: 'everything', name: 'completable-prompt' });
});

test('a message for a missing conversation is refused and nothing is written', () => {
  const { store, db } = memoryStore();
  assert.throws(() => store.appendUserMessage('missing', say('hi')), /no conversation/);
  assert.equal(count(db, 'messages'), 0);
});

test('deleting a conversation removes its messages, tool calls and requests, and nothing else', () => {
  const { store, db } = memoryStore();
  const doomed = store.createConversation();
  const kept = store.createConversation();
  for (const conversation of [doomed, kept]) {
    store.appendUserMessage(conversation.id, say('hi'));
    const replyId = store.beginAssistantMessage(conversation.id);
    store.toolCalls.record({ conversationId: conversation.id, messageId: replyId, id: 'toolu_1', serverId: 's', tool: 't', modelName: 's__t', arguments: {} });
    store.requests.record({ conversationId: conversation.id, serverId: 's', kind: 'sampling', payload: {} });
    store.appendAssistantText(replyId, 'partial');
  }
  assert.equal(store.deleteConversation(doomed.id), true);
  assert.equal(store.deleteConversation(doomed.id), false);
  store.flush();
  assert.equal(store.getConversation(doomed.id), undefined);
  assert.deepEqual([count(db, 'conversations'), count(db, 'messages'), count(db, 'tool_calls'), count(db, 'pending_requests')], [1, 2, 1, 1]);
  assert.equal(store.loadMessages(kept.id).length, 2);
});

test('streamed text is saved while it streams and a second connection sees it before the reply ends', () => {
  const path = tempFile();
  const clock = { now: 1_000 };
  const store = new HistoryStore(open(path), { now: () => clock.now, flushIntervalMs: 200, flushChars: 100 });
  cleanups.push(() => store.close());
  const reader = new HistoryStore(open(path));
  const { id } = store.createConversation();
  store.appendUserMessage(id, say('tell me a story'));
  const replyId = store.beginAssistantMessage(id);
  const seen = () => reader.getMessage(replyId);
  assert.equal(seen()?.status, 'streaming');

  // The first delta after a quiet period is written at once; the next ones wait for the window.
  store.appendAssistantText(replyId, 'Once');
  assert.deepEqual(seen()?.content, say('Once'));
  store.appendAssistantText(replyId, ' upon');
  assert.deepEqual(seen()?.content, say('Once'), 'buffered within the window');
  assert.deepEqual(store.loadMessages(id)[1]?.content, say('Once upon'), 'the writer sees its own buffered text');

  clock.now += 200;
  store.appendAssistantText(replyId, ' a time');
  assert.deepEqual(seen()?.content, say('Once upon a time'), 'written once the interval passed');

  store.appendAssistantText(replyId, 'x'.repeat(100));
  assert.deepEqual(seen()?.content, say(`Once upon a time${'x'.repeat(100)}`), 'written once enough characters wait');

  store.appendAssistantText(replyId, '!');
  store.flush();
  assert.equal((seen()?.content[0] as { text: string }).text.endsWith('x!'), true, 'an explicit flush writes at once');
  assert.equal(seen()?.status, 'streaming');

  store.appendAssistantText(replyId, ' The end.');
  store.finishAssistantMessage(replyId, { status: 'complete', usage: { inputTokens: 5, outputTokens: 9 } });
  assert.equal(seen()?.status, 'complete');
  assert.equal((seen()?.content[0] as { text: string }).text.endsWith('! The end.'), true, 'finishing writes what was buffered');
  assert.throws(() => store.appendAssistantText(replyId, 'more'), /not a streaming reply/);
});

test('a stalled stream is still written by the flush timer', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const clock = { now: 1_000 };
  const { store, db } = memoryStore({ now: () => clock.now, flushIntervalMs: 200 });
  const { id } = store.createConversation();
  const replyId = store.beginAssistantMessage(id);
  store.appendAssistantText(replyId, 'a');
  clock.now += 50;
  store.appendAssistantText(replyId, 'b');
  const saved = () => db.prepare('SELECT content FROM messages WHERE id = ?').get(replyId)?.content;
  assert.equal(saved(), JSON.stringify(say('a')));
  clock.now += 150;
  t.mock.timers.tick(150);
  assert.equal(saved(), JSON.stringify(say('ab')));
});

test('text after a tool call goes into a new text block', () => {
  const { store } = memoryStore({ flushIntervalMs: 0 });
  const { id } = store.createConversation();
  const replyId = store.beginAssistantMessage(id);
  store.appendAssistantText(replyId, 'Let me check.');
  store.setAssistantContent(replyId, [{ type: 'text', text: 'Let me check.' }, { type: 'tool_use', id: 'toolu_1', name: 'x', input: {} }]);
  store.appendAssistantText(replyId, 'Done');
  store.finishAssistantMessage(replyId, { status: 'complete' });
  assert.deepEqual(store.loadMessages(id)[0]?.content.map((block) => block.type), ['text', 'tool_use', 'text']);
});

test('a streaming reply can be continued by another store instance', () => {
  const path = tempFile();
  const first = new HistoryStore(open(path), { flushIntervalMs: 0 });
  const { id } = first.createConversation();
  const replyId = first.beginAssistantMessage(id);
  first.appendAssistantText(replyId, 'one');
  const second = new HistoryStore(open(path), { flushIntervalMs: 0 });
  second.appendAssistantText(replyId, ' two');
  second.finishAssistantMessage(replyId, { status: 'complete' });
  assert.deepEqual(first.getMessage(replyId)?.content, say('one two'));
});

test('at startup, replies left streaming become incomplete; finished ones are untouched', () => {
  const path = tempFile();
  const crashed = new HistoryStore(open(path), { flushIntervalMs: 0 });
  const { id } = crashed.createConversation();
  crashed.appendUserMessage(id, say('hi'));
  const done = crashed.beginAssistantMessage(id);
  crashed.finishAssistantMessage(done, { status: 'complete' });
  crashed.appendUserMessage(id, say('again'));
  const cut = crashed.beginAssistantMessage(id);
  crashed.appendAssistantText(cut, 'half a rep');
  assert.throws(() => crashed.markInterruptedMessages(), /startup/);

  const restarted = new HistoryStore(open(path));
  assert.equal(restarted.markInterruptedMessages(), 1);
  assert.equal(restarted.markInterruptedMessages(), 0);
  assert.deepEqual(restarted.loadMessages(id).map((m) => m.status), ['complete', 'complete', 'complete', 'incomplete']);
  assert.deepEqual(restarted.getMessage(cut)?.content, say('half a rep'));
});

test('tool calls record their decision, timing and result, scoped to their conversation', () => {
  const { store, clock } = memoryStore();
  const a = store.createConversation();
  const b = store.createConversation();
  const replyA = store.beginAssistantMessage(a.id);
  const replyB = store.beginAssistantMessage(b.id);
  const call = { id: 'call_0', serverId: 'files', tool: 'read', modelName: 'files__read', arguments: { path: '/etc/hosts' } };
  const recorded = store.toolCalls.record({ ...call, conversationId: a.id, messageId: replyA });
  assert.deepEqual(recorded, { ...call, conversationId: a.id, messageId: replyA, status: 'pending', isError: false, createdAt: 1_000 });
  // Local models reuse ids like "call_0"; another conversation may use the same one.
  store.toolCalls.record({ ...call, conversationId: b.id, messageId: replyB, status: 'denied', decision: 'deny', decidedBy: 'person' });
  assert.throws(() => store.toolCalls.record({ ...call, conversationId: a.id, messageId: replyA }));

  clock.now += 5;
  store.toolCalls.update(a.id, 'call_0', { decision: 'allow', decidedBy: 'policy:always' });
  clock.now += 5;
  assert.equal(store.toolCalls.update(a.id, 'call_0', { status: 'running' }).startedAt, 1_010);
  clock.now += 42;
  const finished = store.toolCalls.update(a.id, 'call_0', { status: 'done', result: { content: [{ type: 'text', text: '127.0.0.1 localhost' }] }, isError: false });
  assert.deepEqual(finished, {
    ...recorded,
    decision: 'allow',
    decidedBy: 'policy:always',
    status: 'done',
    result: { content: [{ type: 'text', text: '127.0.0.1 localhost' }] },
    startedAt: 1_010,
    finishedAt: 1_052,
    durationMs: 42,
  });
  assert.equal(store.toolCalls.list(b.id)[0]?.status, 'denied');
  assert.equal(store.toolCalls.list(a.id).length, 1);
  assert.throws(() => store.toolCalls.update(a.id, 'nope', { status: 'done' }), /no tool call/);
});

test('a tool call recorded only once it ended keeps when it started and how long it ran', () => {
  const { store, clock } = memoryStore();
  const { id } = store.createConversation();
  const reply = store.beginAssistantMessage(id);
  store.toolCalls.record({ conversationId: id, messageId: reply, id: 'call_slow', serverId: 'echo', tool: 'slow', modelName: 'echo__slow', arguments: {}, status: 'cancelled' });
  const ended = store.toolCalls.update(id, 'call_slow', { status: 'cancelled', isError: true, startedAt: clock.now - 1_500 });
  assert.equal(ended.startedAt, clock.now - 1_500);
  assert.equal(ended.finishedAt, clock.now);
  assert.equal(ended.durationMs, 1_500);
});

test("a tool call keeps the tool's output schema as it was when called; a call saved without it has none", () => {
  const { store } = memoryStore();
  const { id } = store.createConversation();
  const replyId = store.beginAssistantMessage(id);
  const call = { conversationId: id, messageId: replyId, serverId: 'w', tool: 'forecast', modelName: 'w__forecast', arguments: {} };
  const schema = { type: 'object', properties: { temperature: { type: 'number' } } };
  assert.deepEqual(store.toolCalls.record({ ...call, id: 'declared', outputSchema: { declared: true, schema } }).outputSchema, { declared: true, schema });
  assert.deepEqual(store.toolCalls.record({ ...call, id: 'none', outputSchema: { declared: false } }).outputSchema, { declared: false });
  assert.equal(store.toolCalls.record({ ...call, id: 'older' }).outputSchema, undefined);
});

test('pending requests are settled once, withdrawn per server, and closed at startup', () => {
  const { store, clock } = memoryStore();
  const { id } = store.createConversation();
  const sampling = store.requests.record({ conversationId: id, serverId: 'a', kind: 'sampling', payload: { messages: [] } });
  assert.deepEqual(sampling, { id: sampling.id, conversationId: id, serverId: 'a', kind: 'sampling', payload: { messages: [] }, status: 'open', createdAt: 1_000 });
  const elicit = store.requests.record({ id: 'req-2', serverId: 'a', kind: 'elicitation', payload: { message: 'name?' } });
  const other = store.requests.record({ serverId: 'b', kind: 'tool_approval', payload: {} });
  assert.equal(elicit.conversationId, undefined);

  clock.now += 7;
  assert.equal(store.requests.settle(sampling.id, { action: 'approve' }), true);
  assert.equal(store.requests.settle(sampling.id, { action: 'deny' }), false, 'a settled request stays as it was settled');
  assert.deepEqual(store.requests.get(sampling.id)?.outcome, { action: 'approve' });
  assert.equal(store.requests.get(sampling.id)?.settledAt, 1_007);

  assert.equal(store.requests.withdrawForServer('a'), 1);
  assert.equal(store.requests.get('req-2')?.status, 'withdrawn');
  assert.equal(store.requests.settle('req-2', {}), false);
  assert.deepEqual(store.requests.listOpen().map((r) => r.id), [other.id]);

  const replyId = store.beginAssistantMessage(id);
  store.toolCalls.record({ conversationId: id, messageId: replyId, id: 't1', serverId: 'b', tool: 't', modelName: 'b__t', arguments: {} });
  store.toolCalls.update(id, 't1', { status: 'running' });
  store.toolCalls.record({ conversationId: id, messageId: replyId, id: 't2', serverId: 'b', tool: 't', modelName: 'b__t', arguments: {}, status: 'done' });
  assert.deepEqual(store.closeInterruptedWork(), { toolCalls: 1, requests: 1 });
  assert.deepEqual(store.toolCalls.list(id).map((call) => call.status), ['cancelled', 'done']);
  assert.deepEqual(store.requests.listOpen(), []);
});

test('migrations run once: reopening a file keeps its data', () => {
  const path = tempFile();
  const store = new HistoryStore(open(path));
  const { id } = store.createConversation({ title: 'kept' });
  const again = new HistoryStore(open(path));
  assert.equal(again.getConversation(id)?.title, 'kept');
});

test('a reply is finished once; a finished reply takes no more text', () => {
  const { store } = memoryStore();
  const { id } = store.createConversation();
  const replyId = store.beginAssistantMessage(id);
  store.finishAssistantMessage(replyId, { status: 'incomplete' });
  assert.throws(() => store.finishAssistantMessage(replyId, { status: 'complete' }), /not a streaming reply/);
  assert.throws(() => store.setAssistantContent(replyId, say('late')), /not a streaming reply/);
  assert.equal(store.getMessage(replyId)?.status, 'incomplete');
  const user = store.appendUserMessage(id, say('hi'));
  assert.throws(() => store.finishAssistantMessage(user.id, { status: 'error' }), /not a streaming reply/);
});

test('finishing with the final content replaces the buffered text in the same statement', () => {
  const { store } = memoryStore({ flushIntervalMs: 60_000 });
  const { id } = store.createConversation();
  const replyId = store.beginAssistantMessage(id);
  store.appendAssistantText(replyId, 'Checking');
  store.appendAssistantText(replyId, ' now');
  const final: ChatContent[] = [{ type: 'text', text: 'Checking now' }, { type: 'tool_use', id: 'toolu_9', name: 'x', input: {} }];
  store.finishAssistantMessage(replyId, { status: 'complete', content: final });
  assert.deepEqual(store.getMessage(replyId)?.content, final);
  assert.deepEqual(store.loadMessages(id)[0]?.content, final);
});

test('Retry replaces what came after the person’s last message (replies and tool results), and nothing when they wrote nothing', () => {
  const { store, clock } = memoryStore();
  const { id } = store.createConversation({ title: 't' });
  assert.equal(store.replaceRepliesToLastMessage(id), undefined, 'nothing written: nothing to answer again');
  store.appendUserMessage(id, say('first'));
  const answered = store.beginAssistantMessage(id);
  store.finishAssistantMessage(answered, { status: 'complete', content: say('first answer') });
  store.appendUserMessage(id, say('second'));
  const step = store.beginAssistantMessage(id);
  store.finishAssistantMessage(step, { status: 'complete', content: [{ type: 'tool_use', id: 'call-1', name: 'x', input: {} }] });
  store.appendUserMessage(id, [{ type: 'tool_result', toolUseId: 'call-1', content: [{ type: 'text', text: 'ok' }] }]);
  const failed = store.beginAssistantMessage(id);
  store.finishAssistantMessage(failed, { status: 'error', error: 'down' });
  clock.now = 2_000;

  assert.equal(store.replaceRepliesToLastMessage(id), 3);
  const marks = store.loadMessages(id).map((m) => [typedOf(m.content), m.replacedAt ?? null]);
  assert.deepEqual(marks, [
    ['first', null],
    ['first answer', null],
    ['second', null],
    ['tool_use', 2_000],
    ['tool_result', 2_000],
    ['', 2_000],
  ]);
  assert.equal(store.replaceRepliesToLastMessage(id), 0, 'a second Retry before any reply replaces nothing more');
});

function typedOf(content: ChatContent[]): string {
  return content.map((block) => (block.type === 'text' ? block.text : block.type)).join('');
}
