// A hostile MCP Apps view (issue 16), from the app-view fixture server's `inspect` tool: on load it tries
// to reach Atrium's page, its address and storage, the network, another server's tool, a tool for the
// model only, javascript: and file: links, and another view, and writes down what happened; then it
// calls its own tool (the person is asked, and denies) and floods the page with messages. Nothing works,
// and the page stays usable.
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';
import { approve, viewOf } from './fixtures/appViews.ts';

const env = chatHostFor(
  [
    { toolCalls: [{ name: 'views__show_chart', input: { numbers: [1, 2, 3] } }] },
    { text: 'Here is your chart.' },
    { toolCalls: [{ name: 'views__inspect', input: {} }] },
    { text: 'Inspecting it.' },
  ],
  { views: fixtureCommand('appViewServer'), echo: fixtureCommand('echoServer') },
);


test('a hostile view reaches nothing: not the page, its storage or the network; not another server, a link it may not open, or another view; a flood stops it and the page stays usable', async ({ page }) => {
  test.setTimeout(120_000);
  await openApp(page, env().host, ['views', 'echo']);
  // A second view on the page, for the hostile one to try to take over.
  await sendMessage(page, 'show me a chart of 1, 2 and 3');
  await approve(page, 'show_chart', 'Allow once');
  await page.getByRole('region', { name: 'View of views/show_chart, not shown yet' }).getByRole('button', { name: 'Show view', exact: true }).click();
  const chart = viewOf(page, 'show_chart');
  await expect(chart.getByText('Result: A chart of 3 numbers.')).toBeVisible();

  await sendMessage(page, 'inspect it');
  await approve(page, 'inspect', 'Allow once');
  const offer = page.getByRole('region', { name: 'View of views/inspect, not shown yet' });
  await expect(offer, 'the origin it declared is named').toContainText('https://api.example.org');
  await expect(offer, 'what it declared that is not allowed is said').toContainText('"ftp://files.example.org" is not an https origin');
  await offer.getByRole('button', { name: 'Show view', exact: true }).click();

  const hostile = viewOf(page, 'inspect');
  const attempt = (what: string) => hostile.locator(`li[data-attempt="${what}"]`);
  await expect(attempt('ready')).toHaveText('ready: yes');
  for (const what of ['parent page', 'top page', 'top address', 'storage', 'cookies']) await expect(attempt(what)).toHaveText(`${what}: blocked`);
  await expect(attempt('fetch')).toHaveText('fetch: failed');
  await expect(attempt('policy'), 'an origin it did not declare is blocked by its policy').toHaveText('policy: blocked connect-src https://example.com/steal');
  await expect(attempt('other server tool')).toContainText('refused');
  await expect(attempt('javascript link')).toContainText('refused');
  await expect(attempt('file link')).toContainText('refused');
  await expect(attempt('model-only tool')).toContainText('refused');
  await expect(page.getByRole('dialog'), 'a message posted past its relay asked nothing').toHaveCount(0);
  await expect(chart.getByText('Result: A chart of 3 numbers.'), 'the other view was not taken over').toBeVisible();
  await page.screenshot({ path: 'e2e/artifacts/app-view-hostile.png' });

  await hostile.getByRole('button', { name: 'Call my tool' }).click();
  await expect(page.getByRole('dialog', { name: 'Run refresh_chart?' })).toContainText('The view of views/inspect');
  await approve(page, 'refresh_chart', 'Deny');
  await expect(attempt('own tool')).toContainText('refused');

  await hostile.getByRole('button', { name: 'Flood' }).click();
  await expect(page.getByRole('region', { name: 'View of views/inspect, not shown yet' })).toContainText('It was stopped: it sent more messages than a view may.');
  await page.getByRole('button', { name: 'Servers' }).click();
  await expect(page.getByRole('article', { name: 'views', exact: true }).getByRole('status')).toHaveText('Ready');
});
