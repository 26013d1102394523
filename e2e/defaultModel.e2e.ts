// The default model as Settings shows it: the one new conversations use, also when the provider's own
// list leaves it out (an alias the API does not list, a model named in providers.json by hand). Settings
// once showed "—" there while the chat's picker said which model answers.
import { chatHostFor, E2E_MODEL, openApp } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';

const env = chatHostFor([{ text: 'Hello.' }], {});

test('Settings shows the default model in use, even one its provider does not list, beside the ones it does', async ({ page }) => {
  await openApp(page, env().host, []);
  await expect(page.getByRole('combobox', { name: 'Model' }).locator('option:checked')).toHaveText(E2E_MODEL);
  await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: 'Settings', exact: true }).click();
  const defaults = page.getByRole('combobox', { name: 'Default model for new conversations' });
  await expect(defaults.locator('option:checked')).toHaveText(E2E_MODEL);
  await expect(defaults.locator('option', { hasText: 'claude-fake-1' }), 'the models the provider lists are offered too').toHaveCount(1);
  await page.screenshot({ path: 'e2e/artifacts/settings-default-model-unlisted.png' });
});
