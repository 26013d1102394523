// Server prompts as slash commands, in Debian's Chromium against a real host and the real
// server-everything: "/" lists the prompts, the keyboard picks one, its arguments complete from the
// server (the second argument's completions depend on the first), and the expansion is sent as the
// person's message, marked as coming from the prompt.
import { createRequire } from 'node:module';
import { chatHostFor, openApp, lastModelRequest } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';

const require = createRequire(import.meta.url);
const everythingServer = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');


const env = chatHostFor(
  [{ text: 'Bob now leads Engineering.' }, { text: 'Here is the first text resource.' }],
  { everything: { command: process.execPath, args: [everythingServer, 'stdio'] } },
);

test('MCP 2024-11-05 Prompts and Completion: "/" lists them, arguments complete from the server, the expansion is sent as from the prompt', async ({ page }) => {
  await openApp(page, env().host, ['everything']);
  const box = page.getByRole('textbox', { name: 'Message' });

  await test.step('"/" opens every server prompt; typing narrows it; the keyboard picks', async () => {
    await box.fill('/');
    const list = page.getByRole('listbox', { name: 'Prompts' });
    await expect(list.getByRole('option').first()).toBeVisible();
    await expect(list.getByRole('option')).not.toHaveCount(0);
    await box.fill('/team');
    await expect(list.getByRole('option')).toHaveCount(1);
    await expect(list.getByRole('option')).toContainText('/completable-prompt · everything');
    await page.screenshot({ path: 'e2e/artifacts/prompts-picker.png' });
    await box.press('Enter');
  });

  await test.step('each argument completes from the server, the second from what the first says; the keyboard picks and Escape closes the suggestions only', async () => {
    const form = page.getByRole('form', { name: 'Prompt completable-prompt' });
    const department = form.getByRole('combobox', { name: /^department/ });
    await expect(department).toBeFocused();
    await department.fill('Eng');
    const departments = form.getByRole('listbox', { name: 'Suggestions for department' });
    // What the server completes "Eng" to (the four departments, asked for the empty field, go first).
    await expect(departments.getByRole('option')).toHaveText(['Engineering']);
    await department.press('Escape');
    await expect(departments, 'Escape closes the suggestions').toBeHidden();
    await expect(form, '…not the form, nor what was typed').toBeVisible();
    await expect(department).toHaveValue('Eng');
    await department.press('ArrowDown');
    await expect(departments.getByRole('option', { name: 'Engineering' })).toHaveAttribute('aria-selected', 'true');
    await expect(department).toHaveAttribute('aria-activedescendant', /.+/);
    await department.press('Enter');
    await expect(department).toHaveValue('Engineering');
    await expect(form, 'Enter on a suggestion picks it and runs nothing').toBeVisible();
    // Half filled, the prompt waits with its conversation while another view is shown.
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('button', { name: 'Chat' }).click();
    await expect(department, 'what was typed is still there after another view').toHaveValue('Engineering');
    const name = form.getByRole('combobox', { name: /^name/ });
    await name.click();
    const people = form.getByRole('listbox', { name: 'Suggestions for name' });
    await expect(people.getByRole('option')).toHaveText(['Alice', 'Bob', 'Charlie']);
    await page.screenshot({ path: 'e2e/artifacts/prompts-arguments.png' });
    await people.getByRole('option', { name: 'Bob' }).click();
    await form.getByRole('button', { name: 'Run prompt' }).click();
  });

  await test.step('the expansion is the person’s message, marked as from the prompt, and the model answers it', async () => {
    const mine = page.getByRole('listitem', { name: 'You, from prompt completable-prompt' });
    await expect(mine).toContainText('from prompt /completable-prompt · everything');
    await expect(mine).toContainText('Please promote Bob to the head of the Engineering team.');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Bob now leads Engineering.');
    expect(lastModelRequest(env().llm)).toContain('Please promote Bob to the head of the Engineering team.');
    await expect(box, 'run, the prompt gives the keyboard back to the message box').toBeFocused();
  });

  await test.step('a prompt given up with Escape gives the keyboard back to the message box, with what was typed', async () => {
    await box.fill('/args');
    await box.press('Enter');
    const form = page.getByRole('form', { name: 'Prompt args-prompt' });
    await expect(form.getByRole('combobox', { name: /^city/ })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(form).toBeHidden();
    await expect(box).toBeFocused();
    await expect(box).toHaveValue('/args');
  });

  await test.step('Run with a required argument empty says which one under its field and puts the cursor there; filled, the words go', async () => {
    await box.press('Enter');
    const form = page.getByRole('form', { name: 'Prompt args-prompt' });
    const city = form.getByRole('combobox', { name: /^city/ });
    await form.getByRole('button', { name: 'Run prompt' }).click();
    await expect(form, 'nothing ran').toBeVisible();
    await expect(city).toHaveAccessibleDescription('city is needed to run this prompt.');
    await expect(city).toHaveAttribute('aria-invalid', 'true');
    await expect(city).toBeFocused();
    await page.screenshot({ path: 'e2e/artifacts/prompts-argument-missing.png' });
    await city.fill('Paris');
    await expect(form.getByText('city is needed to run this prompt.')).toBeHidden();
    await expect(city).not.toHaveAttribute('aria-invalid', 'true');
    await form.getByRole('button', { name: 'Cancel' }).click();
    await expect(form).toBeHidden();
  });

  await test.step('arguments the server refuses: the form stays with them, saying why; one corrected, it runs', async () => {
    await box.fill('/resource-prompt');
    await box.press('Enter');
    const form = page.getByRole('form', { name: 'Prompt resource-prompt' });
    await form.getByRole('combobox', { name: /^resourceType/ }).fill('Txt');
    await form.getByRole('combobox', { name: /^resourceId/ }).fill('1');
    await form.getByRole('button', { name: 'Run prompt' }).click();
    await expect(form.getByRole('alert')).toContainText('Invalid resourceType: Txt. Must be Text or Blob.');
    await expect(form.getByRole('combobox', { name: /^resourceId/ }), 'nothing typed is lost').toHaveValue('1');
    await page.screenshot({ path: 'e2e/artifacts/prompts-refused-arguments.png' });
    await form.getByRole('combobox', { name: /^resourceType/ }).fill('Text');
    await form.getByRole('button', { name: 'Run prompt' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Here is the first text resource.');
  });
});
