// Nothing runs that the person did not approve, whoever wrote servers.json: a real host whose servers
// file is edited by hand between two runs shows the start dialog (the approved definition beside the new
// one, what changed, the risks found), starts the server only once approved, and leaves an unapproved one
// off; a script an approved server runs that was edited, or an approvals file a crash zeroed, asks again.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect, test } from '@playwright/test';
import { startHostProcess } from './fixtures/hostProcess.ts';
import { fixtureCommand, fixturePath } from './servers/launch.ts';

type StoredApprovals = { byKey: Record<string, Record<string, { by: string }>> };
/** The approvals the host's key signed (the file holds one section per key; a browser-mode host has one). */
const approvalsIn = async (home: string) => Object.values((JSON.parse(await readFile(join(home, 'launch-approvals.json'), 'utf8')) as StoredApprovals).byKey)[0] ?? {};

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
    const edited = { ...echo, args: [...echo.args, '--both-eras'], env: { API_KEY: 'not-a-real-key', MODE: 'quiet' } };
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: edited, helper: { command: 'sh', args: ['-c', `touch ${marker}`], trusted: true } } }));
    const again = await running.restart();
    await page.goto(again.url);

    await test.step('the changed server shows its start dialog over the chat, with the approved and the new definition and the risks', async () => {
      const dialog = page.getByRole('dialog', { name: 'Start echo?' });
      await expect(dialog).toContainText('echo changed since you approved it');
      await expect(page, 'the window says how many wait for an answer: echo and helper').toHaveTitle('(2) New conversation — Atrium');
      await expect(dialog.getByLabel('Now: command line')).toHaveText([edited.command, ...edited.args].join(' '));
      await expect(dialog.getByLabel('Approved before: command line')).toHaveText([echo.command, ...echo.args].join(' '));
      // Every value is pinned; the dialog shows those that are not secrets.
      await expect(dialog.getByText('Environment variables:')).toHaveText('Environment variables: API_KEY (secret), MODE=quiet');
      await expect(dialog.getByRole('list', { name: 'Changes' })).toContainText('The environment variable MODE is new.');
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
      const approvals = await approvalsIn(home);
      expect(approvals['echo']?.by).toBe('person');
      expect(approvals['helper']).toBeUndefined();
      expect(JSON.stringify(approvals), 'a secret value is never written, only its keyed digest').not.toContain('not-a-real-key');
    });
  } finally {
    await running.stop();
  }
});

test('an edited script or a zeroed approvals file asks again: the dialog names the file, the banner says why', async ({ page }) => {
  // Four starts of a real host in one journey: on a busy machine that takes longer than one page's worth.
  test.slow();
  // An approved server that runs a local script: the script's content is pinned with it.
  const echo = pathToFileURL(fixturePath('echoServer')).href;
  const running = await startHostProcess({
    mcpServers: {},
    approved: false,
    seed: async (home) => {
      await writeFile(join(home, 'server.mjs'), `await import(${JSON.stringify(echo)});\n`);
      // Outside the sandbox: the edited script's marker below proves whether it ran only where it could write
      // it (the sandbox would refuse the write, and the script, in Atrium's data folder, is hidden from it).
      await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { local: { command: process.execPath, args: [join(home, 'server.mjs')], sandbox: false } } }));
    },
  });
  try {
    const { home } = running.host;
    const script = join(home, 'server.mjs');
    const card = () => page.getByRole('article', { name: 'local', exact: true });
    await page.goto(running.host.url);
    await test.step('new: the dialog names the script pinned by its content; approved, it starts', async () => {
      const dialog = page.getByRole('dialog', { name: 'Start local?' });
      await expect(dialog).toContainText(`Scripts, pinned by their content: ${script}`);
      await dialog.getByRole('button', { name: 'Start server' }).click();
      await page.getByRole('button', { name: 'Servers' }).click();
      await expect(card().getByRole('status')).toHaveText('Ready');
    });

    await test.step('the script edited between two runs: not run, and the dialog says which file changed', async () => {
      const marker = join(home, 'ran-unasked');
      await writeFile(script, `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'x');\nawait import(${JSON.stringify(echo)});\n`);
      await page.goto((await running.restart()).url);
      const dialog = page.getByRole('dialog', { name: 'Start local?' });
      await expect(dialog).toContainText('local changed since you approved it');
      await expect(dialog.getByRole('list', { name: 'Changes' })).toHaveText(`The file ${script} changed since you approved it.`);
      await page.screenshot({ path: 'e2e/artifacts/launch-approval-script-changed.png' });
      expect(existsSync(marker), 'the edited script did not run').toBe(false);
      await dialog.getByRole('button', { name: 'Start server' }).click();
      await page.getByRole('button', { name: 'Servers' }).click();
      await expect(card().getByRole('status')).toHaveText('Ready');
    });

    await test.step('a crash zeroes the approvals file: the banner says nothing counts as approved, and each server asks, on this run and the next', async () => {
      const path = join(home, 'launch-approvals.json');
      await writeFile(path, Buffer.alloc((await readFile(path)).length));
      await page.goto((await running.restart()).url);
      const banner = page.getByRole('alert').filter({ hasText: 'launch-approvals.json could not be read' });
      await expect(banner).toContainText('no server counts as approved: each asks for your approval again before it starts');
      await expect(banner).toContainText('Or carry on: approve each server again when Atrium asks.');
      const dialog = page.getByRole('dialog', { name: 'Start local?' });
      await expect(dialog).toContainText('Atrium will run exactly this command');
      await page.screenshot({ path: 'e2e/artifacts/launch-approval-zeroed.png' });
      await dialog.getByRole('button', { name: 'Keep it off' }).click();

      await page.goto((await running.restart()).url);
      await expect(page.getByRole('dialog', { name: 'Start local?' }), 'set aside, the file is not taken for one that never existed').toBeVisible();
      await page.getByRole('dialog', { name: 'Start local?' }).getByRole('button', { name: 'Keep it off' }).click();
      await page.getByRole('button', { name: 'Servers' }).click();
      await expect(card().getByRole('status')).toHaveText('Needs your approval');
    });
  } finally {
    await running.stop();
  }
});
