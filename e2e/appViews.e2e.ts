// MCP Apps in the window, a first step (issue 16): a server's Tools tab says which tools have a view and
// which are for their view only (never offered to the model). Views are not rendered yet.
import { openApp } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

test.use({ hostServers: { views: { ...fixtureCommand('appViewServer'), trusted: true } } });

test('MCP Apps (_meta.ui): the Tools tab marks a tool with a view, and one for its view only', async ({ page, host }) => {
  await openApp(page, host, ['views']);
  await page.getByRole('button', { name: 'Servers' }).click();
  await page.getByRole('article', { name: 'views', exact: true }).getByRole('button', { name: 'views', exact: true }).click();
  await page.getByRole('tab', { name: 'Tools' }).click();
  const tools = page.getByRole('list', { name: 'Tools of views' });
  const row = (name: string) => tools.getByRole('listitem').filter({ hasText: name });
  await expect(row('Shows a chart').getByText('has a view')).toHaveAttribute('title', 'ui://charts/view.html');
  await expect(row('Refreshes the chart').getByText('for its view only — not offered to the model')).toBeVisible();
  await expect(row('Adds numbers').getByText('has a view')).toHaveCount(0);
  await page.screenshot({ path: 'e2e/artifacts/app-views-tools-tab.png' });
});
