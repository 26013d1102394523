// The built shell (dist/electron/main.mjs, as `npm run build:electron` makes it) run on plain Node with
// fakeElectron.ts answering for 'electron', against a temporary home and the real echo fixture server.
// Electron's binary cannot be installed on every machine; this proves the wiring main.mjs does itself
// (the scheme registered before ready, the page served from dist/renderer with the CSP, the IPC gate,
// the permission and link rules, notifications, the window's bounds saved, servers stopped on quit).
// What Electron itself does with all that is e2e/electron.e2e.ts's part, where the binary exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { once } from 'node:events';
import type { EventEmitter } from 'node:events';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'vite';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { fixturePath } from '../../e2e/servers/launch.ts';
import { contentSecurityPolicy } from '../api/securityHeaders.ts';
import { buildElectron, electronOutDir } from './buildElectron.ts';
import type { FakeRecord, FakeWindow } from '../../e2e/fixtures/fakeElectron.ts';
import { WINDOW_STATE_FILE } from './windowState.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';
import { desktopLaunchPinKeys } from './keychainPinKey.ts';
import type { SafeStorageBackend } from './safeStorageSecrets.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const fakeUrl = new URL('../../e2e/fixtures/fakeElectron.ts', import.meta.url).href;

const home = await realpath(await makeTempDir('atrium-wiring-'));
const serverMarker = path.join(home, `echo-server-${process.pid}.mjs`);

/** This test's echo servers still running (their command line names this run's wrapper). */
function serverPids(): number[] {
  const lines = spawnSync('ps', ['-A', '-o', 'pid=,args='], { encoding: 'utf8' }).stdout.split('\n');
  return lines.filter((line) => line.includes(serverMarker)).map((line) => Number.parseInt(line, 10));
}

function serverRunning(): boolean {
  return serverPids().length > 0;
}

test.after(async () => {
  // A failed quit must not leave this test's server behind (nor keep this process alive).
  for (const pid of serverPids()) process.kill(pid, 'SIGKILL');
  await rm(home, { recursive: true, force: true });
});

test('the built shell wires Electron as intended, from start to quit', { skip: process.platform === 'win32' ? 'lists processes with ps' : false }, async (t) => {
  if (!existsSync(path.join(root, 'dist', 'renderer', 'index.html'))) await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: 'error' });
  await buildElectron();
  await writeFile(serverMarker, `await import(${JSON.stringify(pathToFileURL(fixturePath('echoServer')).href)});\n`);
  // Unsandboxed: its script lives in the data folder (so this run's processes can be told by it), which a sandbox hides.
  await writeFile(path.join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [serverMarker], sandbox: false } } }));
  // Approved in the app before: its keychain (the fake's) signs the approval.
  const fake = (await import(fakeUrl)) as { safeStorage: SafeStorageBackend };
  await approveServers(home, desktopLaunchPinKeys(home, fake.safeStorage, { kind: 'keychain' }));
  process.env.ATRIUM_HOME = home;
  registerHooks({
    resolve: (specifier, context, next) => (specifier === 'electron' ? { url: fakeUrl, shortCircuit: true } : next(specifier, context)),
  });
  const { record, app } = (await import(fakeUrl)) as { record: FakeRecord; app: EventEmitter };
  await import(pathToFileURL(path.join(electronOutDir, 'main.mjs')).href);

  await t.test('atrium:// is registered as standard and secure before the app is ready', () => {
    assert.deepEqual(record.schemes, [
      { scheme: 'atrium', privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true, bypassCSP: false, allowServiceWorkers: false } },
      // MCP Apps views: an origin of their own, never the window's.
      { scheme: 'atrium-view', privileges: { standard: true, secure: true, supportFetchAPI: false, codeCache: false, bypassCSP: false, allowServiceWorkers: false } },
    ]);
    assert.equal(record.readyAt, undefined);
  });

  const windowCreated = once(app, 'web-contents-created');
  record.ready();
  await windowCreated;
  const win = record.windows[0] as FakeWindow;

  await t.test('one sandboxed window loads atrium://app/index.html with the bundled preload', () => {
    assert.equal(record.windows.length, 1);
    assert.equal(win.webContents.mainFrame.url, 'atrium://app/index.html');
    const prefs = win.options.webPreferences;
    assert.deepEqual([prefs.sandbox, prefs.contextIsolation, prefs.nodeIntegration, prefs.webSecurity], [true, true, false, true]);
    assert.equal(prefs.preload, path.join(electronOutDir, 'preload.cjs'));
    assert.ok(existsSync(String(prefs.preload)));
  });

  await t.test('the scheme serves the built renderer with the CSP, and nothing outside it', async () => {
    const handler = record.protocolHandlers.get('atrium');
    assert.ok(handler);
    const page = await handler(new Request('atrium://app/index.html'));
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-security-policy'), contentSecurityPolicy({ connect: [], frames: ['atrium-view://sandbox'] }));
    const html = await page.text();
    const script = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    assert.ok(script, 'index.html loads its bundle');
    const bundle = await handler(new Request(`atrium://app/${script}`));
    assert.equal(bundle.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal((await handler(new Request('atrium://app/../electron/main.mjs'))).status, 404);
    assert.equal((await handler(new Request('atrium://app/%2e%2e/electron/main.mjs'))).status, 404);
    // The view sandbox's scheme serves the relay page with the view's own policy, and nothing of the app.
    const views = record.protocolHandlers.get('atrium-view');
    assert.ok(views);
    const relay = await views(new Request(`atrium-view://sandbox/view?${new URLSearchParams({ host: 'atrium://app', csp: '{}' })}`));
    assert.equal(relay.status, 200);
    assert.match(relay.headers.get('content-security-policy') ?? '', /frame-ancestors atrium:\/\/app$/);
    assert.equal((await views(new Request('atrium-view://sandbox/index.html'))).status, 404);
  });

  const invoke = (name: string, params: unknown, frame: unknown = win.webContents.mainFrame) =>
    record.ipcHandlers.get(`atrium:${name}`)!({ senderFrame: frame }, params) as Promise<{ ok: boolean; result?: unknown; error?: { message: string } }>;

  await t.test('IPC answers the window’s own page, as the desktop front end with a folder picker, and no other frame', async () => {
    assert.deepEqual(await invoke('getHostInfo', {}), { ok: true, result: { frontEnd: 'electron', canPickFolders: true, viewSandbox: 'atrium-view://sandbox/view' } });
    assert.equal((await invoke('getHostInfo', {}, { url: 'atrium://app/index.html' })).ok, false);
    assert.equal((await invoke('getHostInfo', { extra: 1 })).ok, false);
    assert.deepEqual(await invoke('pickFolders', {}), { ok: true, result: [] }, 'the (fake) dialog was cancelled');
    const settings = await invoke('getSettings', {});
    assert.equal((settings.result as { canStoreKeys: boolean; keyStorageWarning?: string }).canStoreKeys, true);
    assert.equal((settings.result as { keyStorageWarning?: string }).keyStorageWarning, undefined);
  });

  await t.test('permissions are denied but what the person allowed views, links go out only through the gate, the menu is set', async () => {
    const answers: boolean[] = [];
    const ask = (permission: string, details: object) =>
      (record.permissionHandlers.setPermissionRequestHandler as (c: unknown, p: string, cb: (granted: boolean) => void, d: object) => void)({}, permission, (granted) => answers.push(granted), details);
    const view = { isMainFrame: false, requestingUrl: 'about:srcdoc' };
    ask('media', { ...view, mediaTypes: ['video'] });
    ask('geolocation', view);
    assert.deepEqual(answers, [false, false]);
    // The person allows location for a server's views, in the window: the handler hears it from the host.
    assert.equal((await invoke('setViewPermission', { serverId: 'echo', permission: 'geolocation', allowed: true })).ok, true);
    ask('geolocation', view);
    ask('geolocation', { isMainFrame: true, requestingUrl: 'atrium://app/index.html' });
    assert.deepEqual(answers, [false, false, true, false]);
    assert.deepEqual(win.webContents.windowOpenHandler?.({ url: 'file:///etc/passwd' }), { action: 'deny' });
    assert.deepEqual(win.webContents.windowOpenHandler?.({ url: 'https://example.com/' }), { action: 'deny' });
    await Promise.resolve();
    assert.deepEqual(record.openedExternally, ['https://example.com/']);
    const labels = ((record.menu as { template: { label?: string }[] }).template).map((item) => item.label?.replace('&', ''));
    assert.deepEqual(labels.slice(-5), ['File', 'Edit', 'View', 'Window', 'Help']);
  });

  await t.test('a server’s request while the window is not focused is notified, and leaves with its answer', async () => {
    const ready = async () => ((await invoke('listServers', {})).result as { id: string; status: { kind: string } }[]).find((s) => s.id === 'echo')?.status.kind === 'ready';
    if (!(await ready())) {
      const becameReady = new Promise<void>((resolve, reject) => {
        setTimeout(() => reject(new Error('echo did not become ready within 60 s')), 60_000).unref();
        const check = (args: unknown[]) => {
          const [, name, payload] = args as [string, string, { id?: string; status?: { kind: string } }];
          if (name === 'serverChanged' && payload.id === 'echo' && payload.status?.kind === 'ready') resolve();
        };
        win.webContents.on('sent', check);
      });
      await becameReady;
    }
    win.focused = false;
    const opened = new Promise<string>((resolve) => win.webContents.on('sent', (args: unknown[]) => args[1] === 'pendingOpened' && resolve((args[2] as { id: string }).id)));
    const call = invoke('callTool', { serverId: 'echo', tool: 'ask', arguments: { message: 'Who are you?' } });
    const id = await opened;
    assert.deepEqual(record.notifications, [{ title: 'echo asks you for information', body: 'A form is waiting for your answer in Atrium.', shown: true }]);
    assert.deepEqual(await invoke('respondPending', { id, outcome: { action: 'decline' } }), { ok: true, result: null });
    assert.equal((await call).ok, true);
    assert.equal(record.notifications[0]?.shown, false);
  });

  await t.test('the app holds the data folder (host.lock) while it runs, so a browser-mode host on it refuses to start', async () => {
    const lock = JSON.parse(await readFile(path.join(home, 'host.lock'), 'utf8')) as { pid: number; frontEnd: string };
    assert.deepEqual([lock.pid, lock.frontEnd], [process.pid, 'desktop']);
  });

  await t.test('closing the window saves its bounds; quitting stops every server', async () => {
    assert.ok(serverRunning(), 'the echo server runs while Atrium does');
    win.close();
    await record.quitted;
    assert.deepEqual(JSON.parse(await readFile(path.join(home, WINDOW_STATE_FILE), 'utf8')), { bounds: { x: 100, y: 100, width: 1280, height: 800 }, maximized: false });
    assert.equal(serverRunning(), false, 'no server process is left');
    assert.equal(existsSync(path.join(home, 'host.lock')), false, 'quitting gives the data folder up');
    assert.equal(record.exitCode, undefined, 'a clean quit, not a failure exit');
    assert.deepEqual(record.errors, []);
  });
});
