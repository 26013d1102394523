// Settings as a person uses them, against a real host with no provider yet: a provider added with its
// key typed into the window (stored encrypted, never shown again, sent only to that provider), the
// default model chosen, a chat that then works, and the theme kept across reloads.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FakeLlmServer } from './fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from './fixtures/llm/fakeAnthropicServer.ts';
import { sendMessage } from './fixtures/chatHost.ts';
import type { HostProcess } from './fixtures/hostProcess.ts';
import { expect, startHostProcess, test } from './fixtures/hostProcess.ts';

const KEY = 'sk-ant-typed-into-the-window-4d2f';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
let llm: FakeLlmServer;
let host: HostProcess;
let stopHost: () => Promise<unknown>;

test.beforeAll(async () => {
  llm = await startFakeAnthropic([{ text: 'Hello from the provider you added.' }, { text: 'I see a red dot and your notes.' }], { models: ['claude-fake-1', 'claude-fake-2'] });
  const started = await startHostProcess({ mcpServers: {} });
  host = started.host;
  stopHost = started.stop;
});

test.afterAll(async () => {
  await stopHost?.();
  await llm?.close();
});

test('settings: a provider and its key added in the window, the default model chosen, a chat that works, the theme kept', async ({ page }) => {
  await page.goto(host.url);
  await expect(page.getByRole('button', { name: 'Get started' }), 'a first run opens on Get started').toHaveAttribute('aria-current', 'page');
  await page.getByRole('button', { name: 'Settings' }).click();

  await test.step('the key is stored encrypted and the window only learns that it is set', async () => {
    const form = page.getByRole('form', { name: 'Add a provider' });
    await expect(form.getByLabel(/^API key/)).toBeVisible();
    // The browser mode's store is not the weak keychain fallback: no warning, nothing to accept.
    await expect(page.getByText('Keys are not well protected on this computer')).toHaveCount(0);
    await form.getByRole('textbox', { name: /^Name/ }).fill('claude');
    await form.getByRole('combobox', { name: 'API' }).selectOption('anthropic');
    await form.getByRole('textbox', { name: /^Base URL/ }).fill(llm.url);
    await form.getByLabel(/^API key/).fill(KEY);
    await form.getByRole('button', { name: 'Add provider' }).click();
    const providers = page.getByRole('region', { name: 'Providers' });
    await expect(providers.getByRole('listitem').filter({ hasText: 'claude' })).toContainText('key set');
    expect(await page.content(), 'the key is not in the page').not.toContain(KEY);
    const providersFile = await readFile(join(host.home, 'providers.json'), 'utf8');
    expect(providersFile).not.toContain(KEY);
    expect((await readFile(join(host.home, 'secrets.enc'))).includes(Buffer.from(KEY)), 'not on disk in the clear').toBe(false);
  });

  await test.step('the default model comes from the provider’s own list', async () => {
    await page.getByRole('combobox', { name: 'Default model for new conversations' }).selectOption({ label: 'claude-fake-2' });
    await expect(page.getByRole('status').filter({ hasText: 'New conversations use claude-fake-2' })).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/settings.png' });
  });

  await test.step('a chat goes to that provider, with that key, and that model', async () => {
    await sendMessage(page, 'hello');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Hello from the provider you added.');
    const sent = llm.requests.filter((r) => r.method === 'POST').at(-1);
    expect(sent?.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect((sent?.body as { model: string }).model).toBe('claude-fake-2');
  });

  await test.step('an image and text files attached go to the model; a file it cannot take is refused when attached, the others kept', async () => {
    const picker = page.getByLabel('Attach files');
    await picker.setInputFiles([
      { name: 'dot.png', mimeType: 'image/png', buffer: Buffer.from(PNG, 'base64') },
      { name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('buy lemons') },
      // Saved by an older Windows editor: Windows-1252, not UTF-8.
      { name: 'menu.txt', mimeType: 'text/plain', buffer: Buffer.from([0x63, 0x61, 0x66, 0xe9]) },
      { name: 'blob.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([0, 1, 2, 3]) },
      { name: 'scan.tiff', mimeType: 'image/tiff', buffer: Buffer.from([0x49, 0x49, 0x2a, 0]) },
    ]);
    const chips = page.getByRole('list', { name: 'Attached files' });
    await expect(chips.getByRole('listitem')).toHaveText(['dot.png×', 'notes.txt×', 'menu.txt×']);
    const refused = page.getByRole('alert').filter({ hasText: 'blob.bin' });
    await expect(refused, 'said when attached, not after the message was written').toHaveText(
      'blob.bin is neither an image nor text: attach PNG, JPEG, GIF or WebP images, or text files. scan.tiff is an image of a kind models do not take: attach PNG, JPEG, GIF or WebP images, or text files.',
    );
    // The files wait with their conversation: never in another one's message, and still there after another view.
    await page.getByRole('button', { name: 'New conversation' }).click();
    await expect(page.getByRole('heading', { name: 'New conversation' })).toBeVisible();
    await expect(chips, 'a file attached in one conversation never goes with a message of another').toHaveCount(0);
    await page.getByRole('navigation', { name: 'Conversations' }).getByRole('button', { name: 'hello', exact: true }).click();
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('button', { name: 'Chat' }).click();
    await expect(chips.getByRole('listitem'), 'back in their conversation, after another view').toHaveText(['dot.png×', 'notes.txt×', 'menu.txt×']);
    await sendMessage(page, 'what do you see?');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('I see a red dot and your notes.');
    await expect(page.getByRole('img', { name: 'Attached image' })).toBeVisible();
    // An attached file's text is folded under its name in the person's message; opened, it is all there.
    const mine = page.getByRole('listitem', { name: 'You' }).last();
    const notes = mine.getByRole('group').filter({ hasText: 'Attached file notes.txt' });
    await expect(notes).toContainText('Attached file notes.txt · 10 characters');
    await expect(mine.getByText('buy lemons')).toBeHidden();
    await notes.getByText('Attached file notes.txt').click();
    await expect(mine.getByText('buy lemons')).toBeVisible();
    const body = JSON.stringify(llm.requests.filter((r) => r.method === 'POST').at(-1)?.body);
    expect(body).toContain(PNG);
    expect(body).toContain('Attached file notes.txt:\\nbuy lemons');
    expect(body).toContain('Attached file menu.txt:\\ncafé');
  });

  await test.step('a pasted screenshot and files dropped on the conversation are attached; a file dropped elsewhere does nothing', async () => {
    const chips = page.getByRole('list', { name: 'Attached files' });
    // In the page: a DataTransfer is the browser's own, as a paste or a drop brings it.
    // Two pasted in a row, the second before the first is read: both are kept.
    await page.evaluate(`(() => {
      for (const name of ['image.png', 'again.png']) {
        const clipboard = new DataTransfer();
        clipboard.items.add(new File([Uint8Array.from(atob(${JSON.stringify(PNG)}), (c) => c.charCodeAt(0))], name, { type: 'image/png' }));
        document.querySelector('textarea[aria-label="Message"]').dispatchEvent(new ClipboardEvent('paste', { clipboardData: clipboard, bubbles: true, cancelable: true }));
      }
    })()`);
    await expect(chips.getByRole('listitem')).toHaveText(['image.png×', 'again.png×']);
    const dropped = await page.evaluateHandle(`(() => {
      const transfer = new DataTransfer();
      transfer.items.add(new File(['buy limes'], 'list.txt', { type: 'text/plain' }));
      return transfer;
    })()`);
    await page.dispatchEvent('form.composer', 'dragover', { dataTransfer: dropped });
    await expect(page.getByText('Drop the files to attach them')).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/composer-drop.png' });
    await page.dispatchEvent('form.composer', 'drop', { dataTransfer: dropped });
    await expect(chips.getByRole('listitem')).toHaveText(['image.png×', 'again.png×', 'list.txt×']);
    await expect(page.getByText('Drop the files to attach them')).toHaveCount(0);
    // Dropped on the conversation above the box, it is attached too; dropped outside the conversation
    // (the top bar), nothing takes it and nothing happens.
    const dropOn = (selector: string, name: string) =>
      page.evaluate(`(() => {
        const transfer = new DataTransfer();
        transfer.items.add(new File(['x'], ${JSON.stringify(name)}, { type: 'text/plain' }));
        const drop = new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true });
        document.querySelector(${JSON.stringify(selector)}).dispatchEvent(drop);
        return !drop.defaultPrevented;
      })()`);
    expect(await dropOn('[aria-label="Messages"]', 'onto-the-reply.txt'), 'taken by the conversation').toBe(false);
    await expect(chips.getByRole('listitem')).toHaveText(['image.png×', 'again.png×', 'list.txt×', 'onto-the-reply.txt×']);
    expect(await dropOn('header.topbar', 'stray.txt'), 'the browser does not open a file dropped outside the conversation in place of Atrium').toBe(false);
    await expect(chips.getByRole('listitem')).toHaveCount(4);
    await chips.getByRole('button', { name: 'Remove image.png' }).click();
    await chips.getByRole('button', { name: 'Remove again.png' }).click();
    await chips.getByRole('button', { name: 'Remove onto-the-reply.txt' }).click();
    await chips.getByRole('button', { name: 'Remove list.txt' }).click();
  });

  await test.step('the theme chosen is kept across a reload', async () => {
    await page.getByRole('button', { name: 'Settings' }).click();
    await page.getByRole('radio', { name: 'Dark' }).check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  });
});
