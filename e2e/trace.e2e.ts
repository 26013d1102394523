// Seeing exactly what a server is doing: a tool call's card leads to its messages in the server's Trace tab
// (its request and answer, paired and timed, each opening to its JSON with secrets redacted), the trace
// leads back to the card, it follows new messages as they pass, filters them, and exports them as JSON Lines.
import { readFile } from 'node:fs/promises';
import { fixtureCommand } from './servers/launch.ts';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { approve } from './fixtures/appViews.ts';
import { violationsInBothThemes } from './fixtures/axe.ts';

const env = chatHostFor(
  [
    // A bidi control in the text: the echo server sends it back, and the trace shows it as it travelled.
    { toolCalls: [{ name: 'echo__echo', input: { text: 'hello trace\u202e', api_key: 'sk-live-0123456789abcdefABCDEF' } }] },
    // A reply long enough to take the card out of the window: the trace's link must bring it back.
    { text: `The server echoed it.\n\n${Array.from({ length: 40 }, (_, i) => `${i + 1}. A line of what the echo means.`).join('\n')}` },
    { toolCalls: [{ name: 'echo__echo', input: { text: 'live one' } }] },
    { text: 'Echoed again.' },
  ],
  { echo: fixtureCommand('echoServer') },
);

test('a tool call’s card leads to its messages in the server’s trace, and the trace back to the card', async ({ page }) => {
  test.setTimeout(90_000);
  await openApp(page, env().host, ['echo']);
  await sendMessage(page, 'echo hello trace');
  await approve(page, 'echo', 'Allow once');
  await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('The server echoed it.');
  const card = page.getByRole('article', { name: 'Tool call echo/echo' });

  await test.step('the card’s Show messages opens the Trace tab narrowed to the call: its request and its answer, paired', async () => {
    await card.getByRole('button', { name: 'Show messages' }).click();
    await expect(page.getByRole('tab', { name: 'Trace' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByText('One tool call’s messages')).toBeVisible();
    const list = page.getByRole('list', { name: 'Messages of echo' });
    const rows = list.getByRole('listitem');
    await expect(rows.getByRole('button', { name: /sent request tools\/call echo #\d+/ })).toBeVisible();
    await expect(rows.getByRole('button', { name: /received result tools\/call echo #\d+/ })).toBeVisible();
    // The server's log lines during the call are not the call's own messages.
    await expect(rows.getByRole('button', { name: /notifications\/message/ })).toHaveCount(0);
    await expect(page.getByText(/^2 of \d+ messages/)).toBeVisible();
  });

  await test.step('a message opens to its JSON, secrets redacted; the answer leads to its request, timed', async () => {
    const rows = page.getByRole('list', { name: 'Messages of echo' }).getByRole('listitem');
    await rows.getByRole('button', { name: /sent request tools\/call echo/ }).click();
    const request = rows.filter({ has: page.getByRole('button', { name: /sent request tools\/call echo/ }) });
    await expect(request.locator('pre')).toContainText('"text": "hello trace\\u202e"');
    await expect(request.locator('pre')).toContainText('"api_key": "[redacted]"');
    await expect(request.locator('pre')).not.toContainText('0123456789abcdef');
    await rows.getByRole('button', { name: /received result tools\/call echo/ }).click();
    const answer = rows.filter({ has: page.getByRole('button', { name: /received result tools\/call echo/ }) });
    await expect(answer.getByText(/the answer after [\d.]+ m?s to/)).toBeVisible();
    await expect(answer.locator('pre')).toContainText('"content"');
    // What the server sent, escaped: not cleaned as the chat shows it, nor left raw to reorder the line.
    await expect(answer.locator('pre')).toContainText('"text": "hello trace\\u202e"');
    await page.screenshot({ path: 'e2e/artifacts/trace-call.png' });
    expect(await violationsInBothThemes(page, 'the Trace tab'), 'axe-core finds no WCAG 2.1 A/AA violation').toEqual([]);
  });

  await test.step('the message’s link leads back to the card in its conversation, however far up it is', async () => {
    const rows = page.getByRole('list', { name: 'Messages of echo' }).getByRole('listitem');
    await rows.first().getByRole('button', { name: 'Tool call in chat' }).click();
    await expect(card).toBeFocused();
    await expect(card).toBeInViewport();
    await page.screenshot({ path: 'e2e/artifacts/trace-card.png' });
  });

  await test.step('the whole trace: the handshake, follow new messages, filter, export', async () => {
    await card.getByRole('button', { name: 'Show messages' }).click();
    await page.getByRole('button', { name: 'Show every message' }).click();
    const list = page.getByRole('list', { name: 'Messages of echo' });
    await expect(list.getByRole('button', { name: /sent request initialize/ }).or(list.getByRole('button', { name: /sent request server\/discover/ })).first()).toBeAttached();
    await expect(page.getByRole('button', { name: 'Follow' })).toHaveAttribute('aria-pressed', 'true');
    // A long method is read whole in its column at the window's usual width, not cut to "notifications/initializ…".
    const method = list.getByRole('button', { name: /sent notification notifications\/initialized/ }).locator('.trace-what');
    await expect(method).toHaveAttribute('title', 'notifications/initialized');
    expect(await method.evaluate((cell) => cell.scrollWidth <= cell.clientWidth), 'the method is not cut').toBe(true);
    // A call made from another window shows up here as it passes, at the end.
    const other = await page.context().newPage();
    await openApp(other, env().host, ['echo']);
    await sendMessage(other, 'echo once more');
    await approve(other, 'echo', 'Allow once');
    await expect(other.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Echoed again.');
    await other.close();
    await expect(list.getByRole('button', { name: /received result tools\/call echo/ })).toHaveCount(2);
    await expect(list.getByRole('listitem').last().getByRole('button', { name: /received result tools\/call echo/ })).toBeInViewport();
    await page.screenshot({ path: 'e2e/artifacts/trace-whole.png' });

    await page.getByRole('combobox', { name: 'Direction' }).selectOption('in');
    await page.getByRole('combobox', { name: 'Method' }).selectOption('tools/call');
    await expect(list.getByRole('listitem')).toHaveCount(2);
    const search = page.getByRole('searchbox', { name: 'Search the trace' });
    const [room, needed] = await search.evaluate((input) => {
      const page = input.ownerDocument;
      const style = page.defaultView?.getComputedStyle(input);
      const context = page.createElement('canvas').getContext('2d');
      if (!style || !context) return [0, 1];
      context.font = `${style.fontSize} ${style.fontFamily}`;
      return [input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight), context.measureText(input.getAttribute('placeholder') ?? '').width];
    });
    expect(room, 'the search box says in full what it searches').toBeGreaterThanOrEqual(needed);
    await search.fill('live one');
    await expect(list.getByRole('listitem')).toHaveCount(1);

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export shown as JSON Lines' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^echo-trace-.*\.jsonl$/);
    const lines = (await readFile((await file.path()) ?? '', 'utf8')).trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ direction: 'in', method: 'tools/call', kind: 'result' });
  });
});
