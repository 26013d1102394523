// MCP Apps views that try to take the window over or wear the person down (hardening issue): a view fills
// the window only on the person's click, always inside Atrium's bar, and an exit holds; it has one question
// open at a time (thirty links are one question and twenty-nine refusals); a file is shown as it will be
// saved, whatever type and name the view made up; a proposed message cannot be swapped once shown; and
// messages of 150 MB do not freeze the page.
import type { Page } from '@playwright/test';
import type { ChatHost } from './fixtures/chatHost.ts';
import { chatHostFor, openApp, sendMessage } from './fixtures/chatHost.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import type { LeakListener } from './fixtures/leakListener.ts';
import { startLeakListener } from './fixtures/leakListener.ts';
import { fixtureCommand } from './servers/launch.ts';
import { approve, viewOf } from './fixtures/appViews.ts';

let listener: LeakListener;
test.beforeAll(async () => {
  listener = await startLeakListener();
});
test.afterAll(() => listener.close());

const attacksServer = () => ({
  attacks: { ...fixtureCommand('viewAttackServer', ['--listener', listener.httpOrigin, '--udp', String(listener.udpPort), '--tcp', String(listener.tcpPort)]), trusted: true },
});

async function frameBox(page: Page, tool: string) {
  return (await page.locator(`iframe[title="View of attacks/${tool}"]`).boundingBox()) ?? { x: -1, y: -1, width: 0, height: 0 };
}

test.describe('full screen', () => {
  const env = chatHostFor([{ toolCalls: [{ name: 'attacks__take_window', input: {} }] }, { text: 'Here is the dashboard.' }], attacksServer);

  test('a view fills the window only when the person clicks, inside Atrium’s bar naming its server, and cannot take it back after Exit', async ({ page }) => {
    test.setTimeout(120_000);
    await openApp(page, env().host, ['attacks']);
    await sendMessage(page, 'show the dashboard');
    await approve(page, 'take_window', 'Allow once');
    const view = viewOf(page, 'take_window', 'attacks');
    const attempt = (what: string) => view.locator(`li[data-attempt="${what}"]`);
    const request = page.getByRole('group', { name: 'Display request from the view' });

    await test.step('asking at once, it is offered, not granted: the view stays in its card', async () => {
      await expect(request).toContainText('The view asks to fill the window.');
      expect((await frameBox(page, 'take_window')).width, 'still in its card').toBeLessThan(1000);
      await page.screenshot({ path: 'e2e/artifacts/app-view-fullscreen-offer.png' });
    });

    await test.step('on the person’s click it fills the window, under Atrium’s bar naming the server, which nothing covers', async () => {
      await request.getByRole('button', { name: 'Show full screen' }).click();
      await expect(attempt('asked at once')).toHaveText('asked at once: fullscreen');
      await expect.poll(async () => (await frameBox(page, 'take_window')).width, { message: 'the view spans the window' }).toBeGreaterThan(1200);
      const bar = page.getByRole('toolbar', { name: 'Atrium’s frame around the view' });
      await expect(bar).toContainText('attacks’s view of take_window');
      await expect(bar).toContainText('not of Atrium');
      const exit = bar.getByRole('button', { name: 'Exit full screen' });
      const box = await exit.boundingBox();
      expect(box, 'the exit is on screen').not.toBeNull();
      // What is under the exit's centre is the exit itself: the view cannot draw over Atrium's bar.
      const [x, y] = [(box?.x ?? 0) + (box?.width ?? 0) / 2, (box?.y ?? 0) + (box?.height ?? 0) / 2];
      const onTop = await page.evaluate(`document.elementFromPoint(${x}, ${y})?.textContent ?? ''`);
      expect(onTop).toBe('Exit full screen');
      await page.screenshot({ path: 'e2e/artifacts/app-view-fullscreen-bar.png' });
      await exit.click();
    });

    await test.step('after Exit, its asking again is a new question; the window stays the person’s', async () => {
      await expect(attempt('mode')).toHaveText('mode: inline');
      await expect(request, 'it asked again at once').toContainText('The view asks to fill the window.');
      expect((await frameBox(page, 'take_window')).width, 'back in its card, and staying there').toBeLessThan(1000);
      // The question takes the keyboard from the view, onto its safe answer; Escape gives that answer.
      await expect(request.getByRole('button', { name: 'Not now' })).toBeFocused();
      await page.keyboard.press('Escape');
      await expect(attempt('asked again')).toHaveText('asked again: inline');
      expect((await frameBox(page, 'take_window')).width).toBeLessThan(1000);
    });

    await test.step('Atrium’s own button shows it full screen, and Escape brings it back', async () => {
      await page.getByRole('region', { name: 'View of attacks/take_window' }).getByRole('button', { name: 'Full screen', exact: true }).click();
      await expect.poll(async () => (await frameBox(page, 'take_window')).width).toBeGreaterThan(1200);
      await page.keyboard.press('Escape');
      await expect.poll(async () => (await frameBox(page, 'take_window')).width).toBeLessThan(1000);
    });
  });
});

/** Opens the pester view of a new call; every browser dialog the page opens is noted (and dismissed). */
async function showPester(page: Page, host: ChatHost['host']) {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await openApp(page, host, ['attacks']);
  await sendMessage(page, 'show the report');
  await approve(page, 'pester', 'Allow once');
  const view = viewOf(page, 'pester', 'attacks');
  return { view, dialogs, attempt: (what: string) => view.locator(`li[data-attempt="${what}"]`) };
}

test.describe('thirty links', () => {
  const env = chatHostFor([{ toolCalls: [{ name: 'attacks__pester', input: {} }] }, { text: 'Here is the report.' }], attacksServer);

  test('thirty links asked at once are one question in the card and twenty-nine refusals, never a row of dialogs', async ({ page }) => {
    const { view, dialogs, attempt } = await showPester(page, env().host);
    await view.getByRole('button', { name: 'Open 30 links' }).click();
    await expect(attempt('links refused at once')).toHaveText('links refused at once: 29');
    const link = page.getByRole('group', { name: 'Link from the view' });
    await expect(link).toContainText('https://example.com/page-0');
    await expect(link).toContainText('It goes to example.com.');
    expect(dialogs, 'not one browser dialog').toEqual([]);
    await page.screenshot({ path: 'e2e/artifacts/app-view-link-question.png' });
    await link.getByRole('button', { name: 'Don’t open' }).click();
    await expect(attempt('link asked')).toHaveText('link asked: refused');
    await expect(link).toHaveCount(0);
  });
});

test.describe('a disguised download', () => {
  const env = chatHostFor([{ toolCalls: [{ name: 'attacks__pester', input: {} }] }, { text: 'Here is the report.' }], attacksServer);

  test('a program dressed as a PDF is shown as it will be saved: its real extension marked, no made-up type', async ({ page }) => {
    const { view, dialogs, attempt } = await showPester(page, env().host);
    await view.getByRole('button', { name: 'Save the report' }).click();
    const files = page.getByRole('group', { name: 'Files from the view' });
    await expect(files).toContainText('report.pdf.exe');
    await expect(files.locator('mark.file-extension')).toHaveText('.exe');
    await expect(files).toContainText('ends in .exe, of no stated type');
    await expect(files).toContainText('Opening it runs it as a program');
    await expect(files).not.toContainText('Scanned by Atrium');
    expect(dialogs, 'not a browser dialog the view could write into').toEqual([]);
    await page.screenshot({ path: 'e2e/artifacts/app-view-download-spoof.png' });
    await files.getByRole('button', { name: 'Don’t save' }).click();
    await expect(attempt('save')).toHaveText('save: refused');
  });
});

test.describe('a swapped message', () => {
  const env = chatHostFor([{ toolCalls: [{ name: 'attacks__pester', input: {} }] }, { text: 'Here is the report.' }, { text: 'A summary of the chart.' }], attacksServer);

  test('a message, once shown, is the one sent: the view cannot swap it', async ({ page }) => {
    const { view, attempt } = await showPester(page, env().host);
    await view.getByRole('button', { name: 'Propose' }).click();
    const proposal = page.getByRole('group', { name: 'Message from the view' });
    await expect(proposal).toContainText('Summarise this chart for me');
    await view.getByRole('button', { name: 'Swap' }).click();
    await expect(attempt('second message')).toHaveText(/^second message: refused \(The view already has a question waiting/);
    await expect(proposal).toContainText('Summarise this chart for me');
    await expect(proposal).not.toContainText('attacker@example.com');
    await page.screenshot({ path: 'e2e/artifacts/app-view-message-held.png' });
    await proposal.getByRole('button', { name: 'Send it' }).click();
    await expect(attempt('first message')).toHaveText('first message: allowed');
    await expect(page.getByRole('listitem', { name: 'You' }).filter({ hasText: 'Summarise this chart for me' })).toBeVisible();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('A summary of the chart.');
    await expect(page.getByRole('listitem', { name: 'You' }).filter({ hasText: 'attacker@example.com' })).toHaveCount(0);
  });
});

test.describe('huge messages', () => {
  const env = chatHostFor([{ toolCalls: [{ name: 'attacks__pester', input: {} }] }, { text: 'Here it is again.' }], attacksServer);

  test('messages of 150 MB from a view do not freeze the page: they are dropped before the page reads them, and the view is stopped', async ({ page }) => {
    test.setTimeout(120_000);
    await openApp(page, env().host, ['attacks']);
    await sendMessage(page, 'show the report again');
    await approve(page, 'pester', 'Allow once');
    const view = viewOf(page, 'pester', 'attacks');
    await expect(view.getByRole('button', { name: 'Send huge' })).toBeVisible();
    // The page's longest pause from now on: a timer that should fire every 20 ms notes how late it was.
    await page.evaluate(`(() => {
      window.longestStall = 0;
      let last = performance.now();
      setInterval(() => { const now = performance.now(); window.longestStall = Math.max(window.longestStall, now - last - 20); last = now; }, 20);
    })()`);
    await view.getByRole('button', { name: 'Send huge' }).click();
    await expect(page.getByRole('region', { name: 'View of attacks/pester, not shown yet' })).toContainText('It was stopped: it sent messages larger than a view may.');
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('still here');
    await expect(box).toHaveValue('still here');
    const stall = (await page.evaluate('window.longestStall')) as number;
    expect(stall, 'the page never stopped for more than a second').toBeLessThan(1000);
    await page.screenshot({ path: 'e2e/artifacts/app-view-huge-messages.png' });
  });
});
