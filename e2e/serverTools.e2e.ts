// What a person controls per server, in Debian's Chromium against a real host: a tool switched off is
// no longer offered to the model; an "always" answer becomes a permission that can be revoked; and a
// result carrying hidden characters shows them as visible marks with a warning.
import type { Page } from '@playwright/test';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';


const env = chatHostFor(
  [
    { toolCalls: [{ name: 'echo__echo', input: { text: 'invoice\u202Efdp.exe' } }] },
    { text: 'Echoed.' },
    { text: 'No add tool here.' },
  ],
  { echo: fixtureCommand('echoServer') },
);

async function openServerTab(page: Page, tab: 'Log' | 'Tools' | 'Permissions'): Promise<void> {
  await page.getByRole('button', { name: 'Servers' }).click();
  await page.getByRole('article', { name: 'echo', exact: true }).getByRole('button', { name: 'echo', exact: true }).click();
  await page.getByRole('tab', { name: tab }).click();
}


test('servers: hidden characters made visible or removed, an always-answer revoked, a tool switched off for the model', async ({ page }) => {
  await openApp(page, env().host, ['echo']);

  await test.step('a result with a bidi override shows the hidden character and a warning', async () => {
    await sendMessage(page, 'echo this file name');
    const dialog = page.getByRole('dialog', { name: 'Run echo?' });
    await expect(dialog.getByLabel('Arguments')).toContainText('invoice⟨U+202E⟩fdp.exe');
    await expect(dialog.getByRole('img', { name: 'Warning: this text contains hidden characters' }).first()).toBeVisible();
    await dialog.getByRole('button', { name: 'Always allow' }).click();
    const result = page.getByRole('article', { name: 'Tool call echo/echo' }).getByLabel('Result of echo');
    // The model's arguments show the mark; the server's echo is neutralised where it enters the host, with a mark where the override was.
    await expect(result).toContainText('invoice⟨U+202E⟩fdp.exe');
    await expect(result.locator('mark.hidden-char')).toHaveCount(1);
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Echoed.');
  });

  await test.step('the "always" answer is a rule, and "Ask as usual" revokes it', async () => {
    await openServerTab(page, 'Permissions');
    const rule = page.getByRole('list', { name: 'Rules for echo' }).getByRole('combobox', { name: 'Rule for echo' });
    await expect(rule).toHaveValue('allow');
    await page.screenshot({ path: 'e2e/artifacts/servers-permissions.png' });
    // The choice shows what the host holds: it turns to "Ask as usual" once the grant is revoked.
    await rule.selectOption('ask');
    await expect(rule).toHaveValue('ask');
  });

  await test.step('a tool switched off is not offered to the model', async () => {
    await openServerTab(page, 'Tools');
    const add = page.getByRole('switch', { name: 'add on' });
    await expect(add).toHaveAttribute('aria-checked', 'true');
    await add.click();
    await expect(add).toHaveAttribute('aria-checked', 'false');
    await page.screenshot({ path: 'e2e/artifacts/servers-tools.png' });
    await sendMessage(page, 'what tools do you have?');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('No add tool here.');
    const offered = (env().llm.requests.filter((r) => r.method === 'POST').at(-1)?.body as { tools?: { name: string }[] }).tools?.map((t) => t.name) ?? [];
    expect(offered).toContain('echo__echo');
    expect(offered).not.toContain('echo__add');
  });
});
