// The renderer's defences in browser mode, in Debian's Chromium against a real host: the page is served
// under a strict CSP; a model reply and a server's tool result that carry a remote Markdown image, raw
// HTML, an inline script and an event handler show them as text or as a link to confirm, run nothing and
// fetch nothing (a loopback server records every request made to it); the CSP itself refuses an inline
// script and a remote image added to the page; hidden characters are taken out where they enter the host
// and shown as marks where they were.
import type { FakeToolCall, FakeTurn } from './fixtures/llm/fakeAnthropicServer.ts';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import type { RequestRecorder } from './fixtures/hostilePage.ts';
import { expectCspHolds, hostileText, startRequestRecorder } from './fixtures/hostilePage.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import { fixtureCommand } from './servers/launch.ts';

// The hostile texts name the recorder's address, known only once it listens: they are filled in
// before the scripted model starts (hooks run in the order they are declared).
const reply = { text: '' };
const echo: FakeToolCall = { name: 'echo__echo', input: {} };
const script: FakeTurn[] = [reply, { toolCalls: [echo] }, { text: 'Echoed.' }];
let tracker: RequestRecorder;
test.beforeAll(async () => {
  tracker = await startRequestRecorder();
  reply.text = hostileText(tracker.url, 'reply');
  echo.input = { text: `${hostileText(tracker.url, 'tool')}\n\u001b[31mred\u001b[0m \u202Eevil` };
});
test.afterAll(() => tracker.close());

const env = chatHostFor(script, { echo: fixtureCommand('echoServer') });


test('security: hostile replies and results run nothing and fetch nothing; the CSP refuses what slips past', async ({ page }) => {
  await test.step('the page is served under a strict Content-Security-Policy', async () => {
    const response = await fetch(env().host.url);
    const directives = new Map(
      (response.headers.get('content-security-policy') ?? '').split(';').map((d) => {
        const [name = '', ...sources] = d.trim().split(/\s+/);
        return [name, sources] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('img-src'), 'no remote image source').toEqual(["'self'", 'data:']);
  });

  await openApp(page, env().host, ['echo']);

  await test.step('a model reply with a remote Markdown image, raw HTML and a script shows none of them', async () => {
    await sendMessage(page, 'show me a chart');
    const answer = page.getByRole('listitem', { name: 'Assistant' }).last();
    await expect(answer).toContainText('Here is a chart:');
    await expect(answer.getByRole('link', { name: '[image: chart]' }), 'the image is a link to confirm, never fetched').toHaveAttribute('href', `${tracker.url}/reply-markdown.png`);
    await expect(answer.locator('img, script, [onerror]')).toHaveCount(0);
    await expect(answer.getByRole('link', { name: 'click' }), 'raw HTML links are dropped').toHaveCount(0);
  });

  await test.step('a tool result with the same tricks is shown as text, its hidden characters as marks where they were', async () => {
    await sendMessage(page, 'echo it back');
    await page.getByRole('dialog', { name: 'Run echo?' }).getByRole('button', { name: 'Allow once' }).click();
    const result = page.getByRole('article', { name: 'Tool call echo/echo' }).getByLabel('Result of echo');
    await expect(result).toContainText(`<script>window.pwned = 'tool script'</script>`);
    await expect(result).toContainText(`<img src="${tracker.url}/tool-raw.png"`);
    // The escapes and the bidi override were taken out where the server's answer entered the host; a mark shows where each was.
    await expect(result).toContainText('⟨U+001B [31m⟩red⟨U+001B [0m⟩ ⟨U+202E⟩evil');
    await expect(result.locator('mark.hidden-char')).toHaveCount(3);
    await expect(result.locator('img, script')).toHaveCount(0);
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Echoed.');
  });

  await test.step('the CSP refuses an inline script and a remote image; the recorder was never asked for anything', async () => {
    await expectCspHolds(page, tracker.url);
    expect(tracker.hits, 'no request left the page for the hostile addresses').toEqual([]);
  });
});
