// The desktop app as a person uses it: the unfused development build (`npm run build:renderer`, then
// the shell, built here) launched by Playwright's Electron driver against a temporary home, the scripted
// Anthropic fake and the real echo fixture server. It checks what only Electron can show: the renderer
// has no Node, runs from atrium://app/ under the CSP (a hostile reply or result runs and fetches nothing),
// opens links only through the URL gate, picks folders natively, warns about a weak keychain, and leaves
// no server process behind when it quits.
//
// It needs Electron's binary, which `npm install` does not fetch here (install scripts are off) and some
// machines cannot download. Where it is missing, every test is skipped and the reason printed. The
// binary is found the way `require('electron')` finds it (path.txt under node_modules/electron), without
// `require('electron')` itself, which would try to download it first. On Linux it needs a display
// (run under `xvfb-run` on a headless machine).
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { _electron as electron } from '@playwright/test';
import type { ElectronApplication, Page } from '@playwright/test';
import { requestNames } from '../shared/contract.ts';
import { locateElectron, realFiles } from '../main/electron/launch.ts';
import { E2E_MODEL } from './fixtures/chatHost.ts';
import type { RequestRecorder } from './fixtures/hostilePage.ts';
import { expectCspHolds, hostileText, startRequestRecorder } from './fixtures/hostilePage.ts';
import { expect, test } from './fixtures/hostProcess.ts';
import type { FakeLlmServer } from './fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from './fixtures/llm/fakeAnthropicServer.ts';
import { fixturePath } from './servers/launch.ts';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const location = locateElectron(join(repoRoot, 'node_modules', 'electron'), realFiles);
const skipReason = location.found ? '' : `Electron's binary is not installed on this machine (${location.reason}); the desktop journeys need it`;
if (skipReason) console.log(`electron.e2e.ts: skipped: ${skipReason}.`);
test.skip(!location.found, skipReason);

/** What a process list shows of each process: its command line, for finding what Atrium left running. */
function commandLines(): string[] {
  const listed =
    process.platform === 'win32'
      ? spawnSync('powershell', ['-NoProfile', '-Command', 'Get-CimInstance Win32_Process | ForEach-Object { $_.CommandLine }'], { encoding: 'utf8' })
      : spawnSync('ps', ['-A', '-o', 'args='], { encoding: 'utf8' });
  return listed.stdout.split(/\r?\n/);
}

interface Desktop {
  app: ElectronApplication;
  page: Page;
  home: string;
  /** A path only this run's echo server has on its command line. */
  serverMarker: string;
}

let llm: FakeLlmServer;
let tracker: RequestRecorder;
const homes: string[] = [];

test.beforeAll(async () => {
  if (!existsSync(join(repoRoot, 'dist', 'renderer', 'index.html'))) throw new Error('The renderer is not built: run `npm run build:renderer` first.');
  const { buildElectron } = await import('../main/electron/buildElectron.ts');
  await buildElectron();
  tracker = await startRequestRecorder();
  llm = await startFakeAnthropic([
    { toolCalls: [{ name: 'echo__echo', input: { text: 'hello from the desktop' } }] },
    { text: 'The server said hello. Read [the MCP docs](https://modelcontextprotocol.io/docs).' },
    { toolCalls: [{ name: 'echo__echo', input: { text: hostileText(tracker.url, 'tool') } }] },
    { text: hostileText(tracker.url, 'reply') },
  ]);
});

test.afterAll(async () => {
  await llm?.close();
  await tracker?.close();
  for (const home of homes) await rm(home, { recursive: true, force: true });
});

/** A fresh home with the echo server and the fake provider, and Atrium started on it. */
async function launchDesktop(extraArgs: string[] = [], extra: { servers?: Record<string, unknown>; llmUrl?: string } = {}): Promise<Desktop> {
  const home = await realpath(await mkdtemp(join(tmpdir(), 'atrium-electron-e2e-')));
  homes.push(home);
  // The echo fixture behind a wrapper whose path is unique to this run, so the process list can show
  // whether this run's server outlived the app (other runs on the machine have their own).
  const serverMarker = join(home, `echo-server-${process.pid}-${homes.length}.mjs`);
  await writeFile(serverMarker, `await import(${JSON.stringify(pathToFileURL(fixturePath('echoServer')).href)});\n`);
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [serverMarker] }, ...extra.servers } }));
  await writeFile(
    join(home, 'providers.json'),
    JSON.stringify({ providers: [{ id: 'claude', kind: 'anthropic', baseUrl: extra.llmUrl ?? llm.url, apiKeySecret: 'claude' }], default: { provider: 'claude', model: E2E_MODEL } }),
  );
  await mkdir(join(home, 'folder-to-pick'));
  const passThrough = ['DISPLAY', 'WAYLAND_DISPLAY', 'XAUTHORITY', 'XDG_RUNTIME_DIR', 'DBUS_SESSION_BUS_ADDRESS', 'SYSTEMROOT', 'TEMP', 'TMP'];
  const env: Record<string, string> = {
    ATRIUM_HOME: home,
    HOME: home,
    PATH: process.env.PATH ?? '',
    LANG: 'C.UTF-8',
    ATRIUM_SECRET_CLAUDE: 'sk-ant-e2e-not-real',
    ...Object.fromEntries(passThrough.flatMap((name) => (process.env[name] ? [[name, process.env[name]!]] : []))),
  };
  if (!location.found) throw new Error('unreachable: the file is skipped without Electron');
  const app = await electron.launch({ executablePath: location.executable, args: [...extraArgs, repoRoot], env, cwd: repoRoot });
  const page = await app.firstWindow();
  // A new data folder: the person approves each server in its start dialog, as the app asks (its
  // approvals are signed with the keychain's key, which no test can write for it).
  for (const name of ['echo', ...Object.keys(extra.servers ?? {})]) {
    await page.getByRole('dialog', { name: `Start ${name}?` }).getByRole('button', { name: 'Start server' }).click();
  }
  return { app, page, home, serverMarker };
}

test('desktop: a chat with an approved tool call, a renderer without Node, links only through the gate, folders picked natively, and quitting stops the servers', async () => {
  const { app, page, home, serverMarker } = await launchDesktop();
  let closed = false;
  try {
    await test.step('the window shows Atrium from atrium://app/, connected, with the echo server ready', async () => {
      await expect(page).toHaveURL('atrium://app/index.html');
      await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
      await page.getByRole('button', { name: 'Servers' }).click();
      await expect(page.getByRole('article', { name: 'echo', exact: true }).getByRole('status')).toHaveText('Ready');
    });

    await test.step('the renderer has no Node, only the contract’s API, and the CSP holds', async () => {
      expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
      expect(await page.evaluate(() => typeof (globalThis as { process?: unknown }).process)).toBe('undefined');
      expect(await page.evaluate(() => Object.keys((globalThis as unknown as { atrium: object }).atrium).sort())).toEqual([...requestNames, 'on'].sort());
      await expectCspHolds(page, tracker.url);
      const fetched = await page.evaluate(() => fetch('https://example.com/').then(() => 'fetched', () => 'blocked'));
      expect(fetched, 'the page may connect nowhere').toBe('blocked');
    });

    await test.step('a tool call waits for approval, runs once allowed, and the model answers', async () => {
      await page.getByRole('button', { name: 'Chat' }).click();
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('say hello through the server');
      await box.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Run echo?' });
      await expect(dialog.getByLabel('Arguments')).toContainText('hello from the desktop');
      await dialog.getByRole('button', { name: 'Allow once' }).click();
      await expect(page.getByRole('article', { name: 'Tool call echo/echo' }).getByRole('status')).toContainText('Done');
      await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('The server said hello.');
    });

    await test.step('a confirmed link goes to the browser through the gate; file:, javascript: and remote http do not', async () => {
      await app.evaluate(({ shell }) => {
        const opened: string[] = [];
        (globalThis as { openedLinks?: string[] }).openedLinks = opened;
        shell.openExternal = async (url: string) => void opened.push(url);
      });
      // The person says yes to the renderer's confirmation; answered in the page, so that no native
      // dialog depends on the driver.
      await page.evaluate(`window.confirm = (message) => { window.confirmed = message; return true; }`);
      await page.getByRole('listitem', { name: 'Assistant' }).last().getByRole('link', { name: 'the MCP docs' }).click();
      expect(await page.evaluate('window.confirmed')).toBe('Open this address in your browser?\n\nhttps://modelcontextprotocol.io/docs');
      const opened = () => app.evaluate(() => (globalThis as { openedLinks?: string[] }).openedLinks ?? []);
      await expect.poll(opened).toEqual(['https://modelcontextprotocol.io/docs']);
      for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'http://example.com/', 'https://user:pw@example.com/']) {
        await page.evaluate(`void window.open(${JSON.stringify(url)})`);
      }
      await page.evaluate(`void window.open('http://127.0.0.1:9/callback')`);
      await expect.poll(opened).toEqual(['https://modelcontextprotocol.io/docs', 'http://127.0.0.1:9/callback']);
      expect(app.windows(), 'no window was opened').toHaveLength(1);
    });

    await test.step('a hostile tool result and reply run nothing and fetch nothing', async () => {
      await page.getByRole('button', { name: 'Chat' }).click();
      const box = page.getByRole('textbox', { name: 'Message' });
      await box.fill('echo something hostile');
      await box.press('Enter');
      await page.getByRole('dialog', { name: 'Run echo?' }).getByRole('button', { name: 'Allow once' }).click();
      const result = page.getByRole('article', { name: 'Tool call echo/echo' }).last().getByLabel('Result of echo');
      await expect(result).toContainText(`<script>window.pwned = 'tool script'</script>`);
      const answer = page.getByRole('listitem', { name: 'Assistant' }).last();
      await expect(answer.getByRole('link', { name: '[image: chart]' })).toBeVisible();
      await expect(answer.locator('img, script, [onerror]')).toHaveCount(0);
      await expectCspHolds(page, tracker.url);
      expect(tracker.hits, 'no request left the window for the hostile addresses').toEqual([]);
    });

    await test.step('"Choose folder…" opens the system’s folder picker and adds what the person chose', async () => {
      const folder = join(home, 'folder-to-pick');
      await app.evaluate(({ dialog }, chosen) => {
        dialog.showOpenDialog = (async () => ({ canceled: false, filePaths: [chosen] })) as typeof dialog.showOpenDialog;
      }, folder);
      await page.getByRole('button', { name: 'Roots' }).click();
      const workspace = page.getByRole('region', { name: 'Workspace Default' });
      await workspace.getByRole('button', { name: 'Choose folder…' }).click();
      await expect(workspace.getByRole('list', { name: 'Folders of Default' })).toContainText(pathToFileURL(folder).href);
    });

    await test.step('quitting stops every server: none of this run’s is left', async () => {
      expect(commandLines().some((line) => line.includes(serverMarker)), 'the echo server runs while Atrium does').toBe(true);
      await app.close();
      closed = true;
      await expect.poll(() => commandLines().some((line) => line.includes(serverMarker)), { timeout: 15_000 }).toBe(false);
    });
  } finally {
    if (!closed) await app.close().catch(() => undefined);
  }
});

test('desktop on Linux without a keychain: Settings warns, and keys are stored only after the person accepts', async () => {
  test.skip(process.platform !== 'linux', 'safeStorage falls back to basic_text only on Linux');
  // --password-store=basic makes safeStorage use its fixed-password fallback, as on a desktop without a keyring.
  const { app, page } = await launchDesktop(['--password-store=basic']);
  try {
    await page.getByRole('button', { name: 'Settings' }).click();
    const providers = page.getByRole('region', { name: 'Providers' });
    await expect(providers.getByText('Keys are not well protected on this computer')).toBeVisible();
    await expect(providers).toContainText('basic_text');
    const add = page.getByRole('form', { name: 'Add a provider' });
    await expect(add.getByLabel(/^API key/), 'no key field until the person accepts').toHaveCount(0);
    await providers.getByRole('checkbox', { name: /Store keys here anyway/ }).check();
    await add.getByRole('textbox', { name: /^Name/ }).fill('weak');
    await add.getByLabel(/^API key/).fill('sk-ant-weakly-kept');
    await add.getByRole('button', { name: 'Add provider' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Added weak' })).toBeVisible();
    await expect(providers.getByRole('listitem').filter({ hasText: 'weak' })).toContainText('key set');
  } finally {
    await app.close();
  }
});

test('desktop: an MCP Apps view is shown from atrium-view://sandbox, gets its result, and cannot reach the window', async () => {
  const viewLlm = await startFakeAnthropic([{ toolCalls: [{ name: 'views__show_chart', input: { numbers: [4, 5] } }] }, { text: 'Here is your chart.' }]);
  const { app, page } = await launchDesktop([], { servers: { views: { command: process.execPath, args: [fixturePath('appViewServer')], trusted: true } }, llmUrl: viewLlm.url });
  try {
    await expect(page.getByRole('status', { name: 'Connection: Connected' })).toBeVisible();
    await page.getByRole('button', { name: 'Chat' }).click();
    const box = page.getByRole('textbox', { name: 'Message' });
    await box.fill('show me a chart');
    await box.press('Enter');
    await expect(page.getByRole('listitem', { name: 'Assistant' }).last()).toContainText('Here is your chart.');
    // A trusted server's view shows without a click, from the view scheme, not the window's origin.
    const relay = page.locator('iframe[title="View of views/show_chart"]');
    await expect(relay).toHaveAttribute('src', /^atrium-view:\/\/sandbox\/view\?/);
    const view = page.frameLocator('iframe[title="View of views/show_chart"]').frameLocator('iframe[title="View"]');
    await expect(view.getByText('Result: A chart of 3 numbers.')).toBeVisible();
    const reached = await view.locator('body').evaluate(() => {
      try {
        return String((globalThis as unknown as { parent: { parent: { document: { title: string } } } }).parent.parent.document.title);
      } catch {
        return 'blocked';
      }
    });
    expect(reached, 'the view cannot read the window').toBe('blocked');
    // WebRTC, which no CSP stops: the view has no peer connection, and no page sends it over plain UDP.
    expect(await view.locator('body').evaluate(() => typeof (globalThis as { RTCPeerConnection?: unknown }).RTCPeerConnection)).toBe('undefined');
    const policies = await app.evaluate(({ webContents }) => webContents.getAllWebContents().map((contents) => contents.getWebRTCIPHandlingPolicy()));
    expect(new Set(policies)).toEqual(new Set(['disable_non_proxied_udp']));
  } finally {
    await app.close();
    await viewLlm.close();
  }
});
