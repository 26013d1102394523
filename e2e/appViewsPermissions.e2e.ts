// MCP Apps: the browser permissions a view declares (issue 16). The fixture's map view asks for the
// person's location (and to write to the clipboard). Until the person allows it for the server, the frame's
// policy blocks it, even though this browser would grant it; once ticked the view starts again and gets the
// position; revoked in the server's Permissions, it is blocked again.
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import type { Locator } from '@playwright/test';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';
import { approve, viewOf } from './fixtures/appViews.ts';

const env = chatHostFor([{ toolCalls: [{ name: 'views__show_map', input: {} }] }, { text: 'Here is the map.' }], { views: fixtureCommand('appViewServer') });

test('a view’s location is blocked until the person allows it for the server, then given, then blocked again once revoked', async ({ page }) => {
  test.setTimeout(90_000);
  // The browser itself would say yes: only Atrium's choice stands between the view and the position.
  await page.context().grantPermissions(['geolocation']);
  await page.context().setGeolocation({ latitude: 52.37, longitude: 4.9 });
  await openApp(page, env().host, ['views']);
  await sendMessage(page, 'where am I?');
  await approve(page, 'show_map', 'Allow once');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Here is the map.');

  const offer = page.getByRole('region', { name: 'View of views/show_map, not shown yet' });
  const asks = offer.getByRole('group', { name: /ask to use your location, clipboard \(writing only\)/ });
  await expect(asks.getByRole('checkbox', { name: 'location' })).not.toBeChecked();
  await offer.getByRole('button', { name: 'Show view', exact: true }).click();

  const view = viewOf(page, 'show_map');
  await test.step('not allowed: the frame blocks it', async () => {
    await expect(view.getByText('Location: blocked')).toBeVisible();
    await view.getByRole('button', { name: 'Where am I' }).click();
    await expect(view.getByText(/^Position: refused/)).toBeVisible();
  });

  await test.step('allowed for the server: the view starts again and gets the position', async () => {
    await page.getByRole('group', { name: /ask to use your location/ }).getByRole('checkbox', { name: 'location' }).check();
    await seenInRestartedView(view.getByText('Location: allowed'));
    await view.getByRole('button', { name: 'Where am I' }).click();
    await expect(view.getByText('Position: 52.37, 4.90')).toBeVisible();
    await page.screenshot({ path: 'e2e/artifacts/app-view-location.png' });
  });

  await test.step('listed with the server’s permissions, and revoked there', async () => {
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('article', { name: 'views', exact: true }).getByRole('button', { name: 'views', exact: true }).click();
    await page.getByRole('tab', { name: 'Permissions' }).click();
    const permissions = page.getByRole('list', { name: 'Permissions for views' });
    await expect(permissions).toContainText('Its views may use your location');
    await permissions.getByRole('button', { name: 'Revoke: its views may use your location' }).click();
    await expect(permissions.getByText('your location')).toHaveCount(0);
    await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Chat', exact: true }).click();
    await seenInRestartedView(view.getByText('Location: blocked'));
    await expect(page.getByRole('group', { name: /ask to use your location/ }).getByRole('checkbox', { name: 'location' })).not.toBeChecked();
  });
});

/**
 * Visible in a view that starts again: the frame that was there is replaced, and a wait that began inside it
 * can end with it ("target closed") instead of moving to the new one; it is waited for again, within bounds.
 */
async function seenInRestartedView(text: Locator): Promise<void> {
  await expect(async () => {
    await expect(text).toBeVisible({ timeout: 5_000 });
  }).toPass({ timeout: 30_000 });
}
