// A first run, in Debian's Chromium against a real host whose HOME holds a Claude Desktop config: Atrium
// opens on Get started, shows each found server with its command line, imports the ticked ones with the
// trust the person chose, and adds its own sample server, which runs once started.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, startHostProcess, test } from './fixtures/hostProcess.ts';
import type { HostProcess } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

let host: HostProcess;
let stopHost: () => Promise<unknown>;
const echo = fixtureCommand('echoServer');

test.beforeAll(async () => {
  const started = await startHostProcess({
    mcpServers: {},
    seed: async (home) => {
      // The host runs with HOME set to its own folder: this is "the person's" Claude Desktop config.
      const dir = join(home, '.config', 'Claude');
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'claude_desktop_config.json'), JSON.stringify({ mcpServers: { echo: echo, unwanted: { command: 'rm', args: ['-rf', '/nowhere'] } } }));
    },
  });
  host = started.host;
  stopHost = started.stop;
});

test.afterAll(async () => {
  await stopHost?.();
});

test('first run: Get started imports the ticked servers with the chosen trust, and adds the sample server', async ({ page }) => {
  await page.goto(host.url);
  await expect(page.getByRole('button', { name: 'Get started' }), 'a first run opens on Get started').toHaveAttribute('aria-current', 'page');

  await test.step('the found config lists each server with its exact command line; only ticked ones are imported', async () => {
    const found = page.getByRole('region', { name: 'Servers from Claude Desktop' });
    await expect(found.getByLabel('Command line of echo')).toHaveText([echo.command, ...echo.args].join(' '));
    await expect(found.getByLabel('Command line of unwanted')).toHaveText('rm -rf /nowhere');
    await found.getByRole('checkbox', { name: 'Import unwanted' }).uncheck();
    await found.getByRole('checkbox', { name: 'Trust echo’s tool annotations' }).check();
    await page.screenshot({ path: 'e2e/artifacts/setup.png' });
    await found.getByRole('button', { name: 'Import and start 1 server' }).click();
    // What it runs is approved in the start dialog, where its risks are shown.
    await page.getByRole('dialog', { name: 'Start echo?' }).getByRole('button', { name: 'Start server' }).click();
    await expect(page.getByRole('list', { name: 'Done' })).toContainText('Imported echo from Claude Desktop');
    const stored = JSON.parse(await readFile(join(host.home, 'servers.json'), 'utf8')) as { mcpServers: Record<string, { trusted?: boolean }> };
    expect(Object.keys(stored.mcpServers)).toEqual(['echo']);
    expect(stored.mcpServers['echo']?.trusted).toBe(true);
  });

  await test.step('the sample server starts after its command line is shown, and offers every kind of feature', async () => {
    await page.getByRole('button', { name: 'Add the sample server' }).click();
    const start = page.getByRole('dialog', { name: 'Start atrium-sample?' });
    await expect(start.getByLabel('Command line')).toContainText('sampleServer.ts');
    await start.getByRole('button', { name: 'Start server' }).click();
    await page.getByRole('button', { name: 'Servers' }).click();
    const card = page.getByRole('article', { name: 'atrium-sample', exact: true });
    await expect(card.getByRole('status')).toHaveText('Ready');
    for (const [label, count] of [['Tools', 7], ['Resources', 1], ['Templates', 1], ['Prompts', 1]] as const) {
      await expect(card.getByRole('list', { name: /offers$/ }).getByRole('listitem').filter({ hasText: label })).toHaveText(`${label} ${count}`);
    }
    await expect(page.getByRole('article', { name: 'echo', exact: true }).getByRole('status')).toHaveText('Ready');
  });
});
