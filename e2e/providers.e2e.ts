// Model providers as a person manages them in Settings, against scripted model servers the official SDK
// clients talk to (each records the key it receives): a local server added with its key and its
// connection tested; a second provider under the same name refused beside the name; the first edited to
// another address, where its key does not follow unless the person ticks the box that names both
// addresses; a dead port and a refused key tested and explained. The key is never in the page.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import type { FakeLlmServer } from './fixtures/llm/fakeServerBase.ts';
import { startFakeOpenAi } from './fixtures/llm/fakeOpenAiServer.ts';
import { violationsInBothThemes } from './fixtures/axe.ts';
import { expect, startHostProcess, test } from './fixtures/hostProcess.ts';

const LOCAL_KEY = 'sk-local-typed-for-the-home-server-5e8b';
const WRONG_KEY = 'sk-wrong-key-typed-by-mistake-91c0';
let home: FakeLlmServer;
let elsewhere: FakeLlmServer;
let next: FakeLlmServer;

test.beforeAll(async () => {
  home = await startFakeOpenAi([], { models: ['llama3.2', 'qwen2.5'], key: LOCAL_KEY });
  elsewhere = await startFakeOpenAi([], { models: ['elsewhere-model'] });
  next = await startFakeOpenAi([], { models: ['llama3.2'], key: LOCAL_KEY });
});

test.afterAll(async () => {
  await Promise.all([home, elsewhere, next].map((server) => server?.close()));
});

const hostOf = (server: FakeLlmServer) => new URL(server.url).host;
/** The keys a server received, each once (the window also lists a provider's models after each change). */
const keysReceived = (server: FakeLlmServer) => [...new Set(server.requests.map((r) => r.headers['authorization']?.replace(/^Bearer /, '')))];

/** A port on 127.0.0.1 that was free a moment ago and that nothing listens on now. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

function row(page: Page, id: string) {
  return page.getByRole('region', { name: 'Providers' }).getByRole('listitem').filter({ has: page.getByRole('button', { name: `Edit ${id}` }) });
}

async function testConnection(page: Page, id: string): Promise<void> {
  await row(page, id).getByRole('button', { name: `Test connection to ${id}` }).click();
  await expect(page.getByRole('status', { name: `Connection to ${id}` })).toHaveText(/^[✓✗] /);
}

async function setBaseUrl(page: Page, id: string, url: string): Promise<void> {
  await row(page, id).getByRole('button', { name: `Edit ${id}` }).click();
  await page.getByRole('form', { name: `Edit ${id}` }).getByRole('textbox', { name: /^Base URL/ }).fill(url);
}

test('providers: add, a taken name refused, edit the address without taking the key along, test the connection', async ({ page }) => {
  const { host, stop } = await startHostProcess({ mcpServers: {} });
  try {
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const add = page.getByRole('form', { name: 'Add a provider' });
    const check = page.getByRole('status', { name: 'Connection to local' });

    await test.step('a local server added with its key answers the connection test with its models', async () => {
      await add.getByRole('textbox', { name: /^Name/ }).fill('local');
      await add.getByRole('combobox', { name: 'API' }).selectOption('openai-compatible');
      await add.getByRole('textbox', { name: /^Base URL/ }).fill(home.url);
      await add.getByLabel(/^API key/).fill(LOCAL_KEY);
      await add.getByRole('button', { name: 'Add provider' }).click();
      await expect(row(page, 'local')).toContainText('key set');
      await testConnection(page, 'local');
      await expect(check).toHaveText(new RegExp(`^✓ Reached ${hostOf(home)} in \\d+ ms, with its key\\. It offers 2 models: llama3\\.2, qwen2\\.5\\.$`));
      expect(keysReceived(home)).toEqual([LOCAL_KEY]);
      await page.screenshot({ path: 'e2e/artifacts/providers-tested.png' });
      await page.getByRole('combobox', { name: 'Default model for new conversations' }).selectOption({ label: 'qwen2.5' });
      await expect(page.getByRole('status').filter({ hasText: 'New conversations use qwen2.5' })).toBeVisible();
    });

    await test.step('a second provider under the same name is refused beside the name, and nothing typed is lost', async () => {
      await add.getByRole('textbox', { name: /^Name/ }).fill('local');
      await add.getByRole('combobox', { name: 'API' }).selectOption('openai');
      await add.getByRole('textbox', { name: /^Base URL/ }).fill(elsewhere.url);
      await add.getByRole('button', { name: 'Add provider' }).click();
      await expect(add.getByRole('textbox', { name: /^Name/ })).toHaveAccessibleDescription('A provider called "local" exists: edit it, or choose another name.');
      await expect(add.getByRole('textbox', { name: /^Base URL/ })).toHaveValue(elsewhere.url);
      await expect(row(page, 'local')).toContainText(home.url);
      await page.screenshot({ path: 'e2e/artifacts/providers-name-taken.png' });
      expect(elsewhere.requests, 'the other address never heard of the key').toEqual([]);
    });

    await test.step('editing the address: the form says the key is set, never shows it, and asks before the key follows', async () => {
      await setBaseUrl(page, 'local', elsewhere.url);
      const form = page.getByRole('form', { name: 'Edit local' });
      await expect(form.getByRole('combobox', { name: 'API' })).toHaveValue('openai-compatible');
      await expect(form).toContainText('Key set (stored encrypted; never shown).');
      const keep = form.getByRole('checkbox', { name: `Send the key set for ${hostOf(home)} to ${hostOf(elsewhere)} from now on` });
      await expect(keep).not.toBeChecked();
      await expect(form).toContainText(`Left unticked, the key is removed when you save: it was set for ${hostOf(home)}.`);
      expect(await page.content(), 'the key is not in the page').not.toContain(LOCAL_KEY);
      expect(await violationsInBothThemes(page, 'Settings, editing a provider')).toEqual([]);
      await page.screenshot({ path: 'e2e/artifacts/providers-edit-address.png' });
      await form.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Saved local;' })).toHaveText(
        `✓ Saved local; its key, set for ${hostOf(home)}, was removed: give it one for ${hostOf(elsewhere)} if it needs one`,
      );
      await expect(row(page, 'local')).toContainText('no key');
      await expect(page.getByRole('button', { name: 'Edit local' }), 'the keyboard is back on Edit').toBeFocused();
    });

    await test.step('the new address is reached without the old key', async () => {
      await testConnection(page, 'local');
      await expect(check).toHaveText(new RegExp(`^✓ Reached ${hostOf(elsewhere)} in \\d+ ms, without a key\\. It offers one model: elsewhere-model\\.$`));
      expect(keysReceived(elsewhere)).toEqual(['not-needed']);
      // The default was chosen at the old address: the new one does not offer it, and Settings says so.
      await expect(page.getByRole('region', { name: 'Defaults' }).getByRole('note')).toHaveText('qwen2.5 is not among the models local offers now: new conversations may fail until you choose another.');
    });

    await test.step('a dead port: the test says nothing answers there', async () => {
      const dead = `http://127.0.0.1:${await closedPort()}/v1`;
      await setBaseUrl(page, 'local', dead);
      await page.getByRole('form', { name: 'Edit local' }).getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('form', { name: 'Edit local' })).toBeHidden();
      await testConnection(page, 'local');
      await expect(check).toHaveText(`✗ OpenAI-compatible provider "local": cannot reach ${dead} (connection refused). Is the server running?`);
      await page.screenshot({ path: 'e2e/artifacts/providers-dead-port.png' });
    });

    await test.step('a key given again, then moved to another address because the person ticked the box naming both', async () => {
      await setBaseUrl(page, 'local', home.url);
      const form = page.getByRole('form', { name: 'Edit local' });
      await form.getByLabel(/^API key/).fill(LOCAL_KEY);
      await form.getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Saved local with its new key' })).toBeVisible();
      await setBaseUrl(page, 'local', next.url);
      await page.getByRole('checkbox', { name: `Send the key set for ${hostOf(home)} to ${hostOf(next)} from now on` }).check();
      await page.getByRole('form', { name: 'Edit local' }).getByRole('button', { name: 'Save' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Saved local;' })).toHaveText(`✓ Saved local; its key goes to ${hostOf(next)} from now on`);
      await testConnection(page, 'local');
      await expect(check).toContainText(`✓ Reached ${hostOf(next)}`);
      expect(keysReceived(next)).toEqual([LOCAL_KEY]);
    });

    await test.step('another API at the same address asks too before the key goes with it; Cancel changes nothing', async () => {
      await row(page, 'local').getByRole('button', { name: 'Edit local' }).click();
      const form = page.getByRole('form', { name: 'Edit local' });
      await form.getByRole('combobox', { name: 'API' }).selectOption('openai');
      await expect(
        form.getByRole('checkbox', { name: `Keep the key: send it to ${hostOf(next)} over the OpenAI Chat Completions API from now on, not an OpenAI-compatible server’s API` }),
      ).not.toBeChecked();
      await form.getByRole('button', { name: 'Cancel' }).click();
      await expect(form).toBeHidden();
      await expect(row(page, 'local')).toContainText('openai-compatible');
      await expect(row(page, 'local')).toContainText('key set');
    });

    await test.step('a wrong key: the test says it was refused, and the key is not shown', async () => {
      await row(page, 'local').getByRole('button', { name: 'Edit local' }).click();
      const form = page.getByRole('form', { name: 'Edit local' });
      await form.getByRole('button', { name: 'Replace key' }).click();
      await form.getByLabel(/^New API key/).fill(WRONG_KEY);
      await form.getByRole('button', { name: 'Save' }).click();
      // The form closes once the key is saved; a test before that would ask with the old key.
      await expect(form).toBeHidden();
      await testConnection(page, 'local');
      await expect(check).toHaveText(/^✗ OpenAI-compatible provider "local" rejected the API key \(HTTP 401\): Incorrect API key provided: \*\*\*\. Check the key/);
      expect(await page.content()).not.toContain(WRONG_KEY);
      await page.screenshot({ path: 'e2e/artifacts/providers-key-refused.png' });
    });
  } finally {
    await stop();
  }
});
