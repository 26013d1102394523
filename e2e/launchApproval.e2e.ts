// Nothing runs that the person did not approve, whoever wrote servers.json: a real host whose servers
// file is edited by hand between two runs shows the start dialog (the approved definition beside the new
// one, with the risks found), starts the server only once approved, and leaves an unapproved one off.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startHostProcess } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

test('a hand-edited server waits for approval in the window; approved, it starts', async ({ page }) => {
  const echo = fixtureCommand('echoServer');
  const running = await startHostProcess({ mcpServers: { echo } });
  try {
    const { home } = running.host;
    const marker = join(home, 'ran-unasked');
    await page.goto(running.host.url);
    await page.getByRole('button', { name: 'Servers' }).click();
    await expect(page.getByRole('article', { name: 'echo', exact: true }).getByRole('status'), 'a setup that ran before keeps running').toHaveText('Ready');

    // Quit, edit the file by hand (as another program or a shared snippet would), start again.
    const edited = { ...echo, args: [...echo.args, '--both-eras'], env: { API_KEY: 'not-a-real-key' } };
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: edited, helper: { command: 'sh', args: ['-c', `touch ${marker}`], trusted: true } } }));
    const again = await running.restart();
    await page.goto(again.url);

    await test.step('the changed server shows its start dialog over the chat, with the approved and the new definition and the risks', async () => {
      const dialog = page.getByRole('dialog', { name: 'Start echo?' });
      await expect(dialog).toContainText('echo changed since you approved it');
      await expect(dialog.getByLabel('Now: command line')).toHaveText([edited.command, ...edited.args].join(' '));
      await expect(dialog.getByLabel('Approved before: command line')).toHaveText([echo.command, ...echo.args].join(' '));
      await expect(dialog).toContainText('Environment variables: API_KEY');
      await expect(dialog.getByRole('list', { name: 'Risks' })).toContainText('The environment variable API_KEY holds a secret-looking value in plain text');
      await expect(dialog).not.toContainText('not-a-real-key');
      await page.screenshot({ path: 'e2e/artifacts/launch-approval-changed.png' });
      await dialog.getByRole('button', { name: 'Start server' }).click();
    });

    await test.step('a new shell script is flagged and, kept off, never runs', async () => {
      const dialog = page.getByRole('dialog', { name: 'Start helper?' });
      await expect(dialog.getByLabel('Command line')).toHaveText(`sh -c 'touch ${marker}'`);
      await expect(dialog.getByRole('list', { name: 'Risks' })).toContainText('It runs a shell (sh) with a script in its arguments');
      await page.screenshot({ path: 'e2e/artifacts/launch-approval-shell.png' });
      await dialog.getByRole('button', { name: 'Keep it off' }).click();
      await page.getByRole('button', { name: 'Servers' }).click();
      const card = page.getByRole('article', { name: 'helper', exact: true });
      await expect(card.getByRole('status')).toHaveText('Needs your approval');
      await expect(card).toContainText('Not started: Atrium has not run this server before.');
      await card.getByRole('button', { name: 'Review and start helper…' }).click();
      await page.getByRole('dialog', { name: 'Start helper?' }).getByRole('button', { name: 'Keep it off' }).click();
      expect(existsSync(marker), 'the unapproved script never ran').toBe(false);
    });

    await test.step('the approved one runs; the one kept off has no approval', async () => {
      await expect(page.getByRole('article', { name: 'echo', exact: true }).getByRole('status')).toHaveText('Ready');
      const approvals = JSON.parse(await readFile(join(home, 'launch-approvals.json'), 'utf8')) as { servers: Record<string, { by: string }> };
      expect(approvals.servers['echo']?.by).toBe('person');
      expect(approvals.servers['helper']).toBeUndefined();
    });
  } finally {
    await running.stop();
  }
});
