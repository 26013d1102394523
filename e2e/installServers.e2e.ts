// Installing a server as a person does it: from a registry of the test's own on 127.0.0.1 (searched by
// words the registry itself does not match, deleted entries hidden, deprecated ones with their message),
// from a .mcpb file opened in the window, and what the organisation's policy does to a server it forbids.
// An install runs nothing: the start dialog that follows shows where the server came from, what it asks
// for and what it can touch, and only the person's "Start server" runs it. Secrets typed into the form go
// to the encrypted store, never servers.json.
import { readFile, writeFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { violationsInBothThemes } from './fixtures/axe.ts';
import { buildBundle } from './fixtures/bundleFixture.ts';
import { startHostProcess } from './fixtures/hostProcess.ts';
import { sampleRegistryItems, startRegistryFixture } from './fixtures/registryFixture.ts';
import { fixtureCommand } from './servers/launch.ts';

const SECRET = 'sk-bundle-secret-0123456789';

const serversFile = async (home: string) => readFile(join(home, 'servers.json'), 'utf8');

async function openServers(page: Page, url: string) {
  await page.goto(url);
  await page.getByRole('button', { name: 'Servers' }).click();
}

test('the registry: searched, an entry installed with its secret, approved in its start dialog, then it runs', async ({ page }) => {
  test.slow();
  const registry = await startRegistryFixture();
  const running = await startHostProcess({ mcpServers: {}, env: { ATRIUM_REGISTRY_URL: registry.url } });
  try {
    const { home } = running.host;
    await openServers(page, running.host.url);
    await page.getByRole('button', { name: 'From the registry…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add from the registry' });
    const list = dialog.getByRole('list', { name: 'Registry servers' });

    await test.step('the whole list, every page of it: deleted entries never, a broken one counted', async () => {
      await expect(dialog).toContainText(`From ${registry.url} (named by ATRIUM_REGISTRY_URL)`);
      await expect(dialog).toContainText('29 servers.');
      await expect(dialog).toContainText('1 entry the registry sent could not be read');
      await expect(list.getByRole('article', { name: 'io.github.atrium-test/old-weather' })).toHaveCount(0);
      expect(registry.requests.filter((request) => request.startsWith('/v0.1/servers?')).length, 'its 30 latest entries, ten a page, in three pages').toBe(3);
    });

    await test.step('words the registry does not match (a description) still find it; a deprecated one says why', async () => {
      await dialog.getByLabel('Search by name, title or description').fill('forecasts');
      await expect(list.getByRole('article')).toHaveCount(1);
      await expect(list.getByRole('article', { name: 'io.github.atrium-test/weather' })).toContainText('publisher io.github.atrium-test (not verified)');
      await dialog.getByLabel('Search by name, title or description').fill('notes');
      await expect(list.getByRole('article', { name: 'io.github.atrium-test/legacy-notes' })).toContainText('Deprecated: Use io.github.atrium-test/notes instead.');
      await page.screenshot({ path: 'e2e/artifacts/install-registry-list.png' });
      expect(await violationsInBothThemes(page, 'the registry list')).toEqual([]);
    });

    await test.step('the registry down: the list kept is shown, said as such', async () => {
      registry.setDown(true);
      await dialog.getByRole('button', { name: 'Read the list again' }).click();
      await expect(dialog.getByRole('status').filter({ hasText: 'The registry did not answer' })).toContainText('this is the list Atrium kept less than a minute ago.');
      await expect(dialog).toContainText('answered 503 Service Unavailable');
      await expect(list.getByRole('article', { name: 'io.github.atrium-test/legacy-notes' })).toBeVisible();
      registry.setDown(false);
    });

    await test.step('an npm entry: its exact version, its secret asked in a hidden field; installed, it waits', async () => {
      await dialog.getByLabel('Search by name, title or description').fill('weather');
      await list.getByRole('button', { name: 'Install io.github.atrium-test/weather…' }).click();
      const form = page.getByRole('dialog', { name: 'Install Weather' });
      await expect(form.getByLabel('What it runs')).toHaveText(/^npx -y @atrium-test\/weather-mcp@1\.2\.3/);
      const key = form.getByLabel('WEATHER_API_KEY (required)');
      await expect(key).toHaveAttribute('type', 'password');
      await expect(form).toContainText('A secret: kept in Atrium’s encrypted store, never in servers.json.');
      await form.getByRole('button', { name: 'Install' }).click();
      await expect(key, 'the field at fault is marked and has the focus').toHaveAttribute('aria-invalid', 'true');
      await expect(key).toBeFocused();
      await expect(key).toHaveAccessibleDescription(/The environment variable WEATHER_API_KEY is required \(Your weather service key\)$/);
      await expect(form.getByRole('alert')).toHaveText('Not installed: correct the fields marked above.');
      await expect(form, 'no command-line flag in the window').not.toContainText('--env');
      await page.screenshot({ path: 'e2e/artifacts/install-registry-missing.png' });
      await key.fill(SECRET);
      await page.screenshot({ path: 'e2e/artifacts/install-registry-form.png' });
      expect(await violationsInBothThemes(page, 'an entry’s install form')).toEqual([]);
      await form.getByRole('button', { name: 'Install' }).click();

      const start = page.getByRole('dialog', { name: 'Start weather?' });
      await expect(start.getByRole('region', { name: 'Where it comes from' })).toContainText(`From the registry at ${registry.url}: io.github.atrium-test/weather 1.2.3`);
      await expect(start.getByRole('list', { name: 'Values it asks for' })).toContainText('WEATHER_API_KEY — environment variable, a secret kept in Atrium’s encrypted store');
      await expect(start.getByRole('region', { name: 'What it can touch' })).toBeVisible();
      await expect(start).not.toContainText(SECRET);
      await page.screenshot({ path: 'e2e/artifacts/install-registry-consent.png' });
      expect(await violationsInBothThemes(page, 'an installed server’s start dialog')).toEqual([]);
      await start.getByRole('button', { name: 'Keep it off' }).click();
      await expect(page.getByRole('article', { name: 'weather', exact: true }).getByRole('status')).toHaveText('Needs your approval');
      const written = await serversFile(home);
      expect(written).toContain('@atrium-test/weather-mcp@1.2.3');
      expect(written).not.toContain('@latest');
      expect(written, 'the secret is not in servers.json').not.toContain(SECRET);
    });

    await test.step('a bundle entry (its hash checked): its settings as a form; approved, its tool answers with them', async () => {
      await page.getByRole('button', { name: 'From the registry…' }).click();
      await dialog.getByLabel('Search by name, title or description').fill('greeter');
      await list.getByRole('button', { name: 'Install io.github.atrium-test/greeter…' }).click();
      const form = page.getByRole('dialog', { name: 'Install Greeter' });
      await form.getByLabel('Greeting').fill('Bonjour');
      await form.getByLabel('API key (required)').fill(SECRET);
      await form.getByRole('button', { name: 'Install' }).click();
      const start = page.getByRole('dialog', { name: 'Start greeter?' });
      await expect(start).toContainText('io.github.atrium-test/greeter 1.0.0');
      await start.getByRole('button', { name: 'Start server' }).click();
      const card = page.getByRole('article', { name: 'greeter', exact: true });
      await expect(card.getByRole('status')).toHaveText('Ready');
      expect(await serversFile(home)).not.toContain(SECRET);
    });

    await test.step('an entry opened again says it is installed already, and that installing it adds another server', async () => {
      await page.getByRole('button', { name: 'From the registry…' }).click();
      await dialog.getByLabel('Search by name, title or description').fill('weather');
      await list.getByRole('button', { name: 'Install io.github.atrium-test/weather…' }).click();
      const form = page.getByRole('dialog', { name: 'Install Weather' });
      await expect(form.getByRole('note').filter({ hasText: 'Installed already' })).toHaveText('Installed already: weather (1.2.3). Installing it again adds another server, under the name below, with settings of its own.');
      await expect(form.getByRole('textbox', { name: 'Name in Atrium' })).toHaveValue('weather-2');
    });
  } finally {
    await running.stop();
    await registry.close();
  }
});

test('a registry chosen in the window that cannot be read, with no list kept: another is chosen right there', async ({ page }) => {
  const down = await startRegistryFixture();
  down.setDown(true);
  const working = await startRegistryFixture();
  const running = await startHostProcess({ mcpServers: {}, providers: { providers: [], registryUrl: down.url } });
  try {
    await openServers(page, running.host.url);
    await page.getByRole('button', { name: 'From the registry…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add from the registry' });
    await expect(dialog.getByRole('alert')).toHaveText(`The registry at ${down.url} answered 503 Service Unavailable. Atrium has no list of it kept yet: try again in a moment (Read the list again), or use another registry below.`);
    await page.screenshot({ path: 'e2e/artifacts/install-registry-unreachable.png' });
    await dialog.getByLabel('Another registry').fill(working.url);
    await dialog.getByRole('button', { name: 'Use it' }).click();
    await expect(dialog).toContainText('29 servers.');
    await expect(dialog.getByRole('alert')).toHaveCount(0);
  } finally {
    await running.stop();
    await down.close();
    await working.close();
  }
});

test('a registry that does not answer the first time it is asked: said as a sentence, with what to do; then the list', async ({ page }) => {
  const registry = await startRegistryFixture();
  registry.setDown(true);
  const running = await startHostProcess({ mcpServers: {}, env: { ATRIUM_REGISTRY_URL: registry.url } });
  try {
    await openServers(page, running.host.url);
    await page.getByRole('button', { name: 'From the registry…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add from the registry' });
    await expect(dialog.getByRole('alert')).toHaveText(`The registry at ${registry.url} answered 503 Service Unavailable. Atrium has no list of it kept yet: try again in a moment (Read the list again).`);
    await page.screenshot({ path: 'e2e/artifacts/install-registry-down-first.png' });
    registry.setDown(false);
    await dialog.getByRole('button', { name: 'Read the list again' }).click();
    await expect(dialog).toContainText('29 servers.');
    await expect(dialog.getByRole('alert')).toHaveCount(0);
    // Nothing is left below the dialog's buttons, where it would be cut off: the address's source is said at the top.
    await expect(dialog).not.toContainText('ATRIUM_REGISTRY_URL names this registry');
  } finally {
    await running.stop();
    await registry.close();
  }
});

test('an entry whose only bundle is not the file it published offers nothing to install, and says why as a warning', async ({ page }) => {
  const registry = await startRegistryFixture((url) => {
    const { items, files } = sampleRegistryItems(url);
    const greeter = items.find((item) => item.server.name === 'io.github.atrium-test/greeter');
    const pkg = (greeter?.server.packages as { fileSha256: string }[] | undefined)?.[0];
    if (pkg) pkg.fileSha256 = 'ab'.repeat(32);
    return { items, files };
  });
  const running = await startHostProcess({ mcpServers: {}, env: { ATRIUM_REGISTRY_URL: registry.url } });
  try {
    await openServers(page, running.host.url);
    await page.getByRole('button', { name: 'From the registry…' }).click();
    await page.getByRole('dialog', { name: 'Add from the registry' }).getByLabel('Search by name, title or description').fill('greeter');
    await page.getByRole('button', { name: 'Install io.github.atrium-test/greeter…' }).click();
    const form = page.getByRole('dialog', { name: 'Install Greeter' });
    await expect(form).toContainText(/Not offered: .*not the (ab){32} expected: it is not the file that was published/);
    await expect(form).toContainText('Atrium cannot install any way this entry offers.');
    await expect(form.getByRole('button', { name: 'Install' }), 'nothing to install: no button that cannot be pressed').toHaveCount(0);
    await expect(form, 'it would not be installed, so nothing is said of installing').not.toContainText('Installing runs nothing');
    await page.screenshot({ path: 'e2e/artifacts/install-registry-bad-hash.png' });
  } finally {
    await running.stop();
    await registry.close();
  }
});

test('a .mcpb opened in the window: unsigned said plainly, its settings a form, installed under the data folder; a hostile one refused', async ({ page }) => {
  const running = await startHostProcess({ mcpServers: {} });
  try {
    const { home } = running.host;
    await openServers(page, running.host.url);

    await test.step('a bundle that climbs out of its folder is refused, and nothing of it is written', async () => {
      await page.getByLabel('Open a bundle…').setInputFiles({ name: 'escape.mcpb', mimeType: 'application/zip', buffer: Buffer.from(buildBundle('escape')) });
      const dialog = page.getByRole('dialog', { name: 'Install a bundle' });
      await expect(dialog.getByRole('alert')).toContainText('escape.mcpb was not installed');
      await page.screenshot({ path: 'e2e/artifacts/install-bundle-refused.png' });
      await dialog.getByRole('button', { name: 'Close' }).click();
      expect(await serversFile(home)).not.toContain('greeter');
    });

    await test.step('the greeter bundle: what it is, that it is unsigned, its settings', async () => {
      await page.getByLabel('Open a bundle…').setInputFiles({ name: 'greeter.mcpb', mimeType: 'application/zip', buffer: Buffer.from(buildBundle()) });
      const form = page.getByRole('dialog', { name: 'Install Greeter' });
      await expect(form).toContainText('greeter-bundle 1.0.0 by Atrium Tests');
      await expect(form).toContainText('Unsigned: nothing says who made this file.');
      await expect(form).toContainText(/SHA-256 [0-9a-f]{64}/);
      await expect(form.getByLabel('API key (required)')).toHaveAttribute('type', 'password');
      await form.getByLabel('API key (required)').fill(SECRET);
      await page.screenshot({ path: 'e2e/artifacts/install-bundle-form.png' });
      expect(await violationsInBothThemes(page, 'a bundle’s form')).toEqual([]);
      await form.getByRole('button', { name: 'Install' }).click();
    });

    await test.step('nothing runs until approved; approved, it is ready', async () => {
      const start = page.getByRole('dialog', { name: 'Start greeter-bundle?' });
      await expect(start.getByRole('region', { name: 'Where it comes from' })).toContainText('From the bundle greeter-bundle 1.0.0 by Atrium Tests');
      await expect(start.getByLabel('Command line')).toContainText(join(home, 'bundles'));
      await page.screenshot({ path: 'e2e/artifacts/install-bundle-consent.png' });
      await start.getByRole('button', { name: 'Start server' }).click();
      await expect(page.getByRole('article', { name: 'greeter-bundle', exact: true }).getByRole('status')).toHaveText('Ready');
      expect(await serversFile(home)).not.toContain(SECRET);
    });

    await test.step('opened again, the bundle says it is installed already, and that installing adds another server', async () => {
      await page.getByLabel('Open a bundle…').setInputFiles({ name: 'greeter.mcpb', mimeType: 'application/zip', buffer: Buffer.from(buildBundle()) });
      const form = page.getByRole('dialog', { name: 'Install Greeter' });
      await expect(form.getByRole('note')).toHaveText('Installed already: greeter-bundle (1.0.0). Installing it again adds another server, under the name below, with settings of its own.');
      await expect(form.getByLabel('Name in Atrium')).toHaveValue('greeter-bundle-2');
      await form.getByRole('button', { name: 'Cancel' }).click();
      await expect(form).toHaveCount(0);
    });
  } finally {
    await running.stop();
  }
});

test('a server the organisation forbids says which rule of which file, cannot be started, and runs once the rule is gone', async ({ page }) => {
  const folder = await mkdtemp(join(tmpdir(), 'atrium-policy-'));
  const policyFile = join(folder, 'policy.json');
  await writeFile(policyFile, JSON.stringify({ deniedMcpServers: [{ serverName: 'echo' }, { serverName: 'forbidden' }] }));
  const running = await startHostProcess({ mcpServers: { echo: fixtureCommand('echoServer') }, env: { ATRIUM_POLICY_FILE: policyFile } });
  try {
    await openServers(page, running.host.url);
    const card = page.getByRole('article', { name: 'echo', exact: true });
    await expect(card.getByRole('status')).toHaveText('Blocked by policy');
    await expect(card).toContainText(`Your organisation's policy does not allow this server (rule deniedMcpServers[0] {"serverName":"echo"} in ${policyFile})`);
    await expect(card.getByRole('button', { name: /^Start|^Restart|^Review and start/ })).toHaveCount(0);
    await page.screenshot({ path: 'e2e/artifacts/install-policy-blocked.png' });
    expect(await violationsInBothThemes(page, 'a server blocked by policy')).toEqual([]);

    // The chat says, before the first message, that the model has no tools and why.
    const views = page.getByRole('navigation', { name: 'Views' });
    await views.getByRole('button', { name: 'Chat', exact: true }).click();
    const newConversation = page.getByRole('region', { name: 'New conversation' });
    await expect(newConversation).toContainText('No server is ready, so the model answers without tools: 1 blocked by your organisation’s policy.');
    await page.screenshot({ path: 'e2e/artifacts/chat-no-server-ready.png' });
    await newConversation.getByRole('button', { name: 'See why' }).click();
    await expect(card.getByRole('status')).toHaveText('Blocked by policy');

    // A server added by hand that the policy forbids: its start dialog says so and offers no way to start it.
    const echo = fixtureCommand('echoServer');
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('dialog', { name: 'Add a server' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('forbidden');
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill(echo.command);
    await form.getByRole('textbox', { name: 'Arguments (one per line)' }).fill(echo.args.join('\n'));
    await form.getByRole('button', { name: 'Save' }).click();
    const start = page.getByRole('dialog', { name: 'forbidden cannot start' });
    await expect(start.getByRole('alert').first()).toContainText('Blocked by your organisation’s policy: it cannot start, whatever you approve.');
    await expect(start).toContainText('What it would run, were it allowed:');
    await expect(start).toContainText('(rule deniedMcpServers[1] {"serverName":"forbidden"}');
    await expect(start.getByRole('button', { name: 'Start server' })).toHaveCount(0);
    await page.screenshot({ path: 'e2e/artifacts/install-policy-start-dialog.png' });
    expect(await violationsInBothThemes(page, 'a blocked server’s start dialog')).toEqual([]);
    await start.getByRole('button', { name: 'Close' }).click();
    // Saved from the form, a server stays off until its start dialog starts it: this one never can be.
    await expect(page.getByRole('article', { name: 'forbidden', exact: true }).getByRole('status')).toHaveText('Disabled');

    await writeFile(policyFile, JSON.stringify({ deniedMcpServers: [] }));
    await expect(card.getByRole('status'), 'the policy is read again within seconds').toHaveText('Ready', { timeout: 5000 });
    await views.getByRole('button', { name: 'Chat', exact: true }).click();
    await expect(newConversation, 'a server turned off is not news').toContainText('The model can use the tools of the ready server; you approve what needs approving.');
    await expect(newConversation).not.toContainText('Not ready');
    await views.getByRole('button', { name: 'Servers', exact: true }).click();

    // A damaged policy is no policy skipped: every server stops until it is mended, and the file is left as it is (it is the organisation's).
    const damaged = '{ "deniedMcpServers": [ { "serverName": ';
    await writeFile(policyFile, damaged);
    await expect(card.getByRole('status')).toHaveText('Blocked by policy', { timeout: 5000 });
    await expect(card).toContainText(`Your organisation's policy file cannot be read (it is not valid JSON`);
    await expect(card).toContainText(`no server starts (${policyFile})`);
    await page.screenshot({ path: 'e2e/artifacts/install-policy-damaged.png' });
    expect(await readFile(policyFile, 'utf8'), 'Atrium never rewrites the organisation’s file').toBe(damaged);
    await writeFile(policyFile, '{}');
    await expect(card.getByRole('status')).toHaveText('Ready', { timeout: 5000 });
  } finally {
    await running.stop();
    await rm(folder, { recursive: true, force: true });
  }
});
