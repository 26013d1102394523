// The window made small (a laptop split in two, 720 × 560): what must be read before answering is still
// there to read. A dialog too tall for the window scrolls as a whole; no part of it is squeezed away, the
// arguments of the call being approved least of all; it opens at its top, with what is asked, and its
// answers stay in sight at its foot. The top bar keeps every view in reach.
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

const env = chatHostFor([{ toolCalls: [{ name: 'echo__echo', input: { text: 'send the quarterly report to everyone@example.com' } }] }, { text: 'Sent.' }, { text: 'Noted.' }], {
  echo: fixtureCommand('echoServer'),
});

test('in a short window an approval shows the question and its answers together, and the arguments it asks about', async ({ page }) => {
  await page.setViewportSize({ width: 720, height: 560 });
  await openApp(page, env().host, ['echo']);
  await sendMessage(page, 'send the report');
  const dialog = page.getByRole('dialog', { name: 'Run echo?' });
  // It opens at its top, where it says what is asked and who asks: the focus on the safe answer at its
  // foot does not scroll the question away (an Enter still denies).
  await expect(dialog.getByRole('heading', { name: 'Run echo?' })).toBeInViewport();
  await expect(dialog.getByRole('button', { name: 'Deny', exact: true })).toBeFocused();
  // The answers stay in sight at its foot, whole, with the question: nothing to scroll to before answering.
  for (const answer of ['Allow once', 'Always allow', 'Deny', 'Always deny']) {
    await expect(dialog.getByRole('button', { name: answer, exact: true }), `${answer} is in sight`).toBeInViewport({ ratio: 1 });
  }
  const args = dialog.getByLabel('Arguments', { exact: true });
  await args.scrollIntoViewIfNeeded();
  await expect(args).toContainText('everyone@example.com');
  const box = await args.boundingBox();
  expect(box?.height ?? 0, 'the arguments are shown, not squeezed to nothing').toBeGreaterThan(40);
  await page.screenshot({ path: 'e2e/artifacts/short-window-approval.png' });
  const allow = dialog.getByRole('button', { name: 'Allow once' });
  await expect(allow, 'still in sight, the arguments scrolled to').toBeInViewport({ ratio: 1 });
  await allow.click();
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Sent.');
});

test('in a narrow window every control of the top bar is whole and inside the window, each label on one line', async ({ page }) => {
  await page.setViewportSize({ width: 720, height: 560 });
  await openApp(page, env().host, []);
  const bar = page.getByRole('banner');
  const controls = [
    ...(await bar.getByRole('navigation', { name: 'Views' }).getByRole('button').all()),
    bar.getByRole('button', { name: /^Tasks/ }),
    bar.getByRole('button', { name: 'Keyboard shortcuts' }),
    bar.getByRole('status', { name: /^Connection/ }),
  ];
  for (const control of controls) {
    const box = await control.boundingBox();
    const name = (await control.textContent())?.trim();
    expect(box, `${name} is laid out`).toBeTruthy();
    expect((box?.x ?? 0) + (box?.width ?? 0), `${name} ends inside the window`).toBeLessThanOrEqual(720);
    expect(box?.height ?? 99, `${name} is on one line`).toBeLessThan(40);
  }
  await page.screenshot({ path: 'e2e/artifacts/narrow-window-top-bar.png' });
});

test("in a narrow window a server's details get the window's width: every tab in reach, its tools readable", async ({ page }) => {
  await page.setViewportSize({ width: 720, height: 640 });
  await openApp(page, env().host, ['echo']);
  await page.getByRole('button', { name: 'Servers' }).click();
  await page.getByRole('article', { name: 'echo', exact: true }).getByRole('button', { name: 'echo', exact: true }).click();
  const tabs = page.getByRole('tablist');
  for (const name of ['Log', 'Trace', 'Tools', 'Permissions', 'About']) {
    const box = await tabs.getByRole('tab', { name }).boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 999), `the ${name} tab is inside the window`).toBeLessThanOrEqual(720);
  }
  await tabs.getByRole('tab', { name: 'Tools' }).click();
  const panel = await page.getByRole('tabpanel', { name: 'Tools' }).boundingBox();
  expect(panel?.width ?? 0, 'the details are as wide as most of the window').toBeGreaterThan(600);
  await page.screenshot({ path: 'e2e/artifacts/narrow-window-server-tools.png' });
});

test("in a narrow window a conversation's long title stays on one line, and its header's controls are whole and inside the window", async ({ page }) => {
  await page.setViewportSize({ width: 720, height: 560 });
  await openApp(page, env().host, ['echo']);
  await sendMessage(page, 'a rather long question about the garden, the weather and what to plant this week');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Noted.');
  const pane = page.getByRole('region', { name: /^Conversation: / });
  const title = await pane.getByRole('heading', { level: 2 }).boundingBox();
  expect(title?.height ?? 99, 'the title is one line, not a column of words').toBeLessThan(30);
  for (const control of [pane.getByRole('combobox', { name: 'Model' }), pane.getByRole('button', { name: 'Export' })]) {
    const box = await control.boundingBox();
    expect((box?.x ?? 0) + (box?.width ?? 999), 'inside the window').toBeLessThanOrEqual(720);
  }
  await page.screenshot({ path: 'e2e/artifacts/narrow-window-conversation-head.png' });
});
