// servers.json is the person's file too: edited in a text editor while the window runs, it is taken up
// at once (what it adds asks before it runs), a change made in the window afterwards keeps the edit, and
// a broken edit is said where it is — line and column — and never written over.
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { startHostProcess } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

type ServersDoc = { note?: string; mcpServers: Record<string, Record<string, unknown>> };

test('servers.json edited by hand while the window runs: taken up, asked about, kept; broken, the window says where and writes nothing', async ({ page }) => {
  const echo = fixtureCommand('echoServer');
  const family = fixtureCommand('familyServer');
  const running = await startHostProcess({ mcpServers: { echo } });
  try {
    const path = join(running.host.home, 'servers.json');
    const read = async () => JSON.parse(await readFile(path, 'utf8')) as ServersDoc;
    /** Saved as many editors save: a new file renamed over the old one. */
    const save = async (text: string) => {
      await writeFile(`${path}.swp`, text);
      await rename(`${path}.swp`, path);
    };
    await page.goto(running.host.url);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Servers', exact: true }).click();
    const card = (name: string) => page.getByRole('article', { name, exact: true });
    await expect(card('echo').getByRole('status')).toHaveText('Ready');

    await test.step('a server added in the editor appears at once and asks before it runs', async () => {
      await save(`${JSON.stringify({ note: 'my notes', mcpServers: { echo, family } }, null, 2)}\n`);
      const dialog = page.getByRole('dialog', { name: 'Start family?' });
      await expect(dialog.getByLabel('Command line')).toContainText(family.args[0] as string);
      await dialog.getByRole('button', { name: 'Keep it off' }).click();
      await expect(card('family').getByRole('status')).toHaveText('Needs your approval');
    });

    await test.step('a change made in the window afterwards keeps the edit', async () => {
      await card('echo').getByRole('switch', { name: 'echo enabled' }).click();
      await expect(card('echo').getByRole('status')).toHaveText('Disabled');
      const saved = await read();
      expect(saved.note).toBe('my notes');
      expect(Object.keys(saved.mcpServers)).toEqual(['echo', 'family']);
      expect(saved.mcpServers.echo?.disabled).toBe(true);
    });

    const banner = page.getByRole('alert').filter({ hasText: 'servers.json could not be read' });
    const good = await readFile(path, 'utf8');
    // A comma left after the last entry, as people leave when they delete one.
    const broken = good.replace(/\n {4}}\n {2}}\n}\n$/, '\n    },\n  }\n}\n');
    expect(broken).not.toBe(good);
    const line = broken.split('\n').lastIndexOf('    },') + 1;

    await test.step('a broken edit: the window says where the mistake is, keeps the servers, and writes nothing over it', async () => {
      await save(broken);
      await expect(banner).toContainText(`servers.json could not be read: line ${line}, column 6: a comma with nothing after it (remove it).`);
      await expect(banner).toContainText('It was left as it is; Atrium keeps the servers it had, and writes nothing to it until it is fixed.');
      await expect(banner.getByRole('listitem').first()).toHaveText(`Fix it in ${path}: Atrium reads it again as soon as it is saved.`);
      await expect(card('family')).toBeVisible();
      await card('echo').getByRole('switch', { name: 'echo enabled' }).click();
      await expect(card('echo').getByRole('alert')).toHaveText(
        `servers.json cannot be read as it is now, so nothing was changed. Line ${line}, column 6: a comma with nothing after it (remove it). Fix it, then try again.`,
      );
      // Tried again while it is still broken: refused again, the same way.
      await card('echo').getByRole('switch', { name: 'echo enabled' }).click();
      await expect(card('echo').getByRole('alert')).toContainText(`Line ${line}, column 6`);
      await page.screenshot({ path: 'e2e/artifacts/servers-file-broken-while-running.png' });
      expect(await readFile(path, 'utf8'), 'the person’s text is as they left it').toBe(broken);
    });

    await test.step('fixed in the editor, the banner goes and the window works on the file again', async () => {
      await save(good);
      await expect(banner).toBeHidden();
      // The card's refusal was true only while the file could not be read: it goes with the banner.
      await expect(card('echo').getByRole('alert')).toBeHidden();
      await card('echo').getByRole('switch', { name: 'echo enabled' }).click();
      await expect(card('echo').getByRole('status')).toHaveText('Ready');
      expect(Object.keys((await read()).mcpServers)).toEqual(['echo', 'family']);
    });
  } finally {
    await running.stop();
  }
});

test('an entry with a mistake: the window names the server, the field and what it must be, in plain words; the others still run', async ({ page }) => {
  const echo = fixtureCommand('echoServer');
  const running = await startHostProcess({ mcpServers: { echo } });
  try {
    const path = join(running.host.home, 'servers.json');
    await page.goto(running.host.url);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Servers', exact: true }).click();
    await expect(page.getByRole('article', { name: 'echo', exact: true }).getByRole('status')).toHaveText('Ready');
    // The arguments written as one string, as they would be typed in a terminal; a timeout in words.
    const mistaken = { echo, files: { command: 'npx', args: '-y @modelcontextprotocol/server-filesystem /tmp' }, slow: { ...echo, requestTimeoutMs: '30s' } };
    await writeFile(path, `${JSON.stringify({ mcpServers: mistaken }, null, 2)}\n`);
    const banner = page.getByRole('status').filter({ hasText: 'The servers file has problems; the other servers still run.' });
    await expect(banner.getByRole('listitem')).toHaveText(['server "files": "args" must be a list ([…])', 'server "slow": "requestTimeoutMs" must be a whole number']);
    await expect(banner).not.toContainText(/must NOT|must be (array|integer|string)|files: args/);
    await expect(banner, 'the banner says which file to open, once').toContainText(`Fix it in ${path}: Atrium reads it again as soon as it is saved.`);
    await expect(page.getByRole('article', { name: 'echo', exact: true }).getByRole('status')).toHaveText('Ready');
    await page.screenshot({ path: 'e2e/artifacts/servers-file-entry-mistakes.png' });
  } finally {
    await running.stop();
  }
});

test('a servers file whose every entry has a mistake is not called empty: the window says none could be read, and where to fix them', async ({ page }) => {
  const running = await startHostProcess({ mcpServers: { files: { command: 'npx', args: '-y @modelcontextprotocol/server-filesystem /tmp' } } });
  try {
    await page.goto(running.host.url);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Servers', exact: true }).click();
    await expect(page.getByRole('status').filter({ hasText: 'The servers file has problems' }).getByRole('listitem')).toHaveText(['server "files": "args" must be a list ([…])']);
    await expect(page.getByText('The servers file has problems.', { exact: true }), 'no "other servers" are said to run').toBeVisible();
    await expect(page.getByText('No server in the servers file could be read')).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/servers-file-none-readable.png' });
    await expect(page.getByText('No MCP servers configured')).toHaveCount(0);
  } finally {
    await running.stop();
  }
});
