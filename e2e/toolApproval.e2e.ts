// A tool approval as a newcomer meets it, against the real echo fixture server (not trusted): the dialog
// says once, in proportion, what the tool declares, why Atrium asks anyway and how trusting the server
// would change that; its answers sit on one row and the focused answer is the coloured one. Then the
// "always" answer's permission row, and a chat that follows to the end after a form is answered.
import type { Locator, Page } from '@playwright/test';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

const env = chatHostFor(
  [
    { toolCalls: [{ name: 'echo__echo', input: { text: 'hello' } }] },
    { text: 'Echoed.' },
    { toolCalls: [{ name: 'echo__add', input: { a: 1, b: 2 } }] },
    { text: 'One and two make three.' },
    { toolCalls: [{ name: 'echo__ask', input: { message: 'Who are you?' } }] },
    { text: `Nice to meet you, Ada.\n\n${Array.from({ length: 16 }, (_, i) => `Point ${i + 1} of what I can do for you.`).join('\n\n')}\n\nThis is the last line of the reply.` },
  ],
  { echo: fixtureCommand('echoServer') },
);

// The test code is type-checked without DOM types; this is the little of the DOM the checks touch.
type Answer = { textContent: string | null; ownerDocument: { activeElement: unknown; defaultView: { getComputedStyle(element: unknown): { backgroundColor: string } } } };

/** Each answer's label, whether it has the focus, and whether it is the one drawn in a colour of its own. */
async function answersAsDrawn(dialog: Locator): Promise<{ label: string; focused: boolean; coloured: boolean }[]> {
  const drawn = await dialog.getByRole('button').evaluateAll((buttons) =>
    buttons.map((button) => {
      const { ownerDocument, textContent } = button as unknown as Answer;
      return { label: (textContent ?? '').trim(), focused: ownerDocument.activeElement === button, background: ownerDocument.defaultView.getComputedStyle(button).backgroundColor };
    }),
  );
  const count = (background: string) => drawn.filter((answer) => answer.background === background).length;
  return drawn.map(({ label, focused, background }) => ({ label, focused, coloured: count(background) === 1 }));
}

async function expectProportionateDialog(page: Page, dialog: Locator, declared: RegExp, name: string): Promise<void> {
  await expect(dialog).toBeVisible();
  await page.mouse.move(0, 0);
  const text = (await dialog.textContent()) ?? '';
  await page.screenshot({ path: `e2e/artifacts/tool-approval-${name}.png` });
  expect.soft(text, 'what the tool declares is said').toMatch(declared);
  expect.soft(text.match(/change or delete/g)?.length ?? 0, 'the risk is said at most once').toBeLessThanOrEqual(1);
  await expect.soft(dialog.getByRole('alert'), 'no alarm for a tool that declares no danger').toHaveCount(0);
  await expect.soft(dialog, 'why Atrium asks: the server is not trusted').toContainText('not trusted');
  await expect.soft(dialog, 'how to trust the server, and what that means').toContainText(/Trust this server.*believes what its tools declare/);

  const answers = await answersAsDrawn(dialog);
  expect(answers.map((a) => a.label)).toEqual(expect.arrayContaining(['Allow once', 'Always allow', 'Deny', 'Always deny']));
  // What it returns is an untrusted server's text, after which it asks again: an answer for this conversation would be no more than once.
  expect(answers.map((a) => a.label), 'an answer that would be ignored is not offered').not.toContain('Allow in this conversation');
  await expect.soft(dialog.getByTestId('lasting-reach')).toContainText('an answer for this conversation alone would reach no further than this call');
  expect.soft(
    answers.filter((a) => a.focused || a.coloured),
    'the focused answer and the coloured one are the same, and it is the safe one',
  ).toEqual([{ label: 'Deny', focused: true, coloured: true }]);
  const tops = await Promise.all(['Allow once', 'Always allow', 'Deny', 'Always deny'].map(async (label) => (await dialog.getByRole('button', { name: label, exact: true }).boundingBox())?.y));
  expect.soft(new Set(tops).size, `the answers sit on one row at 1280 px (tops: ${tops.join(', ')})`).toBe(1);
}

test('a newcomer approves tools of an untrusted server: each dialog says once what the tool declares, the safe answer is focused and coloured; then a form answered, and the permission', async ({ page }) => {
  // A long journey of four model turns and three dialogs, on a machine shared with other work.
  test.setTimeout(120_000);
  await openApp(page, env().host, ['echo']);

  await test.step('echo declares nothing: the assumed risk is said once, without an alarm', async () => {
    await sendMessage(page, 'echo hello');
    const dialog = page.getByRole('dialog', { name: 'Run echo?' });
    await expectProportionateDialog(page, dialog, /echo declares nothing about what it does/, 'echo');
    // A window behind others says, in its title (a tab's, the task bar's), that it waits for an answer.
    await expect(page).toHaveTitle('(1) echo hello — Atrium');
    await dialog.getByRole('button', { name: 'Allow once' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Echoed.');
    await expect(page, 'named after the open conversation').toHaveTitle('echo hello — Atrium');
  });

  await test.step('add declares it only reads: said as declared, and not believed', async () => {
    // In a conversation of its own: after echo's result (an untrusted server's) the first one asks again every time.
    await page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(page, 'add 1 and 2');
    const dialog = page.getByRole('dialog', { name: 'Run add?' });
    await expectProportionateDialog(page, dialog, /add declares that it only reads/, 'add');
    await expect.soft(dialog).not.toContainText('change or delete');
    await dialog.getByRole('button', { name: 'Always allow' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('One and two make three.');
  });

  await test.step('after a form is answered, the chat follows to the end of the reply', async () => {
    await sendMessage(page, 'ask who I am');
    await page.getByRole('dialog', { name: 'Run ask?' }).getByRole('button', { name: 'Allow once' }).click();
    const form = page.getByRole('dialog', { name: 'Information requested' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada');
    await form.getByRole('button', { name: 'Send answer' }).click();
    await expect(form).toBeHidden();
    await expect(page.getByRole('button', { name: 'Stop' }), 'the turn has ended').toBeHidden();
    await page.screenshot({ path: 'e2e/artifacts/chat-after-form.png' });
    const lastLine = page.getByText('This is the last line of the reply.');
    await expect.soft(lastLine, 'the end of the reply is in view').toBeVisible();
    // It ends inside the part of the chat that scrolls, not under the message box.
    const hiddenBelow = async () => {
      const [line, view] = [await lastLine.boundingBox(), await page.locator('.conversation-scroll').boundingBox()];
      return line && view ? Math.round(line.y + line.height - (view.y + view.height)) : Infinity;
    };
    await expect.soft.poll(hiddenBelow, { message: 'pixels of the reply hidden below the chat' }).toBeLessThanOrEqual(0);
  });

  await test.step('the rule the “always” answer made is a row padded like its panel', async () => {
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('article', { name: 'echo', exact: true }).getByRole('button', { name: 'echo', exact: true }).click();
    await page.getByRole('tab', { name: 'Permissions' }).click();
    const rules = page.getByRole('list', { name: 'Rules for echo' });
    await expect(rules.getByRole('combobox', { name: 'Rule for add' })).toHaveValue('allow');
    const grant = rules.getByRole('listitem').first();
    await page.screenshot({ path: 'e2e/artifacts/layout-permissions.png' });
    const [panel, row] = [await page.getByRole('tabpanel').boundingBox(), await grant.boundingBox()];
    expect.soft((row?.x ?? 0) - (panel?.x ?? 0), 'the row starts inside the panel, not on its edge').toBeGreaterThanOrEqual(12);
  });
});
