// What a newcomer sees of the window's layout, measured in the page as it is drawn: a primary button's
// label stays readable under the pointer, sidebars fit at common window widths, controls in one row are
// one height, lists are padded like their panels, removing a server asks in place, and the chat follows
// to the end after a form is answered.
import type { Locator, Page } from '@playwright/test';
import { openApp } from './fixtures/chatHost.ts';
import { expect, startHostProcess, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

test.use({ hostServers: { echo: fixtureCommand('echoServer'), notes: fixtureCommand('echoServer') } });

// The test code is type-checked without DOM types; this is the little of the DOM the measure touches.
type Canvas = { getContext(kind: '2d'): { fillStyle: string; fillRect(...box: number[]): void; getImageData(...box: number[]): { data: ArrayLike<number> } } };
type Drawn = {
  ownerDocument: {
    defaultView: { getComputedStyle(element: unknown): { color: string; backgroundColor: string } };
    createElement(tag: 'canvas'): Canvas;
  };
};

/** The WCAG contrast ratio between a button's label and its background, as drawn now. */
async function labelContrast(button: Locator): Promise<number> {
  const [label, background] = await button.evaluate((element) => {
    const { ownerDocument } = element as unknown as Drawn;
    const style = ownerDocument.defaultView.getComputedStyle(element);
    // A computed colour may be rgb(), color(srgb …) or another space: the canvas turns any into sRGB bytes.
    const context = ownerDocument.createElement('canvas').getContext('2d');
    return [style.color, style.backgroundColor].map((css) => {
      context.fillStyle = css;
      context.fillRect(0, 0, 1, 1);
      return Array.from(context.getImageData(0, 0, 1, 1).data).slice(0, 3);
    });
  });
  const luminance = (rgb: number[] = []) => {
    const [r = 0, g = 0, b = 0] = rgb.map((channel) => {
      const c = channel / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [lighter, darker] = [luminance(label), luminance(background)].sort((a, b) => b - a) as [number, number];
  return (lighter + 0.05) / (darker + 0.05);
}

/** Hovers a primary button and checks its label against WCAG AA's 4.5:1, in both themes. */
async function expectReadableWhenHovered(page: Page, button: Locator, name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await button.hover();
    expect(await labelContrast(button), `${name}'s label is readable under the pointer (${scheme} theme)`).toBeGreaterThanOrEqual(4.5);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  await page.mouse.move(0, 0);
}

async function box(locator: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const found = await locator.boundingBox();
  if (!found) throw new Error(`${String(locator)} is not on screen`);
  return found;
}

test('primary buttons keep a readable label under the pointer: New conversation, Send, Add server, Save, Keep it off (the start dialog\'s safe, focused answer)', async ({ page, host }) => {
  await openApp(page, host, []);
  await expectReadableWhenHovered(page, page.getByRole('button', { name: 'New conversation' }), 'New conversation');
  await page.getByRole('textbox', { name: 'Message' }).fill('hello');
  const send = page.getByRole('button', { name: 'Send' });
  await send.hover();
  await page.screenshot({ path: 'e2e/artifacts/layout-send-hovered.png' });
  await expectReadableWhenHovered(page, send, 'Send');
  await page.getByRole('textbox', { name: 'Message' }).fill('');

  await page.getByRole('button', { name: 'Servers' }).click();
  await expectReadableWhenHovered(page, page.getByRole('button', { name: 'Add server' }), 'Add server');
  await page.getByRole('button', { name: 'Add server' }).click();
  const form = page.getByRole('dialog', { name: 'Add a server' });
  const added = fixtureCommand('echoServer');
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('added');
  await form.getByRole('textbox', { name: 'Command', exact: true }).fill(added.command);
  await form.getByRole('textbox', { name: 'Arguments (one per line)' }).fill(added.args.join('\n'));
  await expectReadableWhenHovered(page, form.getByRole('button', { name: 'Save' }), 'Save');
  await form.getByRole('button', { name: 'Save' }).click();
  const start = page.getByRole('dialog', { name: 'Start added?' });
  const keepOff = start.getByRole('button', { name: 'Keep it off' });
  await expect(keepOff, 'the safe answer has the focus').toBeFocused();
  const background = (locator: Locator) => locator.evaluate((element) => (element as unknown as Drawn).ownerDocument.defaultView.getComputedStyle(element).backgroundColor);
  expect(await background(keepOff), 'the focused answer is also the coloured one').toBe(await background(page.getByRole('button', { name: 'Add server' })));
  await expectReadableWhenHovered(page, keepOff, 'Keep it off');
  await start.getByRole('button', { name: 'Start server' }).hover();
  await page.screenshot({ path: 'e2e/artifacts/layout-start-server-hovered.png' });
  await expectReadableWhenHovered(page, start.getByRole('button', { name: 'Start server' }), 'Start server');
  await start.getByRole('button', { name: 'Start server' }).click();
  await expect(page.getByRole('article', { name: 'added', exact: true }).getByRole('status')).toHaveText('Ready');
});

test('removing a server asks in place, with Keep focused, and never opens a browser dialog', async ({ page, host }) => {
  const browserDialogs: string[] = [];
  page.on('dialog', (dialog) => {
    browserDialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await openApp(page, host, ['echo', 'notes']);
  await page.getByRole('button', { name: 'Servers' }).click();
  const card = page.getByRole('article', { name: 'notes', exact: true });

  await card.getByRole('button', { name: 'Remove notes' }).click();
  const question = card.getByRole('group', { name: 'Remove notes?' });
  await expect(question).toBeVisible();
  await expect(question.getByRole('button', { name: 'Keep notes' }), 'the safe answer has the focus').toBeFocused();
  await page.screenshot({ path: 'e2e/artifacts/layout-remove-server-confirm.png' });
  await page.keyboard.press('Escape');
  await expect(question).toBeHidden();
  await expect(card.getByRole('status')).toHaveText('Ready');
  await expect(card.getByRole('button', { name: 'Remove notes' }), 'the keyboard is back where it was').toBeFocused();

  await card.getByRole('button', { name: 'Remove notes' }).click();
  await card.getByRole('group', { name: 'Remove notes?' }).getByRole('button', { name: 'Remove', exact: true }).click();
  await expect(card).toHaveCount(0);
  const other = page.getByRole('article', { name: 'echo', exact: true });
  await expect(other.getByRole('status'), 'the other server is untouched').toHaveText('Ready');
  // The button that had the keyboard went with its card: the focus stays in the list, not on the page's body.
  await expect(other.locator(':focus'), 'the keyboard is on the next card').toHaveCount(1);
  expect(browserDialogs, 'no native confirm, alert or prompt').toEqual([]);
});

test("a server card's controls keep the keyboard while they work: Enabled, Restart, and Edit when its dialog closes", async ({ page, host }) => {
  await openApp(page, host, ['echo', 'notes']);
  await page.getByRole('button', { name: 'Servers' }).click();
  const card = page.getByRole('article', { name: 'echo', exact: true });
  await expect(card.getByRole('status')).toHaveText('Ready');

  const enabled = card.getByRole('switch', { name: 'echo enabled' });
  await enabled.focus();
  await page.keyboard.press('Space');
  await expect(card.getByRole('status')).toHaveText('Disabled');
  await expect(enabled, 'the switch still has the keyboard').toBeFocused();
  await page.keyboard.press('Space');
  await expect(card.getByRole('status')).toHaveText('Ready');
  await expect(enabled).toBeFocused();

  const restart = card.getByRole('button', { name: 'Restart echo' });
  await restart.focus();
  await page.keyboard.press('Enter');
  await expect(card.getByRole('status')).toHaveText('Ready');
  await expect(restart, 'Restart still has the keyboard').toBeFocused();

  const edit = card.getByRole('button', { name: 'Edit echo' });
  await edit.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('dialog', { name: 'Edit echo' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name: 'Edit echo' })).toBeHidden();
  await expect(edit, 'closing the editor gives the keyboard back to Edit').toBeFocused();
});

test('the Roots sidebar fits, with its Add button whole, at 1280 and 1024 px', async ({ page, host }) => {
  await openApp(page, host, []);
  await page.getByRole('button', { name: 'Roots' }).click();
  const sidebar = page.getByRole('navigation', { name: 'Workspaces' });
  const add = sidebar.getByRole('button', { name: 'Add', exact: true });
  for (const width of [1280, 1024]) {
    await page.setViewportSize({ width, height: 800 });
    await expect(add).toBeVisible();
    await page.screenshot({ path: `e2e/artifacts/layout-roots-${width}.png` });
    const sideways = await sidebar.evaluate((element) => element.scrollWidth - element.clientWidth);
    expect(sideways, `the sidebar does not scroll sideways at ${width} px`).toBe(0);
    const [outer, button] = [await box(sidebar), await box(add)];
    expect(button.x + button.width, `Add ends inside the sidebar at ${width} px`).toBeLessThanOrEqual(outer.x + outer.width - 1);
  }
});

test('a narrow window gives the servers its whole height until one is chosen, then shows its details below them', async ({ page, host }) => {
  await openApp(page, host, ['echo']);
  await page.setViewportSize({ width: 700, height: 600 });
  await page.getByRole('button', { name: 'Servers' }).click();
  const card = page.getByRole('article', { name: 'echo', exact: true });
  await expect(card.getByRole('button', { name: /^Restart/ }), 'a card is whole in view, not cut by an empty pane').toBeInViewport({ ratio: 1 });
  await expect(page.getByText('Select a server')).toBeHidden();
  await page.screenshot({ path: 'e2e/artifacts/layout-servers-narrow.png' });
  await card.getByRole('button', { name: 'echo', exact: true }).click();
  await expect(page.getByRole('list', { name: 'Log lines for echo' })).toBeInViewport();
  await page.screenshot({ path: 'e2e/artifacts/layout-servers-narrow-chosen.png' });
});

test('a provider row: Test connection, Edit and Remove are one height, on one line', async ({ page }) => {
  const { host, stop } = await startHostProcess({
    mcpServers: {},
    providers: { providers: [{ id: 'claude', kind: 'anthropic', baseUrl: 'http://127.0.0.1:9', apiKeySecret: 'claude' }] },
    env: { ATRIUM_SECRET_CLAUDE: 'sk-ant-e2e-not-real' },
  });
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const row = page.getByRole('region', { name: 'Providers' }).getByRole('listitem').filter({ hasText: 'claude' });
    const buttons = [row.getByRole('button', { name: 'Test connection to claude' }), row.getByRole('button', { name: 'Edit claude' }), row.getByRole('button', { name: 'Remove claude' })];
    await expect(buttons[0]!).toBeVisible();
    await row.screenshot({ path: 'e2e/artifacts/layout-provider-row.png' });
    // Testing keeps the keyboard where it was (a control disabled under it drops it on the page's body).
    await buttons[0]!.focus();
    await page.keyboard.press('Enter');
    await expect(row.getByRole('status', { name: 'Connection to claude' })).toContainText('✗');
    await expect(buttons[0]!, 'the keyboard stays on Test connection').toBeFocused();
    const [test, edit, remove] = await Promise.all(buttons.map((button) => box(button)));
    for (const [name, other] of [['Test connection', test!], ['Edit', edit!]] as const) {
      expect(Math.abs(remove!.height - other.height), `Remove is ${remove!.height} px high, ${name} ${other.height} px`).toBeLessThanOrEqual(1);
      expect(Math.abs(remove!.y - other.y), `${name} and Remove sit on one line`).toBeLessThanOrEqual(1);
    }
  } finally {
    await stop();
  }
});
