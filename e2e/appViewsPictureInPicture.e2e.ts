// MCP Apps: a view asks to be shown picture-in-picture (issue 16), and the person says yes. It floats in
// the chat's corner and stays there, alive (what the person did in it is kept), while the conversation goes
// on and scrolls under it; a second view asking to float takes its place; the person puts it back in its card.
import type { Page } from '@playwright/test';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';
import { approve, viewOf } from './fixtures/appViews.ts';

const longReply = (topic: string) => Array.from({ length: 60 }, (_, i) => `${topic}, paragraph ${i + 1}.`).join('\n\n');

const env = chatHostFor(
  [
    { toolCalls: [{ name: 'views__show_chart', input: { numbers: [1, 2, 3] } }] },
    { text: longReply('About the chart') },
    { text: longReply('More about it') },
  ],
  { views: { ...fixtureCommand('appViewServer'), trusted: true } },
);

async function frameBox(page: Page) {
  return (await page.locator('iframe[title="View of views/show_chart"]').boundingBox()) ?? { x: -1, y: -1, width: 0, height: 0 };
}

test('a view floats picture-in-picture while the conversation scrolls under it, keeps what the person did, and goes back into its card', async ({ page }) => {
  test.setTimeout(90_000);
  await openApp(page, env().host, ['views']);
  await sendMessage(page, 'show me a chart of 1, 2 and 3');
  await approve(page, 'show_chart', 'Allow once');
  const view = viewOf(page, 'show_chart');
  await expect(view.getByText('Result: A chart of 3 numbers.')).toBeVisible();
  // The reply after the view streams on; the chat follows it to its end (a person's wheel would stop that,
  // a script's scroll does not), so the view is used once the reply is over.
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('About the chart, paragraph 60.');
  await view.getByRole('button', { name: 'Count' }).click();
  await expect(view.getByText('Clicks: 1')).toBeVisible();

  await view.getByRole('button', { name: 'Float' }).click();
  await page.getByRole('group', { name: 'Display request from the view' }).getByRole('button', { name: 'Float it' }).click();
  await expect(view.getByText('Mode: pip')).toBeVisible();
  await expect(page.getByText('Shown picture-in-picture, in the corner of the chat.')).toBeVisible();
  // The window is 1280 × 800: a small window at its right.
  await expect.poll(async () => (await frameBox(page)).width, { message: 'a small window' }).toBeLessThan(440);
  expect((await frameBox(page)).x).toBeGreaterThan(800);

  await test.step('the conversation goes on and scrolls under it; the view stays, alive', async () => {
    await sendMessage(page, 'tell me more');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('More about it, paragraph 60.');
    const messages = page.getByRole('list', { name: 'Messages' });
    await messages.evaluate((list) => list.parentElement?.scrollTo({ top: list.parentElement.scrollHeight }));
    await page.mouse.wheel(0, 4000);
    const box = await frameBox(page);
    expect(box.x, 'still in the corner').toBeGreaterThan(800);
    expect(box.y + box.height, 'still within the window').toBeLessThan(800);
    // The same view, not a new one: what the person did in it is still there.
    await view.getByRole('button', { name: 'Count' }).click();
    await expect(view.getByText('Clicks: 2')).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/app-view-pip.png' });
  });

  await test.step('the person puts it back in its card', async () => {
    // One action, one name: the card's button and the floating frame's say the same.
    await expect(page.getByRole('button', { name: 'Back in the card' })).toHaveCount(2);
    await page.getByRole('toolbar', { name: 'Atrium’s frame around the view' }).getByRole('button', { name: 'Back in the card' }).click();
    await page.getByRole('list', { name: 'Messages' }).evaluate((list) => list.parentElement?.scrollTo({ top: 0 }));
    await expect(view.getByText('Mode: inline')).toBeVisible();
    await expect(page.getByText('Shown picture-in-picture, in the corner of the chat.')).toHaveCount(0);
    await expect.poll(async () => (await frameBox(page)).width, { message: 'as wide as its card again' }).toBeGreaterThan(600);
  });
});
