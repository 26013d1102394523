// A data file damaged before Atrium starts: the window says which file, what is wrong, where the
// untouched copy is and how to recover, in every view; and adding servers afterwards never writes over
// the damaged copy or the last good one.
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { encryptedFileSecrets } from '../main/store/encryptedSecrets.ts';
import { startHostProcess } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

const good = `${JSON.stringify({ mcpServers: { mine: { command: 'node', args: ['my-server.js'] }, other: { command: 'node', args: ['other.js'] } } }, null, 2)}\n`;
// Cut short mid-entry, as a crash during a write by another program leaves it.
const truncated = good.slice(0, 60);

test('a damaged servers.json: every view says so, and adding servers keeps the damaged copy and the last good one', async ({ page }) => {
  const { host, stop } = await startHostProcess({
    mcpServers: {},
    seed: async (home) => {
      await writeFile(join(home, 'servers.json'), truncated);
      // What an earlier run read successfully.
      await writeFile(join(home, 'servers.json.bak'), good);
    },
  });
  try {
    const copies = async (prefix: string) => (await readdir(host.home)).filter((name) => name.startsWith(prefix));
    const [copy] = await copies('servers.json.damaged-');
    expect(copy, 'the damaged file is set aside as Atrium starts').toBeTruthy();
    expect(await readFile(join(host.home, copy as string), 'utf8')).toBe(truncated);

    await page.goto(host.url);
    const banner = page.getByRole('alert').filter({ hasText: 'servers.json could not be read' });
    for (const view of ['Chat', 'Servers', 'Settings']) {
      await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: view, exact: true }).click();
      await expect(banner, `the ${view} view says so`).toBeVisible();
    }
    await expect(banner).toContainText(/line \d+, column \d+: the file ends too early/);
    await expect(banner).toContainText(join(host.home, copy as string));
    await expect(banner).toContainText('Atrium started with no servers');
    await expect(banner.getByRole('listitem').first()).toHaveText(/^Restore the last good copy: copy servers\.json\.bak-[\w-]+ to servers\.json; Atrium takes it up as soon as it is there\.$/);
    await page.screenshot({ path: 'e2e/artifacts/damaged-servers-file.png' });

    const echo = fixtureCommand('echoServer');
    for (const name of ['first', 'second']) {
      await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Servers', exact: true }).click();
      await page.getByRole('button', { name: 'Add server' }).click();
      const form = page.getByRole('dialog', { name: 'Add a server' });
      await form.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
      await form.getByRole('textbox', { name: 'Command', exact: true }).fill(echo.command);
      await form.getByRole('textbox', { name: 'Arguments (one per line)' }).fill(echo.args.join('\n'));
      await form.getByRole('button', { name: 'Save' }).click();
      await page.getByRole('dialog', { name: `Start ${name}?` }).getByRole('button', { name: 'Keep it off' }).click();
      await expect(page.getByRole('article', { name, exact: true })).toBeVisible();
    }

    const saved = JSON.parse(await readFile(join(host.home, 'servers.json'), 'utf8')) as { mcpServers: Record<string, unknown> };
    expect(Object.keys(saved.mcpServers)).toEqual(['first', 'second']);
    expect(await readFile(join(host.home, copy as string), 'utf8'), 'the damaged copy is never written').toBe(truncated);
    expect(await copies('servers.json.damaged-')).toHaveLength(1);
    expect(await readFile(join(host.home, 'servers.json.bak'), 'utf8'), 'two saves later, .bak is still what was last read').toBe(good);
    const [lastGood] = await copies('servers.json.bak-');
    expect(await readFile(join(host.home, lastGood as string), 'utf8')).toBe(good);

    await test.step('the banner’s own first step, taken while the window runs, brings the servers back, and the next change keeps them', async () => {
      await copyFile(join(host.home, lastGood as string), join(host.home, 'servers.json'));
      // The restored servers were never approved here: each asks before it runs.
      for (const name of ['mine', 'other']) await page.getByRole('dialog', { name: `Start ${name}?` }).getByRole('button', { name: 'Keep it off' }).click();
      await expect(page.getByRole('article', { name: 'first', exact: true })).toBeHidden();
      await expect(page.getByRole('article', { name: 'mine', exact: true })).toBeVisible();
      await page.getByRole('article', { name: 'other', exact: true }).getByRole('switch', { name: 'other enabled' }).click();
      await expect(page.getByRole('article', { name: 'other', exact: true }).getByRole('status')).toHaveText('Disabled');
      const restored = JSON.parse(await readFile(join(host.home, 'servers.json'), 'utf8')) as { mcpServers: Record<string, { disabled?: boolean }> };
      expect(Object.keys(restored.mcpServers)).toEqual(['mine', 'other']);
      expect(restored.mcpServers.other?.disabled).toBe(true);
    });

    await banner.getByRole('button', { name: 'Hide' }).click();
    await expect(banner).toBeHidden();
  } finally {
    await stop();
  }
});

test('a damaged secrets.key: Settings says the stored keys cannot be decrypted and what to do, and a key typed again is kept', async ({ page }) => {
  let encrypted = Buffer.alloc(0);
  const { host, stop } = await startHostProcess({
    mcpServers: {},
    providers: { providers: [{ id: 'claude', kind: 'anthropic', models: ['claude-x'] }] },
    seed: async (home) => {
      await encryptedFileSecrets(home).set('claude', 'sk-ant-earlier');
      encrypted = await readFile(join(home, 'secrets.enc'));
      // Half the key, as a crash during a copy leaves it.
      const key = await readFile(join(home, 'secrets.key'));
      await writeFile(join(home, 'secrets.key'), key.subarray(0, 20));
    },
  });
  try {
    await page.goto(host.url);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings', exact: true }).click();
    const banner = page.getByRole('alert').filter({ hasText: 'secrets.key could not be read' });
    await expect(banner).toContainText('the API keys and sign-ins stored in Atrium (secrets.enc) cannot be decrypted without it');
    await expect(banner.getByRole('listitem').first()).toContainText(/^Put the key back: restore secrets\.key from a backup .*move secrets\.enc\.damaged-[\w-]+ back to secrets\.enc, then restart Atrium\.$/);
    await expect(banner.getByRole('listitem').nth(1)).toHaveText('Carry on without them: enter your API keys again in Settings, sign in to your servers again, and approve each server again when Atrium asks.');
    await expect(page.getByText('Unsupported state or unable to authenticate data')).toHaveCount(0);
    const claude = page.getByRole('region', { name: 'Providers' }).getByRole('listitem').filter({ hasText: 'claude' });
    await expect(claude).toBeVisible();
    await expect(claude).not.toContainText('key set');
    await page.screenshot({ path: 'e2e/artifacts/damaged-secrets-key.png' });

    // The old key and what it encrypted are kept aside, untouched, for a restore.
    const names = await readdir(host.home);
    const keyCopy = names.find((name) => name.startsWith('secrets.key.damaged-'));
    const secretsCopy = names.find((name) => name.startsWith('secrets.enc.damaged-'));
    expect(keyCopy && secretsCopy).toBeTruthy();
    expect(await readFile(join(host.home, secretsCopy as string))).toEqual(encrypted);

    await claude.getByRole('button', { name: 'Edit claude' }).click();
    const form = page.getByRole('form', { name: 'Edit claude' });
    await form.getByLabel(/^API key/).fill('sk-ant-typed-again');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(claude).toContainText('key set');
    expect(await readFile(join(host.home, secretsCopy as string)), 'a new key never writes over the kept copy').toEqual(encrypted);
  } finally {
    await stop();
  }
});
