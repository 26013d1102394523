// A server in depth, in Debian's Chromium against a real host: the About tab shows what a real server
// declared (checked against what the SDK's own client reads from the same server), the log is filtered
// by level and text, servers of a Claude Desktop config found in HOME are imported from the Servers view,
// and a server switched off stops and comes back when switched on.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Client, LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Locator, Page } from '@playwright/test';
import { expect, startHostProcess, test } from './fixtures/hostProcess.ts';
import type { HostProcess } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

const require = createRequire(import.meta.url);
const everything = { command: process.execPath, args: [require.resolve('@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'] };
const levels = fixtureCommand('logLevelsServer');
const echo = fixtureCommand('echoServer');

let host: HostProcess;
let stopHost: () => Promise<unknown>;

test.beforeAll(async () => {
  const started = await startHostProcess({
    mcpServers: { everything, levels },
    seed: async (home) => {
      // "The person's" Claude Desktop config: one server Atrium does not have yet, one it already runs.
      const dir = join(home, '.config', 'Claude');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'claude_desktop_config.json'), JSON.stringify({ mcpServers: { echo, 'log-levels': levels } }));
    },
  });
  host = started.host;
  stopHost = started.stop;
});

test.afterAll(async () => {
  await stopHost?.();
});

function serverCard(page: Page, id: string): Locator {
  return page.getByRole('article', { name: id, exact: true });
}

async function openServer(page: Page, id: string): Promise<Locator> {
  await page.goto(host.url);
  await page.getByRole('button', { name: 'Servers' }).click();
  const card = serverCard(page, id);
  await expect(card.getByRole('status')).toHaveText('Ready');
  await card.getByRole('button', { name: id, exact: true }).click();
  return page.getByRole('region', { name: `Server ${id}` });
}

/** What the MCP SDK's own client reads from a server: the reference the About tab is checked against. */
async function declaredBy(server: { command: string; args: string[] }) {
  const client = new Client({ name: 'e2e-reference', version: '1.0.0' });
  await client.connect(new StdioClientTransport({ ...server, stderr: 'ignore' }));
  try {
    return { capabilities: client.getServerCapabilities() ?? {}, instructions: client.getInstructions() ?? '', info: client.getServerVersion() };
  } finally {
    await client.close();
  }
}

test('About: who the server is, the protocol it agreed, how it runs, its trust, capabilities and instructions', async ({ page }) => {
  const reference = await declaredBy(everything);
  const detail = await openServer(page, 'everything');

  await test.step('About is a tab like the others, reachable with the keyboard', async () => {
    await detail.getByRole('tab', { name: 'Log' }).focus();
    await page.keyboard.press('End');
    const about = detail.getByRole('tab', { name: 'About' });
    await expect(about).toHaveAttribute('aria-selected', 'true');
    await expect(about).toBeFocused();
    await expect(detail.getByRole('tab', { name: 'Log' })).toHaveAttribute('tabindex', '-1');
    await expect(detail.getByRole('tabpanel', { name: 'About' })).toBeVisible();
  });

  const facts = detail.getByRole('tabpanel', { name: 'About' });
  await test.step('identity, protocol, transport, command line and trust', async () => {
    await expect(facts.getByLabel('Name', { exact: true })).toHaveText(reference.info?.name ?? 'missing');
    await expect(facts.getByLabel('Title', { exact: true })).toHaveText(reference.info?.title ?? 'missing');
    await expect(facts.getByLabel('Version', { exact: true })).toHaveText(reference.info?.version ?? 'missing');
    // Atrium asks a 2025-era server for the newest 2025 revision; this server knows it.
    await expect(facts.getByLabel('Protocol', { exact: true })).toHaveText(`${LATEST_PROTOCOL_VERSION} (agreed by initialize)`);
    await expect(facts.getByLabel('Transport', { exact: true })).toContainText('stdio');
    await expect(facts.getByLabel('Command line', { exact: true })).toHaveText([everything.command, ...everything.args].join(' '));
    await expect(facts.getByLabel('Trust', { exact: true })).toContainText('Not trusted');
  });

  await test.step('every capability it declared, known ones explained, others by name', async () => {
    const capabilities = facts.getByRole('region', { name: 'Capabilities of everything' }).getByRole('list').first().locator(':scope > li');
    const declared = Object.keys(reference.capabilities);
    expect(declared).toEqual(expect.arrayContaining(['tools', 'resources', 'prompts', 'logging', 'tasks']));
    await expect(capabilities).toHaveCount(declared.length);
    for (const name of declared) await expect(capabilities.filter({ has: page.locator('strong', { hasText: new RegExp(`^${name}$`) }) })).toHaveCount(1);
    const resources = capabilities.filter({ hasText: /^resources/ });
    await expect(resources).toContainText('subscribe a resource can be watched for changes');
    await expect(resources).toContainText('listChanged says when its list changes');
    // Atrium follows a call its server runs on as a task (MCP Tasks): said so, not "not one Atrium uses".
    const tasks = capabilities.filter({ hasText: /^tasks/ });
    await expect(tasks).toContainText('long calls it runs on as tasks, followed while you chat');
    await expect(tasks).toContainText('requests.tools.call a tool call can run as a task');
  });

  await test.step('the instructions it gives the model', async () => {
    const firstLine = reference.instructions.split('\n')[0] ?? '';
    expect(firstLine).not.toBe('');
    await expect(facts.getByRole('region', { name: 'Instructions from everything' })).toContainText(firstLine);
  });
  await page.screenshot({ path: 'e2e/artifacts/servers-about.png' });
});

test('log filter: a minimum level hides lower lines, a search narrows them, and the count says how many', async ({ page }) => {
  const detail = await openServer(page, 'levels');
  const lines = detail.getByRole('list', { name: 'Log lines for levels' }).getByRole('listitem');
  const count = detail.getByText(/^\d+( of \d+)? lines?$/);
  const show = detail.getByRole('combobox', { name: 'Show' });
  const search = detail.getByRole('searchbox', { name: 'Search the log' });

  // Atrium's "ready" line and the server's six lines are all this log will hold.
  await expect(lines.filter({ hasText: 'ready: log-levels-server' })).toHaveCount(1);
  await expect(lines.filter({ hasText: 'index corrupted' }), 'the last line the server logs arrives').toHaveCount(1);
  await expect(lines.filter({ hasText: 'cache lookup for report.csv' })).toHaveCount(1);
  const total = await lines.count();
  await expect(count).toHaveText(`${total} lines`);

  await test.step('warning and above hides debug, info and notice lines', async () => {
    await show.selectOption({ label: 'warning and above' });
    await expect(lines.filter({ hasText: 'cache warmed' })).toHaveCount(0);
    await expect(lines.filter({ hasText: 'config reloaded' })).toHaveCount(0);
    for (const text of ['disk almost full (91%)', 'disk full: could not write report.csv', 'index corrupted']) await expect(lines.filter({ hasText: text })).toHaveCount(1);
    const shownLevels = await lines.locator('.log-level').allTextContents();
    expect(shownLevels.every((level) => ['warning', 'error', 'critical', 'alert', 'emergency'].includes(level)), shownLevels.join(', ')).toBe(true);
    await expect(count).toHaveText(`${shownLevels.length} of ${total} lines`);
  });

  await test.step('a search narrows the shown lines; the level still applies', async () => {
    await search.fill('REPORT');
    await expect(lines).toHaveCount(1);
    await expect(lines).toContainText('disk full: could not write report.csv');
    await expect(count).toHaveText(`1 of ${total} lines`);
    await show.selectOption({ label: 'all' });
    await expect(lines).toHaveCount(2);
    await expect(lines.first()).toContainText('cache lookup for report.csv');
    await expect(count).toHaveText(`2 of ${total} lines`);
    await page.screenshot({ path: 'e2e/artifacts/servers-log-filter.png' });
  });

  await test.step('nothing matching says so; clearing the search shows every line again', async () => {
    await search.fill('no such line anywhere');
    await expect(detail.getByText('No lines match')).toBeVisible();
    await expect(count).toHaveText(`0 of ${total} lines`);
    await search.fill('');
    await expect(lines).toHaveCount(total);
    await expect(count).toHaveText(`${total} lines`);
  });
});

test('Import… brings in a Claude Desktop server, which starts; one Atrium already runs is shown as such', async ({ page }) => {
  await page.goto(host.url);
  await page.getByRole('button', { name: 'Servers' }).click();
  await page.getByRole('button', { name: 'Import…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import servers' });
  const found = dialog.getByRole('region', { name: 'Servers from Claude Desktop' });

  await test.step('each server with its exact command line; the one already here is not offered again', async () => {
    await expect(found.getByLabel('Command line of echo')).toHaveText([echo.command, ...echo.args].join(' '));
    await expect(found.getByLabel('Command line of log-levels')).toHaveText([levels.command, ...levels.args].join(' '));
    await expect(found).toContainText('log-levels is already in Atrium as levels');
    await expect(found.getByRole('checkbox', { name: 'Import log-levels' })).toHaveCount(0);
    await expect(found.getByRole('checkbox', { name: 'Import echo' })).toBeChecked();
    await expect(found.getByRole('checkbox', { name: 'Trust echo’s tool annotations' })).not.toBeChecked();
  });

  await test.step('the ticked server is imported with the chosen trust and reaches Ready', async () => {
    await found.getByRole('checkbox', { name: 'Trust echo’s tool annotations' }).check();
    await page.screenshot({ path: 'e2e/artifacts/servers-import.png' });
    await found.getByRole('button', { name: 'Import and start 1 server' }).click();
    // What it runs is approved in the start dialog, where its risks are shown.
    await page.getByRole('dialog', { name: 'Start echo?' }).getByRole('button', { name: 'Start server' }).click();
    await expect(dialog.getByRole('list', { name: 'Done' })).toContainText('Imported echo from Claude Desktop');
    await expect(found, 'once imported, it is shown as present').toContainText('echo is already in Atrium');
    await expect(found).toContainText('Every server here is already in Atrium.');
    await expect(found.getByRole('button', { name: /^Import/ })).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(serverCard(page, 'echo').getByRole('status')).toHaveText('Ready');
    const stored = JSON.parse(await readFile(join(host.home, 'servers.json'), 'utf8')) as { mcpServers: Record<string, { trusted?: boolean }> };
    expect(Object.keys(stored.mcpServers)).toEqual(['everything', 'levels', 'echo']);
    expect(stored.mcpServers['echo']?.trusted).toBe(true);
  });
});

test('switching a server off stops it (Disabled); switching it on brings it back to Ready', async ({ page }) => {
  const detail = await openServer(page, 'everything');
  const card = serverCard(page, 'everything');
  const enabled = card.getByRole('switch', { name: 'everything enabled' });
  const stored = async () => (JSON.parse(await readFile(join(host.home, 'servers.json'), 'utf8')) as { mcpServers: Record<string, { disabled?: boolean }> }).mcpServers['everything'];
  await detail.getByRole('tab', { name: 'About' }).click();
  const protocol = detail.getByRole('tabpanel', { name: 'About' }).getByLabel('Protocol', { exact: true });
  await expect(protocol).toContainText(LATEST_PROTOCOL_VERSION);

  await test.step('off: Disabled, nothing offered, no connection, and it stays off in servers.json', async () => {
    await enabled.click();
    await expect(card.getByRole('status')).toHaveText('Disabled');
    await expect(enabled).toHaveAttribute('aria-checked', 'false');
    await expect(card.getByRole('list', { name: 'What everything offers' }).getByRole('listitem').filter({ hasText: 'Tools' })).toHaveText('Tools 0');
    await expect(protocol).toHaveText('known once it is ready');
    await expect.poll(async () => (await stored())?.disabled).toBe(true);
  });

  await test.step('on: Ready again, with its tools and a new connection', async () => {
    await enabled.click();
    await expect(card.getByRole('status')).toHaveText('Ready');
    await expect(enabled).toHaveAttribute('aria-checked', 'true');
    await expect(card.getByRole('list', { name: 'What everything offers' }).getByRole('listitem').filter({ hasText: 'Tools' })).toHaveText(/^Tools [1-9]\d*$/);
    await expect(protocol).toContainText(LATEST_PROTOCOL_VERSION);
    await expect.poll(async () => (await stored())?.disabled ?? false).toBe(false);
  });
});
