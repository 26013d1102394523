// A reply copied and a conversation saved, as a person does every day: Copy puts the reply's words on the
// clipboard as the window shows them (a hidden character as its mark), a code block's Copy its code alone,
// and Export saves the conversation
// as Markdown or JSON under its title's name, as `atrium history export` does.
import { readFile } from 'node:fs/promises';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { holdStream } from './fixtures/llm/streamHold.ts';

// U+202E (right-to-left override) would reverse what follows wherever the words are pasted.
const feeding = holdStream('Then this:\n\n```sh\nfeed');
const env = chatHostFor(
  [
    { text: 'Plant **basil** by the window.\u202Eevil' },
    { text: 'Water it like this:\n\n```sh\nwater --litres 2 basil\n```\n\nEvery morning.' },
    { text: 'Then this:\n\n```sh\nfeed --grams 5 basil\n```\n\nOnce a week.', hold: feeding },
    { text: 'Prune it:\n\n```sh\nprune --top basil\n```' },
  ],
  {},
);

test('Copy puts a reply on the clipboard as shown; Export saves the conversation as Markdown or JSON', async ({ page }) => {
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env().host.url });
  await openApp(page, env().host, []);
  await sendMessage(page, 'garden tips');
  const reply = page.getByRole('listitem', { name: 'Assistant' }).last();
  await expect(reply).toContainText('Plant basil by the window.');

  await test.step('Copy: the Markdown of the reply, with the hidden character as its mark', async () => {
    await reply.getByRole('button', { name: 'Copy the reply' }).click();
    await expect(reply.getByRole('status')).toHaveText('Copied');
    const copied = (await page.evaluate('navigator.clipboard.readText()')) as string;
    expect(copied).toContain('Plant **basil** by the window.');
    expect(copied, 'no hidden character reaches the clipboard').not.toContain('\u202E');
    expect(copied).toMatch(/⟨.*202E.*⟩evil/);
    await expect(reply.getByRole('status'), 'the note goes away by itself').toHaveText('');
  });

  await test.step('a code block has a Copy of its own: the code alone', async () => {
    await sendMessage(page, 'how do I water it?');
    const withCode = page.getByRole('listitem', { name: 'Assistant' }).last();
    await expect(withCode).toContainText('Every morning.');
    await withCode.locator('pre').hover();
    await withCode.getByRole('button', { name: 'Copy the code' }).click();
    await expect(withCode.getByRole('status').first()).toHaveText('Copied');
    expect(((await page.evaluate('navigator.clipboard.readText()')) as string).trim()).toBe('water --litres 2 basil');
    await page.screenshot({ path: 'e2e/artifacts/reply-copy-code.png' });
  });

  await test.step('a code block highlighted while its reply still streams shows the rest once it comes', async () => {
    await sendMessage(page, 'and feeding?');
    const streaming = page.getByRole('listitem', { name: 'Assistant (replying)' });
    // The pause lets the highlighting pass run on the half-written block (an idle moment mid-stream).
    await expect(streaming.locator('pre code.hljs')).toHaveCount(1);
    feeding.release();
    const done = page.getByRole('listitem', { name: 'Assistant' }).last();
    await expect(done).toContainText('Once a week.');
    await expect(done.locator('pre')).toContainText('feed --grams 5 basil');
  });

  await test.step('Export as Markdown and as JSON, named after the conversation', async () => {
    const head = page.getByRole('region', { name: 'Conversation: garden tips' });
    await head.getByRole('button', { name: 'Export' }).click();
    await page.screenshot({ path: 'e2e/artifacts/conversation-export.png' });
    const markdown = page.waitForEvent('download');
    await page.getByRole('group', { name: 'Export the conversation' }).getByRole('button', { name: 'As Markdown' }).click();
    const saved = await markdown;
    expect(saved.suggestedFilename()).toBe('garden-tips.md');
    const text = await readFile((await saved.path()) ?? '', 'utf8');
    expect(text).toContain('garden tips');
    expect(text).toContain('Plant **basil** by the window.');
    await expect(page.getByRole('group', { name: 'Export the conversation' }), 'the menu closes once saved').toBeHidden();
    await expect(head.getByRole('button', { name: 'Export' }), 'the keyboard is back on Export').toBeFocused();
    await head.getByRole('button', { name: 'Export' }).press('Enter');
    await page.getByRole('group', { name: 'Export the conversation' }).getByRole('button', { name: 'As JSON' }).focus();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('group', { name: 'Export the conversation' })).toBeHidden();
    await expect(head.getByRole('button', { name: 'Export' }), 'Escape closes it, back on Export').toBeFocused();

    await head.getByRole('button', { name: 'Export' }).click();
    const json = page.waitForEvent('download');
    await page.getByRole('group', { name: 'Export the conversation' }).getByRole('button', { name: 'As JSON' }).click();
    const savedJson = await json;
    expect(savedJson.suggestedFilename()).toBe('garden-tips.json');
    const parsed = JSON.parse(await readFile((await savedJson.path()) ?? '', 'utf8')) as { messages: unknown[] };
    expect(parsed.messages.length).toBeGreaterThanOrEqual(2);
  });
});

test('on a touch screen, where nothing is pointed at, a code block shows its Copy', async ({ browser }) => {
  const touch = await browser.newContext({ hasTouch: true });
  try {
    const page = await touch.newPage();
    await openApp(page, env().host, []);
    await sendMessage(page, 'and pruning?');
    const reply = page.getByRole('listitem', { name: 'Assistant' }).last();
    await expect(reply).toContainText('prune --top basil');
    await expect(reply.locator('.copy-button').filter({ has: page.getByRole('button', { name: 'Copy the code' }) })).toHaveCSS('opacity', '1');
  } finally {
    await touch.close();
  }
});
