// A view whose page does not come the first time (its server busy, restarting, or slow past the time
// limit) says why in its card and offers Try again, which reads the page once more: the person is not left
// with a dead card for the rest of the conversation.
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';
import { approve, viewOf } from './fixtures/appViews.ts';

const env = chatHostFor([{ toolCalls: [{ name: 'views__show_chart', input: { numbers: [4, 5] } }] }, { text: 'Here is your chart.' }], {
  views: fixtureCommand('appViewServer', ['--view-fails-once']),
});

test('a view that could not be read says why, and Try again shows it', async ({ page }) => {
  await openApp(page, env().host, ['views']);
  await sendMessage(page, 'chart 4 and 5');
  await approve(page, 'show_chart', 'Allow once');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Here is your chart.');

  const card = page.getByRole('article').filter({ has: page.getByRole('button', { name: 'Try again' }) });
  await expect(card.getByRole('alert')).toHaveText(/^The view could not be shown: .*the chart is still being drawn/);
  await page.screenshot({ path: 'e2e/artifacts/app-view-try-again.png' });
  await card.getByRole('button', { name: 'Try again' }).click();

  const offer = page.getByRole('region', { name: 'View of views/show_chart, not shown yet' });
  await offer.getByRole('button', { name: 'Show view', exact: true }).click();
  await expect(viewOf(page, 'show_chart').getByText('Input: {"numbers":[4,5]}')).toBeVisible();
  await expect(page.getByText('The view could not be shown')).toHaveCount(0);
});
