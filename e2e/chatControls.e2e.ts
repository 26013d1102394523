// The chat's controls as a person uses them, in Debian's Chromium against a real host process: stopping a
// reply mid-stream (with Stop and with Escape), a tool call's live progress and its own Cancel, a form
// request withdrawn when its server dies, the conversations list (new, search by title and by what was
// said, rename in place, delete after a confirmation; both kept across a reload), and the keyboard
// shortcuts with their help. Each new state is checked by axe in both themes.
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { violationsInBothThemes } from './fixtures/axe.ts';
import { chatHostFor, lastModelRequest, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { holdStream } from './fixtures/llm/streamHold.ts';
import { fixtureCommand } from './servers/launch.ts';

const storyHold = holdStream('Here is a long story.');
const countingHold = holdStream('Counting: one,');
// The echo server writes its pid here, so the test can make it die while its request is open.
const pidFile = join(tmpdir(), `atrium-chat-controls-${randomUUID()}.pid`);

const env = chatHostFor(
  [
    // 1. stopped with Stop, then a next message, then stopped with Escape
    { text: 'Here is a long story. Once upon a time, a host streamed a reply that nobody stopped.', hold: storyHold },
    { text: 'A short one, then.' },
    { text: 'Counting: one, two, three, four, five.', hold: countingHold },
    // 2. a slow tool with live progress, followed across a reload, cancelled on its own; the model hears of it and answers
    { toolCalls: [{ name: 'echo__slow', input: { total: 400, interval_ms: 50 } }] },
    { text: 'The slow job was cancelled, so I stopped there.' },
    // 3. a form request whose server dies while the person looks at it
    { toolCalls: [{ name: 'echo__ask', input: { message: 'Who is asking?' } }] },
    { text: 'The server went away before you could answer.' },
    // 4. two more conversations
    { text: 'Bring lanterns and lemonade.' },
    { text: 'A small marsupial from Rottnest Island.' },
  ],
  // Outside the sandbox: the pid it writes is this machine's only there (the sandbox numbers its own processes).
  { echo: { ...fixtureCommand('echoServer', ['--pid-file', pidFile]), sandbox: false } },
);

test.afterAll(() => rm(pidFile, { force: true }));

const assistant = (page: Page) => page.getByRole('listitem', { name: 'Assistant' });
const composer = (page: Page) => page.getByRole('textbox', { name: 'Message' });
const conversationsNav = (page: Page) => page.getByRole('navigation', { name: 'Conversations' });
const conversationButtons = (page: Page) => conversationsNav(page).locator('.conversation-open');
const conversationTitles = (page: Page) => conversationsNav(page).locator('.conversation-title');

/** Reloads the window and comes back to the chat, as a person would after restarting it. */
async function reloadToChat(page: Page): Promise<void> {
  await page.reload();
  await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
  await page.getByRole('button', { name: 'Chat' }).click();
}

test('chat controls: stop a reply, cancel one tool call, a request withdrawn with its server, the conversations list, shortcuts', async ({ page }) => {
  // One long journey (tens of steps): on a busy 2-core machine it takes about a minute, so it gets three.
  test.setTimeout(180_000);
  // Nothing here may fall back on the browser's own prompt, confirm or alert.
  const nativeDialogs: string[] = [];
  page.on('dialog', (dialog) => {
    nativeDialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await openApp(page, env().host, ['echo']);

  await test.step('Stop keeps the partial reply, marks it stopped, and the composer is ready for the next message', async () => {
    await sendMessage(page, 'tell me a long story');
    const replying = page.getByRole('listitem', { name: 'Assistant (replying)' });
    await expect(replying).toContainText('Here is a long story.');
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await storyHold.abandoned; // the host hung up on the model: the rest of the story can never arrive
    const stopped = assistant(page).last();
    await expect(stopped).toContainText('Stopped before it finished');
    await expect(stopped).toContainText('Here is a long story.');
    await expect(stopped).not.toContainText('Once upon a time');
    await expect(replying).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Stop', exact: true })).toHaveCount(0);
    await expect(composer(page), 'the cursor waits in the composer').toBeFocused();
    await composer(page).fill('a short one then');
    await composer(page).press('Enter');
    await expect(assistant(page).last()).toContainText('A short one, then.');
    await expect(assistant(page).last()).not.toContainText('Stopped before it finished');
  });

  await test.step('Escape in the composer stops a reply too', async () => {
    await sendMessage(page, 'count to five');
    await expect(page.getByRole('listitem', { name: 'Assistant (replying)' })).toContainText('Counting: one,');
    await expect(composer(page)).toBeFocused();
    await composer(page).press('Escape');
    await countingHold.abandoned;
    await expect(assistant(page).last()).toContainText('Stopped before it finished');
    await expect(assistant(page).last()).toContainText('Counting: one,');
    await expect(assistant(page).last()).not.toContainText('five');
    await expect(page.getByRole('button', { name: 'Send', exact: true })).toBeDisabled();
    await composer(page).fill('thanks');
    await expect(page.getByRole('button', { name: 'Send', exact: true }), 'the composer takes a next message').toBeEnabled();
    await composer(page).fill('');
  });

  await test.step('a tool call shows live progress, also after a reload; Cancel call ends that call only, and the model answers', async () => {
    await sendMessage(page, 'run the slow job');
    await page.getByRole('dialog', { name: 'Run slow?' }).getByRole('button', { name: 'Allow once' }).click();
    const call = page.getByRole('article', { name: 'Tool call echo/slow' });
    await expect(call.getByRole('status')).toHaveText('Running');
    const bar = call.getByRole('progressbar', { name: 'Progress of slow' });
    await expect(call).toContainText(/step \d+ of 400/);
    const value = () => bar.evaluate((element) => (element as unknown as { value: number }).value);
    const first = await value();
    await expect.poll(value, { message: 'the bar moves as the server reports' }).toBeGreaterThan(first);
    await expect(bar).toHaveAttribute('max', '400');
    await page.screenshot({ path: 'e2e/artifacts/chat-progress.png' });
    expect(await violationsInBothThemes(page, 'a tool call with progress, under stopped replies'), 'axe finds nothing').toEqual([]);
    // A window that joins the call midway (reloaded) shows it as it is: its server and tool, running, its progress, its Cancel.
    await reloadToChat(page);
    await expect(call.getByRole('status'), 'still running after the reload').toHaveText('Running');
    await expect(page.getByText('Thinking…'), 'the call is the reply’s, not a second one').toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Retry', exact: true }), 'no Retry while the reply is still being made').toHaveCount(0);
    const later = await value();
    await expect.poll(value, { message: 'the bar moves after the reload' }).toBeGreaterThan(later);
    await call.getByRole('button', { name: 'Cancel call' }).click();
    await expect(call.getByRole('status')).toHaveText(/^Cancelled · \d+(\.\d)? m?s$/);
    await expect(bar, 'a cancelled call shows no progress').toHaveCount(0);
    await expect(assistant(page).last()).toContainText('The slow job was cancelled, so I stopped there.');
    expect(lastModelRequest(env().llm), 'the model was told').toContain('The person cancelled this call.');
  });

  await test.step('the server heard the cancellation, and the duration is kept with the conversation', async () => {
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.getByRole('article', { name: 'echo', exact: true }).getByRole('button', { name: 'echo', exact: true }).click();
    await expect(page.getByRole('list', { name: 'Log lines for echo' })).toContainText(/slow cancelled/);
    await reloadToChat(page);
    await conversationsNav(page).getByRole('button', { name: 'tell me a long story', exact: true }).click();
    const call = page.getByRole('article', { name: 'Tool call echo/slow' });
    await expect(call.getByRole('status')).toHaveText(/^Cancelled · \d+(\.\d)? m?s$/);
    await expect(assistant(page).first(), 'a stopped reply is still marked after a reload').toContainText('Stopped before it finished');
  });

  await test.step('a form request whose server dies closes with a notice; the call fails; the turn goes on', async () => {
    await sendMessage(page, 'ask me something');
    await page.getByRole('dialog', { name: 'Run ask?' }).getByRole('button', { name: 'Allow once' }).click();
    const form = page.getByRole('dialog', { name: 'Information requested' });
    await expect(form).toContainText('Who is asking?');
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Ada');
    process.kill(Number(await readFile(pidFile, 'utf8')), 'SIGKILL');
    await expect(form).toBeHidden();
    const notices = page.getByRole('list', { name: 'Notices' });
    await expect(notices, 'read out as it arrives').toHaveAttribute('aria-live', 'polite');
    const notice = notices.getByRole('listitem');
    await expect(notice).toContainText('The request for information from echo was withdrawn');
    await expect(notice, 'the notice says why').toContainText('echo is no longer connected — the server process was killed (SIGKILL)');
    const call = page.getByRole('article', { name: 'Tool call echo/ask' });
    await expect(call.getByRole('status')).toHaveText(/^Failed/);
    await expect(call.getByRole('alert')).toContainText('The call failed');
    await expect(assistant(page).last()).toContainText('The server went away before you could answer.');
    await page.screenshot({ path: 'e2e/artifacts/consent-withdrawn.png' });
    expect(await violationsInBothThemes(page, 'a withdrawn request’s notice'), 'axe finds nothing').toEqual([]);
    await expect(page.getByRole('listitem', { name: 'You' }), 'nothing said before is lost').toHaveCount(5);
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice).toHaveCount(0);
    await page.getByRole('button', { name: 'Servers' }).click();
    await expect(page.getByRole('article', { name: 'echo', exact: true }).getByRole('status'), 'the host starts the server again').toHaveText('Ready');
  });

  await test.step('shortcuts: Ctrl+L puts the cursor in the composer from any view; Ctrl+Shift+O starts a new conversation; Ctrl+K searches', async () => {
    await page.keyboard.press('Control+L');
    await expect(page.getByRole('button', { name: 'Chat' })).toHaveAttribute('aria-current', 'page');
    await expect(composer(page)).toBeFocused();
    const newButton = page.getByRole('button', { name: 'New conversation' });
    await expect(newButton).toHaveAttribute('aria-keyshortcuts', 'Control+Shift+O');
    await expect(newButton).toHaveAttribute('title', /Ctrl\+Shift\+O/);
    await expect(composer(page)).toHaveAttribute('aria-keyshortcuts', 'Control+L');
    await page.getByRole('searchbox', { name: 'Search conversations' }).focus();
    await page.keyboard.press('Control+Shift+O');
    await expect(page.getByRole('heading', { name: 'New conversation' })).toBeVisible();
    await expect(newButton).toHaveAttribute('aria-pressed', 'true');
    await expect(composer(page)).toBeFocused();
    await page.keyboard.type('plan the garden party');
    await page.keyboard.press('Enter');
    await expect(assistant(page).last()).toContainText('Bring lanterns and lemonade.');
    await expect(page.getByRole('heading', { name: 'plan the garden party' })).toBeVisible();
    await newButton.click();
    await expect(composer(page)).toBeFocused();
    await page.keyboard.type('what is a quokka');
    await page.keyboard.press('Enter');
    await expect(assistant(page).last()).toContainText('A small marsupial from Rottnest Island.');
    await expect(conversationButtons(page)).toHaveText(['what is a quokka', 'plan the garden party', 'tell me a long story']);
    // Chat clicked from another view: the cursor waits in the message box; chosen by keyboard, it stays in the views.
    const chatTab = page.getByRole('button', { name: 'Chat' });
    await page.getByRole('button', { name: 'Servers' }).click();
    await chatTab.click();
    await expect(composer(page), 'clicked to write: the cursor is in the message box').toBeFocused();
    await page.getByRole('button', { name: 'Servers' }).click();
    await chatTab.focus();
    await page.keyboard.press('Enter');
    await expect(chatTab).toHaveAttribute('aria-current', 'page');
    await expect(chatTab, 'by keyboard, the focus stays where the person is').toBeFocused();
    // Ctrl+K from another view: the conversations' search, ready to be typed into.
    await page.getByRole('button', { name: 'Servers' }).click();
    await page.keyboard.press('Control+K');
    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    await expect(search).toBeFocused();
    await expect(search).toHaveAttribute('aria-keyshortcuts', 'Control+K');
    await page.keyboard.type('garden');
    await expect(conversationTitles(page)).toHaveText(['plan the garden party']);
    await page.keyboard.press('Escape');
    await expect(conversationButtons(page), 'Esc empties the search').toHaveCount(3);
    // Enter opens the first found, ready for the next message.
    await page.getByRole('button', { name: 'plan the garden party', exact: true }).click();
    await expect(composer(page), 'a conversation clicked: the cursor is in its message box').toBeFocused();
    await page.keyboard.press('Control+K');
    await page.keyboard.type('marsupial');
    await expect(conversationTitles(page)).toHaveText(['what is a quokka']);
    await page.keyboard.press('Enter');
    await expect(page.getByRole('heading', { name: 'what is a quokka' })).toBeVisible();
    await expect(composer(page)).toBeFocused();
    await search.fill('');
  });

  await test.step('? lists the shortcuts, except in a text field, where it is a question mark', async () => {
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await composer(page).focus();
    await page.keyboard.type('why?');
    await expect(composer(page), 'typed, not taken as a shortcut').toHaveValue('why?');
    await expect(help).toHaveCount(0);
    await composer(page).fill('');
    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    await search.press('?');
    await expect(search).toHaveValue('?');
    await expect(help).toHaveCount(0);
    await search.fill('');
    const quokka = conversationsNav(page).getByRole('button', { name: 'what is a quokka', exact: true });
    await quokka.focus();
    await page.keyboard.press('?');
    await expect(help).toBeVisible();
    await expect(help.getByRole('row', { name: 'Ctrl+Shift+O Start a new conversation' })).toBeVisible();
    await expect(help.getByRole('row', { name: 'Ctrl+L Put the cursor in the message box' })).toBeVisible();
    await expect(help.getByRole('table', { name: 'In the message box' }).getByRole('row', { name: 'Esc Stop the reply being written; give up an edit of your last message' })).toBeVisible();
    await expect(help.getByRole('button', { name: 'Close' })).toBeFocused();
    await page.screenshot({ path: 'e2e/artifacts/keyboard-shortcuts.png' });
    expect(await violationsInBothThemes(page, 'the keyboard shortcuts'), 'axe finds nothing').toEqual([]);
    await page.keyboard.press('Control+Shift+O');
    await page.keyboard.press('Escape');
    await expect(help).toHaveCount(0);
    await expect(quokka, 'the keyboard is back where it was').toBeFocused();
    await expect(page.getByRole('heading', { name: 'what is a quokka' }), 'no shortcut acted behind the open help').toBeVisible();
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
    await expect(help).toBeVisible();
    await help.getByRole('button', { name: 'Close' }).click();
    await expect(help).toHaveCount(0);
  });

  await test.step('search narrows the list by title and by what was said', async () => {
    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('lanterns');
    await expect(conversationTitles(page), 'found by a reply’s words').toHaveText(['plan the garden party']);
    await expect(conversationsNav(page).locator('.conversation-excerpt'), 'with where').toHaveText('Bring lanterns and lemonade.');
    await search.fill('quokka');
    await expect(conversationTitles(page), 'found by its title').toHaveText(['what is a quokka']);
    await expect(conversationsNav(page).locator('.conversation-excerpt'), 'a title says where itself').toHaveCount(0);
    await search.fill('no such words anywhere');
    await expect(conversationButtons(page)).toHaveCount(0);
    await expect(conversationsNav(page).getByRole('status')).toHaveText('No conversations match “no such words anywhere”.');
    await search.fill('');
    await expect(conversationButtons(page)).toHaveCount(3);
  });

  await test.step('rename in place: Escape keeps the old title, Enter saves the new one', async () => {
    await conversationsNav(page).getByRole('button', { name: 'Rename what is a quokka' }).click();
    const field = conversationsNav(page).getByRole('textbox', { name: 'New title for what is a quokka' });
    await expect(field).toBeFocused();
    await expect(field).toHaveValue('what is a quokka');
    expect(await violationsInBothThemes(page, 'a conversation being renamed'), 'axe finds nothing').toEqual([]);
    await page.keyboard.type('Never mind');
    await field.press('Escape');
    await expect(field).toHaveCount(0);
    const quokka = conversationsNav(page).getByRole('button', { name: 'what is a quokka', exact: true });
    await expect(quokka, 'the keyboard is back on the row').toBeFocused();
    await conversationsNav(page).getByRole('button', { name: 'Rename what is a quokka' }).click();
    // A title of nothing but spaces is not taken, and the person is told so where they type.
    await page.keyboard.type('   ');
    await page.keyboard.press('Enter');
    await expect(field, 'still open: nothing was saved').toBeFocused();
    await expect(field).toHaveAccessibleDescription('A title needs a word: type one, or press Escape to keep “what is a quokka”.');
    await field.fill('');
    await page.keyboard.type('Quokka facts');
    await page.keyboard.press('Enter');
    const renamed = conversationsNav(page).getByRole('button', { name: 'Quokka facts', exact: true });
    await expect(renamed).toBeVisible();
    await expect(renamed).toBeFocused();
    await expect(page.getByRole('heading', { name: 'Quokka facts' })).toBeVisible();
    await reloadToChat(page);
    await expect(conversationButtons(page), 'the new title is kept').toHaveText(['Quokka facts', 'plan the garden party', 'tell me a long story']);
  });

  await test.step('delete asks first (Keep has the focus, Escape keeps), then removes it and opens its neighbour', async () => {
    await conversationsNav(page).getByRole('button', { name: 'plan the garden party', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'plan the garden party' })).toBeVisible();
    await conversationsNav(page).getByRole('button', { name: 'Delete plan the garden party' }).click();
    const confirm = conversationsNav(page).getByRole('group', { name: 'Delete plan the garden party?' });
    await expect(confirm).toContainText('removed for good');
    await expect(confirm.getByRole('button', { name: 'Keep' })).toBeFocused();
    expect(await violationsInBothThemes(page, 'a deletion to confirm'), 'axe finds nothing').toEqual([]);
    await page.keyboard.press('Escape');
    await expect(confirm).toHaveCount(0);
    await expect(conversationButtons(page)).toHaveCount(3);
    await expect(conversationsNav(page).getByRole('button', { name: 'Delete plan the garden party' }), 'kept, the keyboard is back on Delete').toBeFocused();
    await conversationsNav(page).getByRole('button', { name: 'Delete plan the garden party' }).click();
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect(conversationButtons(page)).toHaveText(['Quokka facts', 'tell me a long story']);
    const neighbour = conversationsNav(page).getByRole('button', { name: 'tell me a long story', exact: true });
    await expect(neighbour, 'the conversation below takes its place').toHaveAttribute('aria-current', 'true');
    await expect(neighbour).toBeFocused();
    await expect(page.getByRole('heading', { name: 'tell me a long story' })).toBeVisible();
    await reloadToChat(page);
    await expect(conversationButtons(page), 'it stays gone').toHaveText(['Quokka facts', 'tell me a long story']);
    const search = page.getByRole('searchbox', { name: 'Search conversations' });
    await search.fill('lanterns');
    await expect(conversationsNav(page).getByRole('status'), 'its messages went with it').toHaveText('No conversations match “lanterns”.');
    await expect(conversationButtons(page)).toHaveCount(0);
  });

  expect(nativeDialogs, 'no window.prompt, confirm or alert').toEqual([]);
});

test('the window opens with the cursor in the message box: the first key typed is the first word', async ({ page }) => {
  await page.goto(env().host.url);
  await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Chat' })).toHaveAttribute('aria-current', 'page');
  await expect(composer(page)).toBeFocused();
  await page.keyboard.type('hello');
  await expect(composer(page)).toHaveValue('hello');
});
