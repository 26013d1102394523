// The history's search, as the conversations list and `atrium history --search` ask it: what it matches,
// and the few words it shows of a conversation found in what was said.
import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatContent } from '../../shared/conversation.ts';
import { openDatabase } from './database.ts';
import { HistoryStore, historyMigrations } from './historyStore.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

function memoryStore() {
  const db = openDatabase(':memory:', historyMigrations);
  cleanups.push(() => db.close());
  const store = new HistoryStore(db);
  cleanups.push(() => store.close());
  return { db, store };
}

const say = (text: string): ChatContent[] => [{ type: 'text', text }];

test('search matches titles and message text as a literal, case-insensitive substring', () => {
  const { store } = memoryStore();
  const byTitle = store.createConversation({ title: 'Quarterly report' });
  const byText = store.createConversation({ title: 'Other' });
  store.appendUserMessage(byText.id, say('Please summarise the QUARTERLY numbers: 100% done'));
  const byImage = store.createConversation({ title: 'Pictures' });
  store.appendUserMessage(byImage.id, [{ type: 'image', mimeType: 'image/png', data: 'quarterly' }]);
  const byTool = store.createConversation({ title: 'Tools' });
  const replyId = store.beginAssistantMessage(byTool.id);
  store.setAssistantContent(replyId, [{ type: 'tool_use', id: 't', name: 'x', input: { q: 'quarterly' } }]);
  store.finishAssistantMessage(replyId, { status: 'complete' });

  assert.deepEqual(new Set(store.listConversations({ search: 'quarterly' }).map((c) => c.id)), new Set([byTitle.id, byText.id]));
  assert.deepEqual(store.listConversations({ search: '100%' }).map((c) => c.id), [byText.id]);
  assert.deepEqual(store.listConversations({ search: '0%d' }), [], '% is not a wildcard');
  assert.deepEqual(store.listConversations({ search: 'Q_ARTERLY' }), [], '_ is not a wildcard');
  assert.equal(store.listConversations({ search: '  ' }).length, 4, 'a blank search lists everything');
});

test('a conversation found in what was said carries a few words around the first match, cut at whole words', () => {
  const { store } = memoryStore();
  const titled = store.createConversation({ title: 'Tomato plans' });
  store.appendUserMessage(titled.id, say('nothing to find here'));
  const both = store.createConversation({ title: 'Mulch or not' });
  store.appendUserMessage(both.id, say('Mulch or not?'));
  const garden = store.createConversation({ title: 'Garden' });
  const before = 'Water early in the morning, deeply, at the base of the plant, and check the soil every day.';
  const after = 'It keeps the soil cool and moist for longer, and a saucer under each pot catches what runs through, so nothing is wasted at all.';
  store.appendUserMessage(garden.id, say(`${before}\n\nA layer of MULCH helps. ${after}`));
  store.appendUserMessage(garden.id, say('mulch again, later'));
  const short = store.createConversation({ title: 'Short' });
  store.appendUserMessage(short.id, say('Mulch.'));

  const found = new Map(store.listConversations({ search: 'mulch' }).map((c) => [c.title, c.excerpt]));
  assert.equal(found.get('Short'), 'Mulch.', 'a message shorter than the window is whole, without …');
  const excerpt = found.get('Garden') ?? '';
  assert.match(excerpt, /^…[a-z]+ .* A layer of MULCH helps\. It keeps .*[a-z]…$/, 'the first message holding it, whitespace made single spaces');
  assert.ok(!excerpt.includes('again'), 'the first message in the order they were written');
  assert.ok(before.includes(excerpt.slice(1, excerpt.indexOf(' A layer'))), 'the cut at the start drops a broken word, no more');
  assert.ok(after.includes(excerpt.slice(excerpt.indexOf('It keeps'), -1)), 'the cut at the end drops a broken word, no more');
  assert.ok(excerpt.length < 180, `a few words, not the message: ${excerpt.length} characters`);
  assert.ok(!found.has('Tomato plans'));
  assert.ok(found.has('Mulch or not') && found.get('Mulch or not') === undefined, 'a title that says it needs no excerpt');
  assert.equal(store.listConversations({ search: 'tomato' })[0]?.excerpt, undefined, 'a title match needs no excerpt');
  assert.equal(store.listConversations({})[0]?.excerpt, undefined, 'nor does a listing without a search');
});
