// Signing in to a remote server from the window, in the browser mode against a real host, a real MCP
// server and its authorization server (e2e/servers/oauthServer.ts), and a scripted LLM: the server is
// added through the Add server form and waits for a sign-in; a sign-in can be called off; the page
// opens in a new tab on the person's click, approves and comes back; a tool answers in the chat; the
// sign-in survives a host restart; a tool call that fails for want of a sign-in leads to the Sign-in
// tab; signing out asks first. A refused sign-in says so. The Sign-in tab passes axe in both themes.
import type { Locator, Page } from '@playwright/test';
import { violationsInBothThemes } from './fixtures/axe.ts';
import { E2E_MODEL, sendMessage } from './fixtures/chatHost.ts';
import type { FakeLlmServer } from './fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from './fixtures/llm/fakeAnthropicServer.ts';
import type { HostOptions, RunningHost } from './fixtures/hostProcess.ts';
import { expect, startHostProcess, test } from './fixtures/hostProcess.ts';
import type { HttpFixtureHandle } from './servers/launch.ts';
import { startHttpFixture } from './servers/launch.ts';

let llm: FakeLlmServer;
let oauth: HttpFixtureHandle;
let denying: HttpFixtureHandle;
const hosts: RunningHost[] = [];

test.beforeAll(async () => {
  [llm, oauth, denying] = await Promise.all([
    startFakeAnthropic([
      { toolCalls: [{ id: 'call_whoami_first', name: 'remote__whoami', input: {} }] },
      { text: 'You are alice.' },
      { toolCalls: [{ id: 'call_whoami_after_restart', name: 'remote__whoami', input: {} }] },
      { text: 'Still alice after the restart.' },
      {
        toolCalls: [
          { id: 'call_revoke_all', name: 'remote__revoke_all_tokens', input: {} },
          { id: 'call_whoami_revoked', name: 'remote__whoami', input: {} },
        ],
      },
      { text: 'The server no longer knows you.' },
    ]),
    startHttpFixture('oauthServer'),
    startHttpFixture('oauthServer', ['--deny']),
  ]);
});

test.afterAll(async () => {
  for (const host of hosts) await host.stop().catch(() => undefined);
  await Promise.all([llm?.close(), oauth?.stop(), denying?.stop()]);
});

async function startHost(options: Omit<HostOptions, 'providers' | 'env'>): Promise<RunningHost> {
  const running = await startHostProcess({
    ...options,
    providers: { providers: [{ id: 'claude', kind: 'anthropic', baseUrl: llm.url, apiKeySecret: 'claude' }], default: { provider: 'claude', model: E2E_MODEL } },
    env: { ATRIUM_SECRET_CLAUDE: 'sk-ant-e2e-not-real' },
  });
  hosts.push(running);
  return running;
}

const card = (page: Page, id: string) => page.getByRole('article', { name: id, exact: true });
const detail = (page: Page, id: string) => page.getByRole('region', { name: `Server ${id}` });
const signInTab = (page: Page, id: string) => detail(page, id).getByRole('tabpanel', { name: 'Sign-in' });
const authorizeLines = (fixture: HttpFixtureHandle) => fixture.stderr().split('\n').filter((line) => line.startsWith('authorize ')).length;

/** Opens the sign-in page from the progress panel, as the person clicks it; resolves with the tab it opened once it has loaded. */
async function openSignInPage(page: Page, panel: Locator): Promise<Page> {
  const [popup] = await Promise.all([page.waitForEvent('popup'), panel.getByRole('button', { name: 'Open sign-in page' }).click()]);
  await popup.waitForLoadState();
  return popup;
}

test('remote sign-in: add, cancel, sign in, use a tool, restart still signed in, sign in again from the chat, sign out', async ({ page }) => {
  test.setTimeout(180_000);
  // Everything the host sends the window, across the restart: it must never carry a token.
  const frames: string[] = [];
  page.on('websocket', (socket) => socket.on('framereceived', ({ payload }) => void frames.push(String(payload))));
  const running = await startHost({ mcpServers: {} });
  await page.goto(running.host.url);
  await page.getByRole('button', { name: 'Servers' }).click();

  await test.step('a remote server added through the form waits for a sign-in, and says so', async () => {
    await page.getByRole('button', { name: 'Add server' }).click();
    const form = page.getByRole('dialog', { name: 'Add a server' });
    await form.getByRole('textbox', { name: 'Name', exact: true }).fill('remote');
    await form.getByRole('combobox', { name: 'Kind' }).selectOption('http');
    await form.getByRole('textbox', { name: 'Address' }).fill(oauth.url);
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog', { name: 'Start remote?' }).getByRole('button', { name: 'Start server' }).click();
    await expect(card(page, 'remote').getByRole('status')).toHaveText('Sign-in needed');
    await expect(card(page, 'remote')).toContainText('Not signed in');
    expect(authorizeLines(oauth), 'nothing was opened behind the person’s back').toBe(0);
  });

  const panel = signInTab(page, 'remote');
  await test.step('signing in shows the page’s full address and domain; Cancel calls it off', async () => {
    await card(page, 'remote').getByRole('button', { name: 'Sign in to remote…' }).click();
    await expect(detail(page, 'remote').getByRole('tab', { name: 'Sign-in' })).toHaveAttribute('aria-selected', 'true');
    await expect(panel).toContainText('Not signed in');
    await panel.getByRole('button', { name: 'Sign in', exact: true }).click();
    const progress = panel.getByRole('region', { name: 'Signing in' });
    const address = progress.getByRole('group', { name: 'Sign-in page address' });
    await expect(address).toContainText(`${new URL(oauth.url).origin}/authorize?`);
    await expect(address).toContainText('code_challenge_method=S256');
    await expect(address.locator('mark')).toHaveText('127.0.0.1');
    await expect(progress.getByRole('button', { name: 'Open sign-in page' }), 'the keyboard is on the button that opens it').toBeFocused();
    await page.screenshot({ path: 'e2e/artifacts/servers-signing-in.png' });
    expect(await violationsInBothThemes(page, 'Servers › Sign-in (signing in)')).toEqual([]);

    await progress.getByRole('button', { name: 'Cancel sign-in' }).click();
    await expect(progress).toHaveCount(0);
    await expect(panel.getByRole('heading')).toHaveText('Not signed in');
    await expect(panel.getByLabel('Last error')).toHaveText('remote: the sign-in was cancelled');
    await expect(card(page, 'remote').getByRole('status')).toHaveText('Sign-in needed');
    expect(authorizeLines(oauth)).toBe(0);
  });

  await test.step('the page opens in a new tab on a click, approves, and the server is signed in and ready', async () => {
    await panel.getByRole('button', { name: 'Sign in', exact: true }).click();
    const popup = await openSignInPage(page, panel.getByRole('region', { name: 'Signing in' }));
    await expect(popup.getByRole('heading', { name: 'Signed in' })).toBeVisible();
    await popup.close();
    await expect(card(page, 'remote').getByRole('status')).toHaveText('Ready');
    await expect(panel.getByText('Signed in as alice')).toBeVisible();
    await expect(panel.getByLabel('Scopes')).toHaveText('read');
    await expect(panel.getByLabel('Issued by')).toHaveText(new URL(oauth.url).origin);
    await expect(panel.getByLabel('Expiry')).toContainText(/^expires in (1 h|59 min) \(/);
    await expect(panel.getByLabel('Last error')).toHaveCount(0);
    await expect(card(page, 'remote')).toContainText(/Signed in as alice · expires in (1 h|59 min)/);
    await page.screenshot({ path: 'e2e/artifacts/servers-sign-in.png' });
    expect(await violationsInBothThemes(page, 'Servers › Sign-in (signed in)')).toEqual([]);
    expect(authorizeLines(oauth)).toBe(1);
  });

  await test.step('the model calls one of its tools, and the answer shows', async () => {
    await sendMessage(page, 'who am I there?');
    const approval = page.getByRole('dialog', { name: 'Run whoami?' });
    await approval.getByRole('radio', { name: /Every tool of this server/ }).check();
    await approval.getByRole('button', { name: 'Always allow' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('You are alice.');
    await expect(page.getByRole('article', { name: 'Tool call remote/whoami' })).toContainText('alice read');
  });

  await test.step('after a restart of the host the server is still signed in, and its tool works without a sign-in', async () => {
    const host = await running.restart();
    await page.goto(host.url);
    await page.getByRole('button', { name: 'Servers' }).click();
    await expect(card(page, 'remote').getByRole('status')).toHaveText('Ready');
    await expect(card(page, 'remote')).toContainText('Signed in as alice');
    await sendMessage(page, 'and now?');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Still alice after the restart.');
    await expect(page.getByRole('article', { name: 'Tool call remote/whoami' })).toContainText('alice read');
    expect(authorizeLines(oauth), 'nobody was asked to sign in again').toBe(1);
  });

  await test.step('a tool call that fails for want of a sign-in leads to the server’s Sign-in tab', async () => {
    // In a new conversation: the last one has read the server's answer (it is not trusted), so there its tools ask every time.
    await page.getByRole('button', { name: 'Chat' }).click();
    await page.getByRole('button', { name: 'New conversation' }).click();
    await sendMessage(page, 'forget me');
    // revoke_all_tokens runs as allowed always; once its answer is read, whoami asks.
    await page.getByRole('dialog', { name: 'Run whoami?' }).getByRole('button', { name: 'Allow once' }).click();
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('The server no longer knows you.');
    const failed = page.getByRole('article', { name: 'Tool call remote/whoami' }).last();
    await expect(failed.getByRole('status')).toHaveText(/^Failed/);
    await expect(failed).toContainText('remote needs you to sign in before its tools work.');
    await expect(page.getByRole('article', { name: 'Tool call remote/revoke_all_tokens' }).getByText('remote needs you to sign in'), 'a call that worked gets no hint').toHaveCount(0);
    await page.screenshot({ path: 'e2e/artifacts/chat-sign-in-needed.png' });
    await failed.getByRole('button', { name: 'Go to sign-in' }).click();
    await expect(page.getByRole('button', { name: 'Servers' })).toHaveAttribute('aria-current', 'page');
    await expect(detail(page, 'remote').getByRole('tab', { name: 'Sign-in' })).toHaveAttribute('aria-selected', 'true');
    await expect(panel.getByRole('heading')).toHaveText('Not signed in');
    await expect(panel.getByLabel('Last error')).toContainText('remote:');

    await panel.getByRole('button', { name: 'Sign in', exact: true }).click();
    const popup = await openSignInPage(page, panel.getByRole('region', { name: 'Signing in' }));
    await popup.close();
    await expect(panel.getByText('Signed in as alice')).toBeVisible();
    await expect(panel.getByLabel('Last error')).toHaveCount(0);
    expect(authorizeLines(oauth)).toBe(2);
  });

  await test.step('signing out asks first, from the keyboard: Escape keeps the sign-in, confirming revokes it', async () => {
    const signOut = panel.getByRole('button', { name: 'Sign out', exact: true });
    await signOut.focus();
    await page.keyboard.press('Enter');
    const confirmation = panel.getByRole('group', { name: 'Sign out of remote?' });
    await expect(confirmation.getByRole('button', { name: 'Keep signed in' }), 'the safe answer has the focus').toBeFocused();
    await page.keyboard.press('Escape');
    await expect(confirmation).toHaveCount(0);
    await expect(signOut).toBeFocused();
    await expect(panel.getByText('Signed in as alice')).toBeVisible();

    await page.keyboard.press('Enter');
    await expect(confirmation.getByRole('button', { name: 'Keep signed in' })).toBeFocused();
    await page.keyboard.press('Shift+Tab');
    await expect(confirmation.getByRole('button', { name: 'Sign out' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(panel.getByRole('heading')).toHaveText('Not signed in');
    await expect(card(page, 'remote').getByRole('status')).toHaveText('Sign-in needed');
    await expect(card(page, 'remote')).toContainText('Not signed in');
    await oauth.waitForStderr(/^revoke refresh_token$/);
  });

  await test.step('no token ever reached the window: only who, until when and for what', async () => {
    expect(frames.some((frame) => frame.includes('"subject":"alice"')), 'the window saw the sign-in').toBe(true);
    // The words on their own: a tool's name that contains one (revoke_access_tokens, which server cards list) is not a token.
    expect(frames.filter((frame) => /(?<![a-z_])(access_token|refresh_token|id_token|code_verifier)(?![a-z_])|Bearer /i.test(frame))).toEqual([]);
  });
});

test('a sign-in the authorization server refuses says so, and can be tried again', async ({ page }) => {
  const running = await startHost({ mcpServers: { strict: { url: denying.url } } });
  await page.goto(running.host.url);
  await page.getByRole('button', { name: 'Servers' }).click();
  await expect(card(page, 'strict').getByRole('status')).toHaveText('Sign-in needed');
  await card(page, 'strict').getByRole('button', { name: 'Sign in to strict…' }).click();
  const panel = signInTab(page, 'strict');
  await panel.getByRole('button', { name: 'Sign in', exact: true }).click();
  const popup = await openSignInPage(page, panel.getByRole('region', { name: 'Signing in' }));
  await expect(popup.getByRole('heading', { name: 'Sign-in did not complete' })).toBeVisible();
  await popup.close();
  await expect(panel.getByRole('heading')).toHaveText('Sign-in failed');
  await expect(panel.getByLabel('Last error')).toHaveText('strict: sign-in failed: the authorization server did not grant access (access_denied)');
  await expect(panel.getByRole('alert'), 'the reason is shown once').toHaveCount(0);
  await expect(card(page, 'strict').getByRole('status')).toHaveText('Sign-in needed');
  await expect(card(page, 'strict')).toContainText('Sign-in failed');
  await expect(panel.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
});
