// MCP Apps: a view follows its call from the moment the model starts writing it (issue 16). While the
// model streams the arguments and while the person decides, the view is shown and usable but told nothing
// of them (hardening issue: it could send them out before a Deny); once the call is allowed it gets the
// whole arguments, then the result — all in the same view, which keeps what the person did in it, also when
// the reply is saved and the conversation goes on.
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { holdStream } from './fixtures/llm/streamHold.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';
import { approve, viewOf } from './fixtures/appViews.ts';

const hold = holdStream('{"title":"Quarterly sales","numbers":[1,');
const env = chatHostFor(
  [{ toolCalls: [{ name: 'views__show_chart', input: { title: 'Quarterly sales', numbers: [1, 2, 3] } }], hold }, { text: 'Here is your chart.' }],
  { views: { ...fixtureCommand('appViewServer'), trusted: true } },
);

test('a view shows while the model writes its call, learns nothing of it until it is allowed, and the same view gets the whole call and its result', async ({ page }) => {
  test.setTimeout(90_000);
  await openApp(page, env().host, ['views']);
  await sendMessage(page, 'chart my quarterly sales');

  const card = page.getByRole('article', { name: 'Tool call views/show_chart' });
  const view = viewOf(page, 'show_chart');
  await test.step('while the model writes: the view is up, and hears none of the arguments', async () => {
    await expect(card.getByRole('status')).toHaveText('The model is writing its arguments');
    await expect(card.getByText('"Quarterly sales"'), 'the card shows them as they come').toBeAttached();
    await view.getByRole('button', { name: 'Count' }).click();
    await expect(view.getByText('Clicks: 1')).toBeVisible();
    // The page's messages reach the view in order: once it has the theme sent now, it has all sent before.
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(view.getByText('Theme: dark')).toBeVisible();
    await expect(view.getByText(/^Partial:/)).toHaveCount(0);
    await expect(view.getByText('No input yet')).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/app-view-streaming.png' });
  });

  await test.step('while the person decides, still nothing', async () => {
    hold.release();
    await expect(page.getByRole('dialog', { name: 'Run show_chart?' })).toBeVisible();
    await page.emulateMedia({ colorScheme: 'light' });
    await expect(view.getByText('Theme: light')).toBeVisible();
    await expect(view.getByText('No input yet')).toBeVisible();
  });

  await test.step('once allowed, the whole call and its result reach the same view', async () => {
    await approve(page, 'show_chart', 'Allow once');
    await expect(view.getByText('Input: {"title":"Quarterly sales","numbers":[1,2,3]}')).toBeVisible();
    await expect(view.getByText('Result: A chart of 3 numbers.')).toBeVisible();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Here is your chart.');
    // Not made again when the reply was saved: what the person did in it is still there.
    await expect(view.getByText('Clicks: 1')).toBeVisible();
  });
});
