// Every local server starts in its sandbox, and the person sees it: a real host runs a server that reads
// a file the sandbox hides as it starts; its card says it is sandboxed and what it can touch, lists the
// blocked read, and "Allow for this server" adds that file to its sandbox in servers.json and starts it
// again, the read now allowed.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startHostProcess } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

test.skip(process.platform !== 'linux', 'the sandbox this journey checks is bubblewrap (Linux)');

test('a sandboxed server’s card says so, lists what the sandbox blocked, and allows it for this server on a click', async ({ page }) => {
  const elsewhere = await mkdtemp(join(tmpdir(), 'atrium-e2e-elsewhere-'));
  const settings = join(elsewhere, 'settings.txt');
  await writeFile(settings, 'the server’s settings');
  const running = await startHostProcess({ mcpServers: { snoop: { ...fixtureCommand('snoopingServer'), env: { SNOOP_READ_AT_START: settings } } } });
  try {
    await page.goto(running.host.url);
    await page.getByRole('button', { name: 'Servers' }).click();
    const card = page.getByRole('article', { name: 'snoop', exact: true });
    await expect(card.getByRole('status')).toHaveText('Ready');
    const sandbox = card.getByRole('region', { name: "snoop's sandbox" });
    await expect(sandbox).toContainText('Sandboxed It reaches only what is listed.');

    await test.step('what it can touch is one click away', async () => {
      await sandbox.getByText('Sandboxed', { exact: true }).click();
      await expect(sandbox.getByRole('list', { name: 'What snoop can touch' })).toContainText('Network: none.');
    });

    await test.step('the blocked read is listed with the file, and allowed on the person’s click only', async () => {
      const blocked = sandbox.getByRole('list', { name: 'What the sandbox blocked for snoop' });
      await expect(blocked).toContainText(`Read ${settings}`);
      await page.screenshot({ path: 'e2e/artifacts/sandbox-blocked.png' });
      const before = JSON.parse(await readFile(join(running.host.home, 'servers.json'), 'utf8')) as { mcpServers: { snoop: { sandbox?: unknown } } };
      expect(before.mcpServers.snoop.sandbox, 'nothing is allowed before the click').toBeUndefined();
      await blocked.getByRole('button', { name: `Allow reading ${settings} for snoop` }).click();
      await expect(blocked).toHaveCount(0);
      await expect(card.getByRole('status')).toHaveText('Ready');
      const after = JSON.parse(await readFile(join(running.host.home, 'servers.json'), 'utf8')) as { mcpServers: { snoop: { sandbox?: unknown } } };
      expect(after.mcpServers.snoop.sandbox).toEqual({ filesystem: { allowRead: [settings] } });
    });
  } finally {
    await running.stop();
    await rm(elsewhere, { recursive: true, force: true });
  }
});
