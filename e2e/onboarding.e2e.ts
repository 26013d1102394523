// Onboarding as a newcomer meets it, in a fresh data folder with nothing configured: Get started says
// what is done and what comes next (a server, a provider with its key, then the chat), the sample
// server is added once, trusted, with a word each time, and a server's JSON from a README (pasted, or a
// file chosen) is previewed with its command line, added untrusted and started only once approved.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { violationsInBothThemes } from './fixtures/axe.ts';
import { expect, startHostProcess, test } from './fixtures/hostProcess.ts';
import type { RunningHost } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

let running: RunningHost;
const echo = fixtureCommand('echoServer');

test.beforeEach(async () => {
  running = await startHostProcess({ mcpServers: {} });
});

test.afterEach(async () => {
  await running?.stop();
});

async function storedServers(): Promise<Record<string, { trusted?: boolean; disabled?: boolean; command?: string }>> {
  return (JSON.parse(await readFile(join(running.host.home, 'servers.json'), 'utf8')) as { mcpServers: Record<string, { trusted?: boolean }> }).mcpServers;
}

const setUp = (page: Page) => page.getByRole('list', { name: 'Your set-up' });

test('Get started says what is done and leads to the next step; the sample server is added once, trusted, then shown rather than offered again', async ({ page }) => {
  await page.goto(running.host.url);
  await expect(page.getByRole('button', { name: 'Get started', exact: true })).toHaveAttribute('aria-current', 'page');

  await test.step('nothing is set up: the first steps say so, and no file is named', async () => {
    await expect(setUp(page).getByRole('listitem').nth(0)).toContainText('No server yet');
    await expect(setUp(page).getByRole('listitem').nth(1)).toContainText('No provider with a key yet');
    await expect(page.getByText(/providers\.json|servers\.json/)).toHaveCount(0);
    await page.screenshot({ path: 'e2e/artifacts/onboarding-first-run.png', fullPage: true });
  });

  await test.step('the sample server: added trusted, started after its command line is shown, said each time', async () => {
    await page.getByRole('button', { name: 'Add the sample server' }).click();
    const start = page.getByRole('dialog', { name: 'Start atrium-sample?' });
    await start.getByRole('button', { name: 'Start server' }).click();
    await expect(page.getByRole('list', { name: 'Done' })).toContainText('Added the sample server as atrium-sample, trusted, and started it');
    await expect(setUp(page).getByRole('listitem').nth(0)).toContainText('1 server: atrium-sample (Ready)');
    expect((await storedServers())['atrium-sample']?.trusted).toBe(true);

    // Once it is there, it is not offered again: the way is to it.
    const sample = page.getByRole('region', { name: 'Sample server' });
    await expect(sample).toContainText('In Atrium as atrium-sample');
    await expect(page.getByRole('button', { name: 'Add the sample server' })).toHaveCount(0);
    await page.screenshot({ path: 'e2e/artifacts/onboarding-sample-added.png', fullPage: true });
    await sample.getByRole('button', { name: 'Show it' }).click();
    await expect(page.getByRole('article', { name: 'atrium-sample', exact: true }).getByRole('button', { name: 'atrium-sample', exact: true }), 'its card, chosen').toHaveAttribute('aria-current', 'true');
    expect(Object.keys(await storedServers())).toEqual(['atrium-sample']);
    await page.getByRole('button', { name: 'Get started', exact: true }).click();
  });

  await test.step('the next step is a provider with its key, in Settings; then the chat', async () => {
    await expect(page.getByRole('paragraph').filter({ hasText: /^Next:/ })).toHaveText('Next: add a provider and its key in Settings.');
    await setUp(page).getByRole('button', { name: 'Add a provider' }).click();
    await expect(page.getByRole('button', { name: 'Settings', exact: true })).toHaveAttribute('aria-current', 'page');
    const form = page.getByRole('form', { name: 'Add a provider' });
    await form.getByRole('textbox', { name: /^Name/ }).fill('claude');
    await form.getByRole('combobox', { name: 'API' }).selectOption('anthropic');
    await form.getByLabel(/^API key/).fill('sk-not-a-real-key');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await expect(page.getByRole('region', { name: 'Providers' }).getByRole('listitem').filter({ hasText: 'claude' })).toContainText('key set');

    await page.getByRole('button', { name: 'Get started', exact: true }).click();
    await expect(setUp(page).getByRole('listitem').nth(1)).toContainText('claude has its key');
    await expect(page.getByRole('paragraph').filter({ hasText: /^Next:/ })).toHaveText('Next: start a conversation.');
    await page.screenshot({ path: 'e2e/artifacts/onboarding-set-up.png', fullPage: true });
    expect(await violationsInBothThemes(page, 'Get started, set up')).toEqual([]);
    await setUp(page).getByRole('button', { name: 'Go to the chat' }).click();
    await expect(page.getByRole('button', { name: 'Chat', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('textbox', { name: 'Message' }), 'the first question is typed at once').toBeFocused();
  });
});

test('a server’s JSON from its README, pasted or from a file: previewed with its command line, added untrusted, started once approved', async ({ page }, testInfo) => {
  await page.goto(running.host.url);
  const paste = page.getByRole('region', { name: 'Paste a server’s config' });
  const text = paste.getByRole('textbox', { name: 'Server config (JSON)' });

  await test.step('a mistake in the text names its line and column, and the text stays', async () => {
    const broken = `"echo": {\n  "command": ${JSON.stringify(echo.command)}\n  "args": ${JSON.stringify(echo.args)}\n}`;
    await text.fill(broken);
    await paste.getByRole('button', { name: 'Preview' }).click();
    await expect(paste.getByRole('alert')).toHaveText('Line 3, column 3: a comma or a closing } was expected here. Is a comma missing before it?');
    await expect(text).toHaveValue(broken);
    await expect(text).toHaveAccessibleDescription(/Line 3, column 3/);
    await page.screenshot({ path: 'e2e/artifacts/onboarding-paste-error.png', fullPage: true });
    expect(await violationsInBothThemes(page, 'Get started with a paste error')).toEqual([]);
  });

  await test.step('one entry as a README gives it: its command line is shown before anything is added', async () => {
    await text.fill(`"echo": {\n  "command": ${JSON.stringify(echo.command)},\n  "args": ${JSON.stringify(echo.args)},\n  "trusted": true\n},`);
    await paste.getByRole('button', { name: 'Preview' }).click();
    await expect(paste.getByLabel('Command line of echo')).toHaveText([echo.command, ...echo.args].join(' '));
    expect(await storedServers()).toEqual({});
    await page.screenshot({ path: 'e2e/artifacts/onboarding-paste-preview.png', fullPage: true });
    expect(await violationsInBothThemes(page, 'Get started with a pasted server previewed')).toEqual([]);
    await paste.getByRole('button', { name: 'Add 1 server' }).click();
    const start = page.getByRole('dialog', { name: 'Start echo?' });
    await expect(start.getByLabel('Command line')).toHaveText([echo.command, ...echo.args].join(' '));
    const stored = await storedServers();
    expect(stored['echo']?.disabled, 'it waits for the start approval').toBe(true);
    expect(stored['echo']?.trusted, 'a pasted server is not trusted, whatever the text says').toBeUndefined();
    await start.getByRole('button', { name: 'Start server' }).click();
    await expect(page.getByRole('list', { name: 'Done' })).toContainText('Added echo and started it');
  });

  await test.step('the same text again: already in Atrium, nothing added', async () => {
    await paste.getByRole('button', { name: 'Preview' }).click();
    await expect(paste.getByText('echo is already in Atrium')).toBeVisible();
    await expect(paste.getByRole('button', { name: /^Add \d/ })).toHaveCount(0);
  });

  await test.step('a VS Code config file, chosen from disk', async () => {
    const file = testInfo.outputPath('mcp.json');
    await writeFile(file, JSON.stringify({ servers: { 'echo-too': { type: 'stdio', command: echo.command, args: [...echo.args, '--again'] } } }, null, 2));
    await paste.getByLabel('Choose a file…').setInputFiles(file);
    await expect(text).toHaveValue(/"echo-too"/);
    await expect(paste.getByLabel('Command line of echo-too')).toHaveText([echo.command, ...echo.args, '--again'].join(' '));
    await paste.getByRole('button', { name: 'Add 1 server' }).click();
    await page.getByRole('dialog', { name: 'Start echo-too?' }).getByRole('button', { name: 'Keep it off' }).click();
    await expect(page.getByRole('list', { name: 'Done' })).toContainText('Added echo-too, off until you start it');
    await page.screenshot({ path: 'e2e/artifacts/onboarding-file.png', fullPage: true });
  });

  await test.step('the Servers view shows them: echo running, echo-too off', async () => {
    await page.getByRole('button', { name: 'Servers', exact: true }).click();
    await expect(page.getByRole('article', { name: 'echo', exact: true }).getByRole('status')).toHaveText('Ready');
    await expect(page.getByRole('article', { name: 'echo-too', exact: true }).getByRole('status')).toHaveText(/Off|Disabled|Stopped/);
  });
});

test('Servers › Import… also takes a pasted config: added off and untrusted, started once approved', async ({ page }) => {
  await page.goto(running.host.url);
  await page.getByRole('button', { name: 'Servers', exact: true }).click();
  await page.getByRole('button', { name: 'Import…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import servers' });
  const paste = dialog.getByRole('region', { name: 'Paste a server’s config' });
  await paste.getByRole('textbox', { name: 'Server config (JSON)' }).fill(JSON.stringify({ mcpServers: { echo } }, null, 2));
  await paste.getByRole('button', { name: 'Preview' }).click();
  await expect(paste.getByLabel('Command line of echo')).toHaveText([echo.command, ...echo.args].join(' '));
  await paste.getByRole('button', { name: 'Add 1 server' }).click();
  const start = page.getByRole('dialog', { name: 'Start echo?' });
  await expect(start.getByLabel('Command line')).toHaveText([echo.command, ...echo.args].join(' '));
  await page.screenshot({ path: 'e2e/artifacts/onboarding-servers-import-paste.png' });
  await start.getByRole('button', { name: 'Start server' }).click();
  await expect(page.getByRole('article', { name: 'echo', exact: true }).getByRole('status')).toHaveText('Ready');
  expect((await storedServers())['echo']?.trusted).toBeUndefined();
});
