// One first session, as a newcomer lives it, in a fresh data folder and a fresh browser profile: Get
// started, the sample server, a provider and its key from Settings, a first message with a tool call, a
// server's form answered with a mistake first, every view and back, a wrong key (the turn ends; Send and
// Retry work), a reload, and a server's config pasted from its README. Each step saves a screenshot
// (e2e/artifacts/new-user-*.png) for a reviewer to look at.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { FakeLlmServer } from './fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from './fixtures/llm/fakeAnthropicServer.ts';
import type { RunningHost } from './fixtures/hostProcess.ts';
import { expect, startHostProcess, test } from './fixtures/hostProcess.ts';
import { sendMessage } from './fixtures/chatHost.ts';
import { fixtureCommand } from './servers/launch.ts';

let llm: FakeLlmServer;
let running: RunningHost;

test.beforeAll(async () => {
  llm = await startFakeAnthropic(
    [
      { toolCalls: [{ name: 'atrium-sample__list_notes', input: {} }] },
      { text: 'You have a welcome note.' },
      { toolCalls: [{ name: 'atrium-sample__ask_for_details', input: { reason: 'What should the note be called?' } }] },
      { text: 'Noted: Groceries.' },
      { error: { status: 401, message: 'invalid x-api-key' } },
      { text: 'Answered on the second try.' },
    ],
    { models: ['claude-newcomer'] },
  );
  // Nothing configured: no servers, no providers, no keys in the environment.
  running = await startHostProcess({ mcpServers: {} });
});

test.afterAll(async () => {
  await running?.stop();
  await llm?.close();
});

let shot = 0;
async function screenshot(page: Page, name: string): Promise<void> {
  shot += 1;
  await page.screenshot({ path: `e2e/artifacts/new-user-${String(shot).padStart(2, '0')}-${name}.png`, fullPage: true });
}

/** What a person checks to know a turn is over: nothing thinking, no Stop, Send works again. */
async function expectTurnOver(page: Page): Promise<void> {
  await expect(page.getByText('Thinking…')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Stop', exact: true })).toBeHidden();
  const box = page.getByRole('textbox', { name: 'Message' });
  await box.fill('probe');
  await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeEnabled();
  await box.fill('');
}

/** Nothing in the window asks a person to edit a file or pass a flag. */
async function expectNoCommandLineWords(page: Page): Promise<void> {
  expect((await page.locator('body').textContent()) ?? '').not.toMatch(/providers\.json|servers\.json|--model|--provider|--config|--approve/);
}

test('a newcomer’s first session, from an empty data folder to a pasted server, never breaks', async ({ page }) => {
  await page.goto(running.host.url);
  await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();

  await test.step('Get started opens first and says nothing is set up yet', async () => {
    await expect(page.getByRole('button', { name: 'Get started', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('list', { name: 'Your set-up' })).toContainText('No server yet');
    await expectNoCommandLineWords(page);
    await screenshot(page, 'first-run');
  });

  await test.step('the sample server is added, its command line approved, and it runs', async () => {
    await page.getByRole('button', { name: 'Add the sample server' }).click();
    await page.getByRole('dialog', { name: 'Start atrium-sample?' }).getByRole('button', { name: 'Start server' }).click();
    await expect(page.getByRole('list', { name: 'Your set-up' })).toContainText('atrium-sample (Ready)');
    await screenshot(page, 'sample-server');
  });

  await test.step('a provider and its key, from Settings', async () => {
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    const form = page.getByRole('form', { name: 'Add a provider' });
    await form.getByRole('textbox', { name: /^Name/ }).fill('claude');
    await form.getByRole('combobox', { name: 'API' }).selectOption('anthropic');
    await form.getByRole('textbox', { name: /^Base URL/ }).fill(llm.url);
    await form.getByLabel(/^API key/).fill('sk-ant-newcomer-not-real');
    await form.getByRole('button', { name: 'Add provider' }).click();
    await expect(page.getByRole('region', { name: 'Providers' }).getByRole('listitem').filter({ hasText: 'claude' })).toContainText('key set');
    await screenshot(page, 'provider');
    // Settings explains what only the command line offers without handing the person a flag.
    await expectNoCommandLineWords(page);
  });

  await test.step('the first message: the model shown answers, after a tool call of the trusted sample server', async () => {
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
    await expect(page.getByRole('combobox', { name: 'Model' }).locator('option:checked')).toHaveText('claude-newcomer');
    await sendMessage(page, 'what notes do I have?');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('You have a welcome note.');
    await expect(page.getByText('list_notes').first()).toBeVisible();
    await expectTurnOver(page);
    await expectNoCommandLineWords(page);
    await screenshot(page, 'first-reply');
  });

  await test.step('a server’s form: a mistake is explained beside its field, then the answer goes through', async () => {
    await sendMessage(page, 'make a note');
    const form = page.getByRole('dialog', { name: 'Information requested' });
    await expect(form).toContainText('What should the note be called?');
    await form.getByRole('button', { name: 'Send answer' }).click();
    await expect(form.getByRole('textbox', { name: /^Title/ }), 'the empty Title is refused beside it, in the form’s own words').toHaveAccessibleDescription(/Title is required/);
    await expect(form.getByRole('textbox', { name: /^Title/ })).toBeFocused();
    await screenshot(page, 'form-mistake');
    await form.getByRole('textbox', { name: /^Title/ }).fill('Groceries');
    await form.getByRole('button', { name: 'Send answer' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Noted: Groceries.');
    await expectTurnOver(page);
    await screenshot(page, 'form-answered');
  });

  await test.step('every other view and back: the conversation is still there', async () => {
    for (const view of ['Servers', 'Settings', 'Roots', 'Resources', 'Get started']) {
      await page.getByRole('button', { name: view, exact: true }).click();
      await page.getByRole('button', { name: 'Chat', exact: true }).click();
      await expect(page.getByRole('listitem', { name: 'You' }).first()).toContainText('what notes do I have?');
      await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Noted: Groceries.');
    }
    await screenshot(page, 'back-from-views');
  });

  await test.step('a key the provider refuses: said once, the turn ends, and Retry answers', async () => {
    await sendMessage(page, 'one more thing');
    const failed = page.getByRole('listitem', { name: 'Assistant' }).last().getByRole('alert');
    await expect(failed).toContainText('rejected the API key');
    expect((await failed.textContent()) ?? '').not.toMatch(/\.\.\s*$/);
    await expectTurnOver(page);
    await screenshot(page, 'wrong-key');
    await page.getByRole('listitem', { name: 'Assistant' }).last().getByRole('button', { name: 'Retry' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Answered on the second try.');
    await expectTurnOver(page);
  });

  await test.step('a reload lands where the person was: the conversation, then a server’s tab', async () => {
    await page.reload();
    await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
    // Without a click: the open conversation is open again.
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Answered on the second try.');
    await screenshot(page, 'after-reload');
    await page.getByRole('button', { name: 'Servers', exact: true }).click();
    await page.getByRole('article', { name: 'atrium-sample', exact: true }).getByRole('button', { name: 'atrium-sample', exact: true }).click();
    await page.getByRole('tab', { name: 'About' }).click();
    await page.reload();
    await expect(page.getByRole('tab', { name: 'About' })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('button', { name: 'Chat', exact: true }).click();
  });

  await test.step('a server’s config pasted from its README: previewed, added untrusted, started once approved', async () => {
    const echo = fixtureCommand('echoServer');
    await page.getByRole('button', { name: 'Servers', exact: true }).click();
    await page.getByRole('button', { name: 'Import…' }).click();
    const paste = page.getByRole('dialog', { name: 'Import servers' }).getByRole('region', { name: 'Paste a server’s config' });
    await paste.getByRole('textbox', { name: 'Server config (JSON)' }).fill(JSON.stringify({ mcpServers: { echo: { ...echo, trusted: true } } }, null, 2));
    await paste.getByRole('button', { name: 'Preview' }).click();
    await expect(paste.getByLabel('Command line of echo')).toHaveText([echo.command, ...echo.args].join(' '));
    await screenshot(page, 'paste-preview');
    await paste.getByRole('button', { name: 'Add 1 server' }).click();
    await page.getByRole('dialog', { name: 'Start echo?' }).getByRole('button', { name: 'Start server' }).click();
    await expect(page.getByRole('article', { name: 'echo', exact: true }).getByRole('status')).toHaveText('Ready');
    const stored = JSON.parse(await readFile(join(running.host.home, 'servers.json'), 'utf8')) as { mcpServers: Record<string, { trusted?: boolean }> };
    expect(stored.mcpServers['echo']?.trusted, 'trust is never imported').toBeUndefined();
    await expectNoCommandLineWords(page);
    await screenshot(page, 'pasted-server');
  });
});
