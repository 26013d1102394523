// A conversation of 5,000 messages, saved by the real history store, opened in the browser: it opens at
// its latest message, keeps only the rows near the view in the page, and scrolls back to its first
// message with every row in its own place and the code highlighted once the scroll stops. (How fast:
// bench/rendererBench.ts.)
import { join } from 'node:path';
import type { HostProcess } from './fixtures/hostProcess.ts';
import { expect, startHostProcess, test } from './fixtures/hostProcess.ts';
import { openDatabase } from '../main/store/database.ts';
import { HistoryStore, historyMigrations } from '../main/store/historyStore.ts';

const MESSAGES = 5_000;
const OLDER_CONVERSATIONS = 80;
const LONGER_TITLE = 'Tomatoes for a sunny balcony';
let host: HostProcess;
let stopHost: () => Promise<unknown>;

test.beforeAll(async () => {
  const started = await startHostProcess({
    mcpServers: {},
    seed: (home) => {
      const db = openDatabase(join(home, 'atrium.db'), historyMigrations);
      const store = new HistoryStore(db);
      // A title longer than the room Rename and Delete used to leave it, shorter than the row.
      const titled = store.createConversation({ title: LONGER_TITLE });
      store.appendUserMessage(titled.id, [{ type: 'text', text: 'Which tomatoes like a balcony?' }]);
      // A history of many conversations: the list is longer than the window. The older ones were last
      // written in months ago.
      const monthsAgo = new HistoryStore(db, { now: () => Date.now() - 90 * 24 * 60 * 60 * 1000 });
      for (let i = 0; i < OLDER_CONVERSATIONS; i++) {
        const older = monthsAgo.createConversation({ title: `Older conversation ${i}` });
        monthsAgo.appendUserMessage(older.id, [{ type: 'text', text: `An older question ${i}` }]);
      }
      monthsAgo.close();
      const { id } = store.createConversation({ title: 'Five thousand messages' });
      for (let i = 0; i < MESSAGES / 2; i++) {
        store.appendUserMessage(id, [{ type: 'text', text: `Question number ${i}` }]);
        const code = i % 10 === 0 ? `\n\n\`\`\`ts\nconst answer = ${i};\n\`\`\`` : '';
        store.finishAssistantMessage(store.beginAssistantMessage(id), { status: 'complete', content: [{ type: 'text', text: `Answer number ${i}, in **Markdown**.${code}` }] });
      }
      store.close();
      db.close();
    },
  });
  host = started.host;
  stopHost = started.stop;
});

test.afterAll(async () => {
  await stopHost?.();
});

test('a 5,000-message conversation opens at its end, renders only what is near the view, and scrolls to its start, each row in its place', async ({ page }) => {
  await page.goto(host.url);
  await page.getByRole('button', { name: 'Five thousand messages', exact: true }).click();
  const messages = page.getByRole('list', { name: 'Messages' });
  await expect(messages.getByText(`Answer number ${MESSAGES / 2 - 1}, in`)).toBeVisible();
  const rendered = await messages.getByRole('listitem').count();
  expect(rendered, 'only the rows near the view are in the page').toBeLessThan(60);
  await page.locator('.conversation-scroll').evaluate((element) => {
    (element as unknown as { scrollTop: number }).scrollTop = 0;
  });
  await expect(messages.getByText('Question number 0', { exact: true })).toBeVisible();
  await expect(messages.getByText('Answer number 0, in')).toBeVisible();

  // Rows are measured as they scroll in and placed by the virtualizer: none may sit on another.
  const boxes = await messages.locator(':scope > li').evaluateAll((rows) =>
    rows.map((row) => {
      const box = (row as unknown as { getBoundingClientRect(): { top: number; bottom: number } }).getBoundingClientRect();
      return { index: Number(row.getAttribute('data-index')), top: box.top, bottom: box.bottom };
    }),
  );
  boxes.sort((a, b) => a.index - b.index);
  expect(boxes[0]?.index, 'the first message is the first row').toBe(0);
  for (const [at, row] of boxes.entries()) {
    const previous = boxes[at - 1];
    if (previous) expect(row.top, `row ${row.index} starts below row ${previous.index}`).toBeGreaterThanOrEqual(previous.bottom - 0.5);
  }
  // Highlighting waits until the scroll has stopped, then colours the code in view.
  await expect(messages.locator('code .hljs-keyword').first(), 'the code in view is highlighted').toHaveText('const');
  await page.screenshot({ path: 'e2e/artifacts/long-conversation-start.png' });
});

test('a long list of conversations scrolls beneath New conversation and the search, which stay in reach', async ({ page }) => {
  await page.goto(host.url);
  const list = page.getByRole('navigation', { name: 'Conversations' });
  // Under the span each was last written in, newest first.
  await expect(list.getByRole('heading')).toHaveText(['Conversations', 'Today', 'Older']);
  await expect(list.getByRole('region', { name: 'Today' }).getByRole('button', { name: 'Five thousand messages', exact: true })).toBeVisible();
  await expect(list.getByRole('region', { name: 'Older' }).locator('.conversation-open')).toHaveCount(OLDER_CONVERSATIONS);
  const oldest = list.getByRole('button', { name: 'Older conversation 0', exact: true });
  await oldest.scrollIntoViewIfNeeded();
  await expect(oldest).toBeInViewport();
  await expect(list.getByRole('button', { name: 'New conversation' }), 'New conversation stays in the window').toBeInViewport();
  await expect(list.getByRole('searchbox', { name: 'Search conversations' }), 'and so does the search').toBeInViewport();
  await page.screenshot({ path: 'e2e/artifacts/conversations-long-list.png' });
  await oldest.click();
  await expect(page.getByRole('list', { name: 'Messages' })).toContainText('An older question 0');
});

test('each title has its row’s width, Rename and Delete showing on the row pointed at', async ({ page }) => {
  await page.goto(host.url);
  const list = page.getByRole('navigation', { name: 'Conversations' });
  const open = list.getByRole('button', { name: LONGER_TITLE, exact: true });
  const row = list.getByRole('listitem').filter({ has: page.getByRole('button', { name: LONGER_TITLE, exact: true }) });
  const actions = row.locator('.conversation-actions');
  await open.scrollIntoViewIfNeeded();
  await page.mouse.move(900, 500);
  // The element that cuts the title with … (the row's button itself, before titles had the row's width).
  const title = () =>
    open.evaluate((button) => {
      const element = (button.querySelector('.conversation-title') ?? button) as unknown as { scrollWidth: number; clientWidth: number };
      return { needs: element.scrollWidth, has: element.clientWidth };
    });
  const idle = await title();
  expect(idle.needs, 'the title is longer than the room Rename and Delete took (the row less 64 px)').toBeGreaterThan(idle.has - 64);
  expect(idle.needs, 'and is whole').toBeLessThanOrEqual(idle.has);
  await expect(actions, 'Rename and Delete are out of the way').toHaveCSS('opacity', '0');
  await expect(open, 'the whole title is its tooltip').toHaveAttribute('title', LONGER_TITLE);
  await open.hover();
  await expect(actions).toHaveCSS('opacity', '1');
  await expect(row.getByRole('button', { name: `Rename ${LONGER_TITLE}` })).toBeVisible();
  await page.screenshot({ path: 'e2e/artifacts/conversations-row-pointed-at.png' });
});

test('a search finds a conversation by what was said, shows where, and opens it at that message', async ({ page }) => {
  await page.goto(host.url);
  const list = page.getByRole('navigation', { name: 'Conversations' });
  await list.getByRole('searchbox', { name: 'Search conversations' }).fill('NUMBER 17,');
  const found = list.locator('.conversation-open');
  await expect(found).toHaveCount(1);
  await expect(found.locator('.conversation-title')).toHaveText('Five thousand messages');
  await expect(found.locator('.conversation-excerpt'), 'the words around the first place it was said').toHaveText('Answer number 17, in **Markdown**.');
  await expect(found.locator('mark'), 'the words searched for are marked').toHaveText('number 17,');
  await page.screenshot({ path: 'e2e/artifacts/conversations-search-excerpt.png' });
  await found.click();
  const messages = page.getByRole('list', { name: 'Messages' });
  const foundMessage = messages.getByRole('listitem', { name: 'Assistant, found by your search' });
  await expect(foundMessage, 'it opens at that message, marked').toBeInViewport();
  await expect(foundMessage).toContainText('Answer number 17, in');
  await expect(messages.getByText(`Answer number ${MESSAGES / 2 - 1}, in`), 'not at its latest').not.toBeInViewport();
  await page.screenshot({ path: 'e2e/artifacts/conversation-opened-at-found-message.png' });
});
