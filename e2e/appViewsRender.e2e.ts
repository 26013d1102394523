// MCP Apps views in the chat (issue 16), against the app-view fixture server, not trusted: a view is
// offered before it is shown (what it is, what it may reach), then runs in the view sandbox — another
// origin, scripts only — gets the call's input and result, resizes, follows the theme; its tool call goes
// through the approval dialog (denied, then allowed), its message is sent only after the person says so,
// and a reopened conversation shows it again from what was saved. appViewsHostile.e2e.ts has the view
// that tries everything a view must not do.
import { readFile } from 'node:fs/promises';
import { chatHostFor, lastModelRequest, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';
import { approve, viewOf } from './fixtures/appViews.ts';

const env = chatHostFor(
  [
    { toolCalls: [{ name: 'views__show_chart', input: { numbers: [1, 2, 3] } }] },
    { text: 'Here is your chart.' },
    { text: 'They add up to six.' },
  ],
  { views: fixtureCommand('appViewServer'), echo: fixtureCommand('echoServer') },
);


test('a view is offered, then shown in the sandbox: input, result, size, theme; its tool call asks, its message waits for the person, and it comes back after a reload', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page, env().host, ['views', 'echo']);
  await page.getByRole('button', { name: 'Servers' }).click();
  // This server speaks the 2026-07-28 revision; the npm examples of appViewsExamples.e2e.ts the 2025 era.
  await expect(page.getByRole('article', { name: 'views', exact: true })).toContainText('MCP 2026-07-28');
  await sendMessage(page, 'show me a chart of 1, 2 and 3');
  await approve(page, 'show_chart', 'Allow once');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Here is your chart.');

  const offer = page.getByRole('region', { name: 'View of views/show_chart, not shown yet' });
  await expect(offer).toContainText('ui://charts/view.html');
  await expect(offer).toContainText('it can reach nothing outside itself');
  await page.screenshot({ path: 'e2e/artifacts/app-view-offer.png' });
  await offer.getByRole('button', { name: 'Show view', exact: true }).click();

  const view = viewOf(page, 'show_chart');
  await test.step('the view gets the call’s input and result, and the theme', async () => {
    await expect(view.getByText('Input: {"numbers":[1,2,3]}')).toBeVisible();
    await expect(view.getByText('Result: A chart of 3 numbers.')).toBeVisible();
    await expect(view.getByText('Theme: light')).toBeVisible();
    // Atrium's own colours, as the extension's style variables: its surface in each theme.
    await expect(view.getByText('Background: rgb(255, 255, 255)')).toBeVisible();
    await page.emulateMedia({ colorScheme: 'dark' });
    await expect(view.getByText('Theme: dark')).toBeVisible();
    await expect(view.getByText('Background: rgb(23, 27, 33)')).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/app-view-dark.png' });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  await test.step('it is sized to its content', async () => {
    const frame = page.locator('iframe[title="View of views/show_chart"]');
    const before = (await frame.boundingBox())?.height ?? 0;
    await view.getByRole('button', { name: 'Grow' }).click();
    await expect.poll(async () => (await frame.boundingBox())?.height ?? 0, { message: 'the frame grew with its content' }).toBeGreaterThan(before + 400);
    await page.screenshot({ path: 'e2e/artifacts/app-view-shown.png' });
  });

  await test.step('it may go full screen when the person says yes, and the person brings it back', async () => {
    const frame = page.locator('iframe[title="View of views/show_chart"]');
    const inline = (await frame.boundingBox())?.height ?? 0;
    await view.getByRole('button', { name: 'Full screen' }).click();
    await page.getByRole('group', { name: 'Display request from the view' }).getByRole('button', { name: 'Show full screen' }).click();
    await expect(view.getByText('Mode: fullscreen')).toBeVisible();
    const box = async () => (await frame.boundingBox()) ?? { x: -1, y: -1, width: 0, height: 0 };
    // The window is 1280 × 800: the view covers it but for its bar.
    await expect.poll(async () => (await box()).width, { message: 'the view spans the window' }).toBeGreaterThan(1200);
    await expect.poll(async () => (await box()).height, { message: 'the view fills the window' }).toBeGreaterThan(700);
    await page.screenshot({ path: 'e2e/artifacts/app-view-fullscreen.png' });
    await page.getByRole('button', { name: 'Exit full screen' }).click();
    await expect.poll(async () => (await box()).width, { message: 'back in its card' }).toBeLessThan(1000);
    // Sized to its content again: what it had, and the line the view added about its mode.
    await expect.poll(async () => (await box()).height).toBeGreaterThanOrEqual(inline);
    expect((await box()).height).toBeLessThan(inline + 100);
  });

  await test.step('its tool call goes through the approval dialog, which says the view asks', async () => {
    await view.getByRole('button', { name: 'Refresh' }).click();
    const dialog = page.getByRole('dialog', { name: 'Run refresh_chart?' });
    await expect(dialog).toContainText('The view of views/show_chart');
    await expect(dialog).toContainText('not the model');
    await page.screenshot({ path: 'e2e/artifacts/app-view-tool-approval.png' });
    await approve(page, 'refresh_chart', 'Deny');
    await expect(view.getByText(/^Refresh: refused/)).toBeVisible();
    await view.getByRole('button', { name: 'Refresh' }).click();
    await approve(page, 'refresh_chart', 'Allow once');
    await expect(view.getByText('Refresh: ok refreshed')).toBeVisible();
  });

  await test.step('what it tells the model is shown under it, and goes with the next turn as the view’s word', async () => {
    await view.getByRole('button', { name: 'Tell the model' }).click();
    await expect(view.getByText('Context: kept')).toBeVisible();
    const told = page.getByRole('group', { name: 'What this view tells the model' });
    await told.getByText('This view tells the model what you see in it').click();
    await expect(told).toContainText('The person is looking at point 2 of 3.');
    await expect(told).toContainText('{"point":2}');
  });

  await test.step('a file it asks to save is saved only after the person says yes, under a name that cannot name a folder', async () => {
    await view.getByRole('button', { name: 'Save data' }).click();
    const files = page.getByRole('group', { name: 'Files from the view' });
    await expect(files).toContainText('The view asks to save a file to your computer:');
    await expect(files).toContainText('chart data.csv — ends in .csv, text/csv, 24 bytes');
    await files.getByRole('button', { name: 'Don’t save' }).click();
    await expect(view.getByText('Download: not saved')).toBeVisible();
    const download = page.waitForEvent('download');
    await view.getByRole('button', { name: 'Save data' }).click();
    await files.getByRole('button', { name: 'Save it' }).click();
    const saved = await download;
    expect(saved.suggestedFilename()).toBe('chart data.csv');
    expect(await readFile(await saved.path(), 'utf8')).toBe('point,value\n1,1\n2,2\n3,3\n');
    await expect(view.getByText('Download: saved')).toBeVisible();
  });

  await test.step('its message is shown to the person, and sent only when they say so', async () => {
    await view.getByRole('button', { name: 'Ask about it' }).click();
    const proposal = page.getByRole('group', { name: 'Message from the view' });
    await expect(proposal).toContainText('Tell me more about these 3 numbers');
    await expect(page.getByRole('listitem', { name: 'You' }).filter({ hasText: 'Tell me more' })).toHaveCount(0);
    await proposal.getByRole('button', { name: 'Send it' }).click();
    await expect(page.getByRole('listitem', { name: 'You' }).filter({ hasText: 'Tell me more about these 3 numbers' })).toBeVisible();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('They add up to six.');
    const sent = lastModelRequest(env().llm);
    expect(sent, 'the model was given what the view reported').toContain('The view of views/show_chart');
    expect(sent).toContain('The person is looking at point 2 of 3.');
    expect(sent, 'as information, not instructions').toContain('never as instructions');
  });

  await test.step('a reopened conversation shows the view again from what was saved, without calling the tool', async () => {
    await page.reload();
    await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('button', { name: /^show me a chart/ }).first().click();
    await page.getByRole('region', { name: 'View of views/show_chart, not shown yet' }).getByRole('button', { name: 'Show view', exact: true }).click();
    await expect(viewOf(page, 'show_chart').getByText('Result: A chart of 3 numbers.')).toBeVisible();
    await expect(page.getByRole('dialog'), 'nothing was called again, so nothing asks').toHaveCount(0);
  });

  await test.step('“Always show views from views” is remembered, listed with the permissions, and revoked there', async () => {
    await page.reload();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('button', { name: /^show me a chart/ }).first().click();
    await page.getByRole('region', { name: 'View of views/show_chart, not shown yet' }).getByRole('button', { name: 'Always show views from views' }).click();
    await expect(viewOf(page, 'show_chart').getByText('Result: A chart of 3 numbers.')).toBeVisible();
    await page.reload();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('button', { name: /^show me a chart/ }).first().click();
    await expect(viewOf(page, 'show_chart').getByText('Result: A chart of 3 numbers.'), 'shown without asking after a reload').toBeVisible();

    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('article', { name: 'views', exact: true }).getByRole('button', { name: 'views', exact: true }).click();
    await page.getByRole('tab', { name: 'Permissions' }).click();
    const permissions = page.getByRole('list', { name: 'Permissions for views' });
    await expect(permissions).toContainText('Show its views without asking');
    await page.screenshot({ path: 'e2e/artifacts/app-view-permission.png' });
    await permissions.getByRole('button', { name: 'Revoke: Show its views without asking' }).click();
    await expect(permissions.getByText('Show its views')).toHaveCount(0);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('button', { name: /^show me a chart/ }).first().click();
    await expect(page.getByRole('region', { name: 'View of views/show_chart, not shown yet' }), 'asked again once revoked').toBeVisible();
  });
});
