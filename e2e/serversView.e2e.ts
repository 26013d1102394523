import { createRequire } from 'node:module';
import type { Locator, Page } from '@playwright/test';
import { expect, test } from './fixtures/hostProcess.ts';

const require = createRequire(import.meta.url);
// The package's bin is dist/index.js; `stdio` picks its stdio transport.
const everythingServer = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
const missingCommand = 'atrium-e2e-no-such-command';

test.use({
  hostServers: {
    everything: { command: process.execPath, args: [everythingServer, 'stdio'] },
    broken: { command: missingCommand, args: ['--flag'] },
  },
});

function serverCard(page: Page, id: string): Locator {
  return page.getByRole('article', { name: id, exact: true });
}

/** The "Tools 17" item of a card's counts list. */
function countOf(card: Locator, label: 'Tools' | 'Resources' | 'Templates' | 'Prompts'): Locator {
  return card.getByRole('list', { name: /offers$/ }).getByRole('listitem').filter({ hasText: label });
}

// The test code is type-checked without DOM types (tsconfig covers Node code); these describe the
// little of the DOM the recorder below touches.
type Observer = new (callback: () => void) => { observe(target: unknown, options: Record<string, boolean>): void };
type PageGlobals = { MutationObserver: Observer; atriumStatusHistory?: string[] };

/** Records every text the card's status badge shows, so a quick Starting is not missed between polls. */
async function recordStatuses(card: Locator): Promise<() => Promise<string[]>> {
  await card.evaluate((element) => {
    const page = globalThis as unknown as PageGlobals;
    const seen: string[] = [];
    const read = () => element.querySelector('[role="status"]')?.textContent ?? '';
    seen.push(read());
    new page.MutationObserver(() => {
      const text = read();
      if (seen.at(-1) !== text) seen.push(text);
    }).observe(element, { subtree: true, childList: true, characterData: true });
    page.atriumStatusHistory = seen;
  });
  return () => card.page().evaluate(() => [...((globalThis as unknown as PageGlobals).atriumStatusHistory ?? [])]);
}

test('servers view: live status, counts, a broken server, the log, and restart', async ({ page, host }) => {
  const cspViolations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
  });

  await page.goto(host.url);
  await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
  await expect(page, 'the token is removed from the address bar').toHaveURL(/\/$/);
  await page.getByRole('button', { name: 'Servers' }).click();
  await expect(page.getByRole('button', { name: 'Servers' })).toHaveAttribute('aria-current', 'page');

  const everything = serverCard(page, 'everything');
  const broken = serverCard(page, 'broken');

  await test.step('the everything server reaches Ready with what it offers', async () => {
    await expect(everything.getByRole('status')).toHaveText('Ready');
    for (const label of ['Tools', 'Resources', 'Prompts'] as const) {
      await expect(countOf(everything, label)).toHaveText(new RegExp(`^${label} [1-9]\\d*$`));
    }
    await expect(everything.getByRole('switch', { name: 'everything enabled' })).toHaveAttribute('aria-checked', 'true');
  });

  await test.step('the broken server shows Error naming the missing command', async () => {
    await expect(broken.getByRole('status')).toHaveText('Error');
    await expect(broken).toContainText(missingCommand);
  });

  await test.step('selecting a server shows its log', async () => {
    await broken.getByRole('button', { name: 'broken', exact: true }).click();
    await expect(page.getByRole('heading', { name: /Log · broken/ })).toBeVisible();
    await everything.getByRole('button', { name: 'everything', exact: true }).click();
    await expect(everything.getByRole('button', { name: 'everything', exact: true })).toHaveAttribute('aria-current', 'true');
    const lines = page.getByRole('list', { name: 'Log lines for everything' }).getByRole('listitem');
    await expect(lines.first()).toBeVisible();
  });

  await test.step('Restart goes through Starting back to Ready', async () => {
    const history = await recordStatuses(everything);
    await everything.getByRole('button', { name: 'Restart everything' }).click();
    await expect.poll(async () => (await history()).join(' → ')).toMatch(/Starting.* → Ready$/);
    await expect(everything.getByRole('status')).toHaveText('Ready');
    await expect(countOf(everything, 'Tools')).toHaveText(/^Tools [1-9]\d*$/);
  });

  await page.screenshot({ path: 'e2e/artifacts/servers-view.png' });
  expect(cspViolations).toEqual([]);
});
