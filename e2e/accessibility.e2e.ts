// Every view and every consent dialog, checked by axe-core (WCAG 2.1 A and AA: names of controls,
// roles, contrast, focus order rules) in both themes at 1280×800, and each dialog driven from the
// keyboard alone. A person who cannot use a mouse, or who uses a screen reader, can live in the app.
import { violations } from './fixtures/axe.ts';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

const env = chatHostFor(
  [
    { toolCalls: [{ name: 'echo__add', input: { a: 1, b: 2 } }] },
    { text: 'One and two make **three**.\n\n```js\nconst sum = 3;\n```' },
    { toolCalls: [{ name: 'echo__ask', input: { message: 'Who are you?' } }] },
    { text: 'Thanks.' },
    { toolCalls: [{ name: 'echo__sample', input: { prompt: 'Say hello' } }] },
    { text: 'Hello!' },
    { text: 'Done.' },
  ],
  { echo: fixtureCommand('echoServer') },
);

const views = ['Chat', 'Resources', 'Roots', 'Servers', 'Settings', 'Get started'] as const;

test('accessibility: every view and dialog passes axe in both themes, and dialogs work from the keyboard', async ({ page }) => {
  // One long journey (tens of steps): on a busy 2-core machine it takes about a minute, so it gets three.
  test.setTimeout(180_000);
  await openApp(page, env().host, ['echo']);
  const found: string[] = [];

  await test.step('a tool approval dialog: Tab stays inside it and Enter on the focused answer is safe', async () => {
    await sendMessage(page, 'add 1 and 2');
    const dialog = page.getByRole('dialog', { name: 'Run add?' });
    await expect(dialog).toBeVisible();
    found.push(...(await violations(page, 'tool approval dialog')));
    // Past the dialog's last control focus may go to the browser's own UI (the document's body, seen
    // from the page), as a native modal allows; it must never reach the page behind the dialog.
    for (let i = 0; i < 12; i += 1) {
      await page.keyboard.press('Tab');
      const where = await dialog.evaluate((element) => {
        const active = element.ownerDocument.activeElement;
        return !active || active === element.ownerDocument.body ? 'browser' : element.contains(active) ? 'dialog' : active.outerHTML.slice(0, 80);
      });
      expect(['dialog', 'browser'], 'focus never reaches the page behind an open dialog').toContain(where);
    }
    await dialog.getByRole('button', { name: 'Allow once' }).focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('One and two make three.');
  });

  await test.step('an elicitation form filled and sent from the keyboard', async () => {
    await sendMessage(page, 'ask me');
    const approval = page.getByRole('dialog', { name: 'Run ask?' });
    await approval.getByRole('button', { name: 'Allow once' }).focus();
    await page.keyboard.press('Enter');
    const form = page.getByRole('dialog', { name: 'Information requested' });
    await expect(form).toBeVisible();
    found.push(...(await violations(page, 'elicitation dialog')));
    await form.getByRole('textbox', { name: 'Name', exact: true }).focus();
    await page.keyboard.type('Ada');
    await form.getByRole('button', { name: 'Send answer' }).focus();
    await page.keyboard.press('Enter');
    await expect(form).toBeHidden();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Thanks.');
  });

  await test.step('a sampling request and its review', async () => {
    await sendMessage(page, 'sample');
    await page.getByRole('dialog', { name: 'Run sample?' }).getByRole('button', { name: 'Allow once' }).click();
    const request = page.getByRole('dialog', { name: 'Use your model for a server?' });
    await expect(request).toBeVisible();
    found.push(...(await violations(page, 'sampling request dialog')));
    await request.getByRole('button', { name: 'Run it' }).click();
    const review = page.getByRole('dialog', { name: 'Send this reply to the server?' });
    await expect(review).toBeVisible();
    found.push(...(await violations(page, 'sampling review dialog')));
    await review.getByRole('button', { name: 'Send reply' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Done.');
  });

  for (const scheme of ['light', 'dark'] as const) {
    await test.step(`every view in the ${scheme} theme`, async () => {
      await page.emulateMedia({ colorScheme: scheme });
      for (const view of views) {
        await page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: view }).click();
        await expect(page.getByRole('navigation', { name: 'Views' }).getByRole('button', { name: view })).toHaveAttribute('aria-current', 'page');
        if (view === 'Servers') {
          await page.getByRole('article', { name: 'echo', exact: true }).getByRole('button', { name: 'echo', exact: true }).click();
          for (const tab of await page.getByRole('tab').all()) {
            await tab.click();
            found.push(...(await violations(page, `${scheme} Servers › ${(await tab.textContent()) ?? ''}`)));
          }
        } else {
          await expect(page.locator('main')).not.toBeEmpty();
          found.push(...(await violations(page, `${scheme} ${view}`)));
        }
      }
      await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
      const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
      await expect(help).toBeVisible();
      found.push(...(await violations(page, `${scheme} keyboard shortcuts dialog`)));
      await page.keyboard.press('Escape');
      await expect(help).toBeHidden();
    });
  }

  expect(found, 'axe-core finds no WCAG 2.1 A/AA violation').toEqual([]);
});
