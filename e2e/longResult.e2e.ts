// A tool result of megabytes froze the window for seconds while it laid the text out, and the card did
// not say the model is given only its start. The card shows the start, how much there is, Show all and
// Copy all; past what the model is given in one piece, it says so.
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';
import { approve } from './fixtures/appViews.ts';

const LONG = `${'quokka '.repeat(17_142)}end.`;

const env = chatHostFor([{ toolCalls: [{ name: 'echo__echo', input: { text: LONG } }] }, { text: 'That was long.' }], { echo: fixtureCommand('echoServer') });

test('a long result shows its start, how long it is, and Show all; the model being given its start is said', async ({ page }) => {
  await openApp(page, env().host, ['echo']);
  await sendMessage(page, 'echo something long');
  await approve(page, 'echo', 'Allow once');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('That was long.');
  const result = page.getByRole('article', { name: 'Tool call echo/echo' }).locator('.tool-result');
  const text = result.locator('.tool-result-text');
  await expect(text).toHaveText(LONG.slice(0, 20_000));
  await expect(result).toContainText(`The first 20,000 of ${LONG.length.toLocaleString('en')} characters. The model is given its start and reads the rest only if it asks for it.`);
  await expect(result.getByRole('button', { name: 'Copy all' })).toBeVisible();
  await page.screenshot({ path: 'e2e/artifacts/long-result.png' });
  await result.getByRole('button', { name: 'Show all' }).click();
  await expect(result).toContainText(`All ${LONG.length.toLocaleString('en')} characters shown.`);
  expect(await text.evaluate((element) => (element.textContent ?? '').length)).toBe(LONG.length);
});
