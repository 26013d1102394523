// Every dialog that asks the person something, over the chat: the safe answer has the keyboard and is
// painted the same way in each (tool approval, elicitation form, URL elicitation, sampling request and
// review — which says the model that answered —, a link in a reply, a server's start), and when a dialog goes, the keyboard is back in the
// message box — also after a message sent with the mouse, whose Send button is disabled while the turn runs.
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { expectSafeAnswer } from './fixtures/safeAnswer.ts';
import { fixtureCommand } from './servers/launch.ts';

const env = chatHostFor(
  [
    { toolCalls: [{ name: 'echo__add', input: { a: 1, b: 2 } }] },
    { text: 'Three.' },
    { toolCalls: [{ name: 'echo__ask', input: { message: 'Who are you?' } }] },
    { text: 'Thanks.' },
    { toolCalls: [{ name: 'echo__ask', input: { message: 'Sign in, please', form: 'url' } }] },
    { text: 'You declined.' },
    { toolCalls: [{ name: 'echo__sample', input: { prompt: 'Say hello' } }] },
    { text: 'Hello!' },
    { text: 'The server heard back.' },
    { text: 'See [the docs](https://example.com/docs), [below](#setup) and [this one](http://example.com/plain).' },
  ],
  { echo: fixtureCommand('echoServer') },
);

test('every dialog: the safe answer has the keyboard and the one colour, and the message box has the keyboard again after', async ({ page }) => {
  test.setTimeout(180_000);
  await openApp(page, env().host, ['echo']);
  const box = page.getByRole('textbox', { name: 'Message' });

  await test.step('a tool approval, for a message sent with the mouse', async () => {
    await box.fill('add 1 and 2');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const approval = page.getByRole('dialog', { name: 'Run add?' });
    await expectSafeAnswer(approval, 'Deny');
    await page.screenshot({ path: 'e2e/artifacts/consent-dialogs-tool-approval.png' });
    await approval.getByRole('button', { name: 'Allow once' }).click();
    await expect(approval).toBeHidden();
    await expect(box, 'Send is disabled while the turn runs: the keyboard goes to the message box').toBeFocused();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Three.');
  });

  await test.step('an elicitation form', async () => {
    await sendMessage(page, 'ask me');
    await page.getByRole('dialog', { name: 'Run ask?' }).getByRole('button', { name: 'Allow once' }).click();
    const form = page.getByRole('dialog', { name: 'Information requested' });
    await expectSafeAnswer(form, 'Decline');
    await page.screenshot({ path: 'e2e/artifacts/consent-dialogs-elicitation.png' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada');
    await form.getByRole('button', { name: 'Send answer' }).click();
    await expect(form).toBeHidden();
    await expect(box).toBeFocused();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Thanks.');
  });

  await test.step('a URL elicitation, answered with Escape', async () => {
    await sendMessage(page, 'sign me in');
    await page.getByRole('dialog', { name: 'Run ask?' }).getByRole('button', { name: 'Allow once' }).click();
    const url = page.getByRole('dialog', { name: 'Open a web page?' });
    await expectSafeAnswer(url, 'Decline');
    await page.screenshot({ path: 'e2e/artifacts/consent-dialogs-url.png' });
    await page.keyboard.press('Escape');
    await expect(url).toBeHidden();
    await expect(box).toBeFocused();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('You declined.');
  });

  await test.step('a sampling request and its review', async () => {
    await sendMessage(page, 'sample');
    await page.getByRole('dialog', { name: 'Run sample?' }).getByRole('button', { name: 'Allow once' }).click();
    const request = page.getByRole('dialog', { name: 'Use your model for a server?' });
    await expectSafeAnswer(request, 'Reject');
    await request.getByRole('button', { name: 'Run it' }).click();
    const review = page.getByRole('dialog', { name: 'Send this reply to the server?' });
    await expectSafeAnswer(review, 'Withhold');
    await expect(review, 'the review says which model answered, from which provider, and why that one').toContainText('Answered by claude-e2e from claude — the server gave no model hints');
    await page.screenshot({ path: 'e2e/artifacts/consent-dialogs-sampling-review.png' });
    await review.getByRole('button', { name: 'Send reply' }).click();
    await expect(review).toBeHidden();
    await expect(box).toBeFocused();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('The server heard back.');
  });

  await test.step('a link in a reply asks in a dialog of the same kind, and the keyboard goes back to the link', async () => {
    await sendMessage(page, 'where are the docs?');
    const reply = page.getByRole('listitem', { name: 'Assistant' }).last();
    const link = reply.getByRole('link', { name: 'the docs' });
    // A reference within the text (no address) is its words, without a note; an address refused says so.
    await expect(reply).toContainText('below and this one (not opened:');
    await expect(reply.getByRole('link')).toHaveCount(1);
    await link.click();
    const ask = page.getByRole('dialog', { name: 'Open this address?' });
    await expectSafeAnswer(ask, 'Don’t open');
    await page.screenshot({ path: 'e2e/artifacts/consent-dialogs-link.png' });
    await page.keyboard.press('Escape');
    await expect(ask).toBeHidden();
    await expect(link, 'the person opened it from the link: the keyboard is back there').toBeFocused();
  });

  await test.step("a server's start dialog", async () => {
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('dialog', { name: 'Add a server' });
    const echo = fixtureCommand('echoServer');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('second');
    await form.getByRole('textbox', { name: 'Command', exact: true }).fill(echo.command);
    await form.getByRole('textbox', { name: 'Arguments (one per line)' }).fill(echo.args.join('\n'));
    await form.getByRole('button', { name: 'Save' }).click();
    const start = page.getByRole('dialog', { name: 'Start second?' });
    await expectSafeAnswer(start, 'Keep it off');
    await start.getByRole('button', { name: 'Keep it off' }).click();
    await expect(start).toBeHidden();
  });
});
