// What a screen reader gives a person who cannot see the window: a reply that streams in silently is said
// to have come, and each view's headings run in order (a view is found by its heading, a level never
// skipped), as a list of headings shows them.
import type { Page } from '@playwright/test';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

const env = chatHostFor([{ text: 'Quokkas live on Rottnest Island, off **Perth**.' }, { text: 'They eat leaves.' }, { text: 'On Rottnest.' }], {
  echo: fixtureCommand('echoServer'),
  views: fixtureCommand('appViewServer'),
});

/** The page's headings as a screen reader lists them: level and name, in document order. */
async function headings(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    type Heading = { tagName: string; textContent: string | null };
    const doc = (globalThis as unknown as { document: { querySelectorAll(selector: string): Iterable<Heading> } }).document;
    return [...doc.querySelectorAll('h1, h2, h3, h4')].map((heading) => `${heading.tagName.toLowerCase()} ${heading.textContent?.trim() ?? ''}`);
  });
}

/** Where a heading comes more than one level below the one before it (h1 then h3). */
function skippedLevels(list: readonly string[]): string[] {
  const levels = list.map((entry) => Number(entry[1]));
  return list.filter((entry, index) => index > 0 && (levels[index] ?? 0) > (levels[index - 1] ?? 0) + 1);
}

test('a reply is said once it has come, and only a new one', async ({ page }) => {
  await openApp(page, env().host, ['echo', 'views']);
  const said = page.locator('.conversation-pane [role="status"].visually-hidden');
  await sendMessage(page, 'where do quokkas live?');
  await expect(said).toHaveText(/^The model replied\.\s?$/);
  const first = await said.textContent();
  await sendMessage(page, 'what do they eat?');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('They eat leaves.');
  await expect.poll(() => said.textContent(), { message: 'the second reply is said too: its cue is new text' }).not.toBe(first);
  await expect(said).toHaveText(/^The model replied\.\s?$/);
  // Opened again, a conversation's replies are not news.
  await page.keyboard.press('Control+Shift+O');
  await page.getByRole('button', { name: 'where do quokkas live?', exact: true }).click();
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('They eat leaves.');
  await expect(said).toHaveText('');
});

test('each view has a heading, and headings never skip a level', async ({ page }) => {
  await openApp(page, env().host, ['echo', 'views']);
  await sendMessage(page, 'where do quokkas live?');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Rottnest');
  const chat = await headings(page);
  expect(chat.slice(0, 4)).toEqual(['h1 Atrium', 'h2 Conversations', 'h3 Today', 'h2 where do quokkas live?']);
  expect(skippedLevels(chat), `Chat: ${chat.join(' · ')}`).toEqual([]);

  await page.getByRole('button', { name: 'Servers' }).click();
  await expect(page.getByRole('article', { name: 'echo', exact: true })).toBeVisible();
  const servers = await headings(page);
  expect(servers.slice(0, 4)).toEqual(['h1 Atrium', 'h2 Servers', 'h3 echo', 'h3 views']);
  expect(skippedLevels(servers), `Servers: ${servers.join(' · ')}`).toEqual([]);

  await page.getByRole('button', { name: 'Resources' }).click();
  await expect(page.getByRole('navigation', { name: 'Resources' })).toBeVisible();
  const resources = await headings(page);
  expect(resources.slice(0, 2)).toEqual(['h1 Atrium', 'h2 Resources']);
  expect(skippedLevels(resources), `Resources: ${resources.join(' · ')}`).toEqual([]);
});

test('the first Tab of a page offers a way past the views and the conversations to the message box', async ({ page }) => {
  await openApp(page, env().host, ['echo', 'views']);
  await page.getByRole('button', { name: 'Servers' }).click();
  // From the top of the page, as after a load: nothing has the keyboard.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Servers' })).toHaveAttribute('aria-current', 'page');
  await page.keyboard.press('Tab');
  const skip = page.getByRole('button', { name: 'Skip to the message box' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.screenshot({ path: 'e2e/artifacts/skip-link.png' });
  await page.keyboard.press('Enter');
  await expect(page.getByRole('textbox', { name: 'Message' })).toBeFocused();
});
