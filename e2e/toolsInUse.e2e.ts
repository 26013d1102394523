// Many tools (issue 17): with 102 tools (two servers of 51) the model searches for the ones it needs. The person sees which
// tools it has without searching and why — in the conversation's Tools panel and on the tool call's card —
// finds a tool and loads it by hand, keeps one always loaded, and unloads one; all of it survives a reload.
import { fileURLToPath } from 'node:url';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { approve } from './fixtures/appViews.ts';

const fiftyTools = { command: process.execPath, args: [fileURLToPath(new URL('../bench/servers/outputSchemaServer.ts', import.meta.url))], trusted: true };
const env = chatHostFor(
  [{ toolCalls: [{ name: 'atrium_search_tools', input: { query: 'tool_42', limit: 2 } }] }, { toolCalls: [{ name: 'second__tool_42', input: {} }] }, { text: 'Done with tool 42.' }],
  { first: fiftyTools, second: fiftyTools },
);

test('the person sees which tools the model has and why, loads one by hand, keeps one always loaded, and unloads one', async ({ page }) => {
  test.setTimeout(90_000);
  await openApp(page, env().host, ['first', 'second']);
  await expect(page.getByRole('button', { name: 'Tools: 0 loaded of 102' })).toBeVisible();
  await sendMessage(page, 'use tool 42');
  await approve(page, 'tool_42', 'Allow once');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Done with tool 42.');

  await test.step('the tool call’s card and the Tools panel say why the model had it', async () => {
    // The search is Atrium's own doing, said in a line, not a server's tool call waiting for ever.
    await expect(page.getByText('Searched the tools for “tool_42”')).toBeVisible();
    await expect(page.getByRole('article', { name: 'Tool call /' })).toHaveCount(0);
    await expect(page.getByRole('article', { name: 'Tool call second/tool_42' })).toContainText('The model had this tool found by the search “tool_42”.');
    await page.getByRole('button', { name: 'Tools: 2 loaded of 102' }).click();
    const panel = page.getByRole('region', { name: 'Tools the model has' });
    await expect(panel).toContainText('102 tools are available: the model searches for the tools it needs.');
    const loaded = panel.getByRole('list', { name: 'Loaded tools' });
    await expect(loaded.getByRole('listitem')).toHaveText([/second \/ tool_42 · found by the search “tool_42”/, /first \/ tool_42 · found by the search “tool_42”/]);
  });

  await test.step('a tool found by hand is loaded; one kept always loaded; one unloaded', async () => {
    const panel = page.getByRole('region', { name: 'Tools the model has' });
    await panel.getByRole('searchbox').fill('tool_9');
    await panel.getByRole('button', { name: 'Find', exact: true }).click();
    await panel.getByRole('list', { name: 'Tools found' }).getByRole('button', { name: 'Load first/tool_9' }).click();
    const loaded = panel.getByRole('list', { name: 'Loaded tools' });
    await expect(loaded).toContainText('first / tool_9 · loaded by you');
    await loaded.getByRole('switch', { name: 'second/tool_42 always loaded' }).click();
    await expect(loaded.getByRole('listitem').first()).toHaveText(/second \/ tool_42 · always loaded/);
    await loaded.getByRole('button', { name: 'Unload first/tool_42' }).click();
    await expect(loaded).not.toContainText('first / tool_42');
    await page.screenshot({ path: 'e2e/artifacts/tools-in-use.png' });
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(page.getByRole('button', { name: /^Tools: / }), 'Escape hands the keyboard back to the button that opened it').toBeFocused();
  });

  await test.step('after a reload the conversation still has them, and the server’s Tools tab shows the one kept always loaded', async () => {
    await page.reload();
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat', exact: true }).click();
    await page.getByRole('button', { name: /^use tool 42/ }).first().click();
    await page.getByRole('button', { name: 'Tools: 2 loaded of 102' }).click();
    const loaded = page.getByRole('region', { name: 'Tools the model has' }).getByRole('list', { name: 'Loaded tools' });
    await expect(loaded.getByRole('listitem')).toHaveText([/second \/ tool_42 · always loaded/, /first \/ tool_9 · loaded by you/]);
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('article', { name: 'second', exact: true }).getByRole('button', { name: 'second', exact: true }).click();
    await page.getByRole('tab', { name: 'Tools' }).click();
    await expect(page.getByRole('switch', { name: 'tool_42 always loaded' })).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByRole('switch', { name: 'tool_41 always loaded' })).toHaveAttribute('aria-checked', 'false');
  });
});
