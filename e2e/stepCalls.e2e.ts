// The calls of one model step run one after another (what one brings in is weighed before the next is
// decided): a call behind another shows as waiting from the start, not only once its turn comes.
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';
import { approve } from './fixtures/appViews.ts';

const env = chatHostFor([{ toolCalls: [{ name: 'echo__add', input: { a: 1, b: 2 } }, { name: 'echo__echo', input: { text: 'after it' } }] }, { text: 'Both ran.' }], { echo: fixtureCommand('echoServer') });

test('a call behind another of its step is shown waiting while the first is asked, then runs', async ({ page }) => {
  await openApp(page, env().host, ['echo']);
  await sendMessage(page, 'add, then echo');
  await expect(page.getByRole('dialog', { name: 'Run add?' })).toBeVisible();
  const second = page.getByRole('article', { name: 'Tool call echo/echo' });
  await expect(second.getByRole('status')).toHaveText('Waiting for its turn');
  // In the order the model wrote them: the one asked first, then the one behind it.
  expect(await page.getByRole('article', { name: /^Tool call / }).evaluateAll((cards) => cards.map((card) => card.getAttribute('aria-label')))).toEqual(['Tool call echo/add', 'Tool call echo/echo']);
  await page.screenshot({ path: 'e2e/artifacts/step-call-waiting.png' });
  await approve(page, 'add', 'Allow once');
  await approve(page, 'echo', 'Allow once');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Both ran.');
  await expect(second.getByRole('status')).toHaveText(/^Done/);
});
