// Electron's main process: one instance, one window, the host core behind it. Bundled by
// main/electron/buildElectron.ts to dist/electron/main.mjs, with preload.cjs beside it, the renderer in
// dist/renderer/ (served as atrium://app/) and the sample server in dist/sampleServer/. The decisions
// live in small modules beside this file, each tested without Electron; this file only wires them.
import { app, BrowserWindow, dialog, ipcMain, Menu, Notification, protocol, safeStorage, screen, session, shell } from 'electron';
import type { OpenDialogOptions } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHostCore } from '../app/hostCore.ts';
import type { HostCore } from '../app/hostCore.ts';
import { resolveAtriumHome } from '../store/appHome.ts';
import { alreadyRunningSentence, lockDataFolder } from '../store/dataFolderLock.ts';
import type { DataFolderLock } from '../store/dataFolderLock.ts';
import { windowSecrets } from '../store/secrets.ts';
import { appId } from './appIdentity.ts';
import { buildMenuTemplate } from './appMenu.ts';
import { appEntryUrl, appScheme, appSchemePrivileges, serveAppRequest } from './appProtocol.ts';
import { serveViewSandboxRequest, viewSandboxUrl, viewScheme, viewSchemePrivileges } from './viewSandboxProtocol.ts';
import { bundledSampleServer } from './bundledSampleServer.ts';
import { registerIpc } from './ipcAdapter.ts';
import { notifyPendingRequests } from './pendingNotifier.ts';
import { desktopLaunchPinKeys } from './keychainPinKey.ts';
import { openKeychainSecrets } from './safeStorageSecrets.ts';
import type { ViewPermission, ViewTrust } from '../mcp/extensions/apps/contract/viewSandbox.ts';
import { guardPermissions, guardWebContents, openExternalLink, openSignInPage } from './webContentsPolicy.ts';
import type { LinkOpener } from './webContentsPolicy.ts';
import { buildWindowOptions, windowSizes } from './windowOptions.ts';
import { readWindowState, restoreWindow, writeWindowState } from './windowState.ts';
import type { WindowState } from './windowState.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const preloadPath = path.join(here, 'preload.cjs');
const rendererDir = path.join(here, '..', 'renderer');
/** The host stops its servers itself (SIGTERM, then SIGKILL); this only bounds a quit that hangs. */
const shutdownLimitMs = 15_000;
// The same data folder as the CLI and the browser mode, so all three see the same servers.
const home = resolveAtriumHome();

type QuitState = 'running' | 'shutting-down' | 'done';
let quitState: QuitState = 'running';
/** Set as soon as starting begins, so a quit during start-up still stops whatever was started. */
let hostStarting: Promise<HostCore> | undefined;
let host: HostCore | undefined;
/** This app's hold on the data folder (host.lock), from before any server starts until they are stopped. */
let folderLock: DataFolderLock | undefined;
let window: BrowserWindow | undefined;
let windowState: WindowState | undefined;
/** The last save of the window's bounds; quitting waits for it, or a fast quit would lose it. */
let savingWindowState: Promise<void> = Promise.resolve();

/** The browser permissions the person allowed some server's views; none until the host has said. */
let viewPermissionsAllowed: ReadonlySet<ViewPermission> = new Set();

const links: LinkOpener = { openExternal: (url) => shell.openExternal(url), warn: (message) => console.warn(message) };

// Must happen before `ready`: the scheme's privileges (standard, secure) cannot be added later.
protocol.registerSchemesAsPrivileged([appSchemePrivileges, viewSchemePrivileges]);

if (!app.requestSingleInstanceLock()) {
  // Another Atrium owns the servers and the data folder; it is asked to show itself instead.
  app.quit();
} else {
  app.enableSandbox();
  if (process.platform === 'win32') app.setAppUserModelId(appId);
  // Every page Electron creates (the window, devtools, anything a bug might open) gets the same rules.
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, links));
  app.on('second-instance', () => showWindow());
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  // macOS: clicking the Dock icon with no window open opens one again.
  app.on('activate', () => {
    if (host && !window) createWindow(host);
  });
  app.on('before-quit', (event) => {
    if (quitState === 'done' || !hostStarting) return;
    event.preventDefault();
    if (quitState === 'shutting-down') return;
    quitState = 'shutting-down';
    void Promise.all([hostStarting.then(shutDown, () => undefined), savingWindowState]).finally(() => {
      quitState = 'done';
      app.quit();
    });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
  app.whenReady().then(start, fail);
}

async function start(): Promise<void> {
  protocol.handle(appScheme, (request) => serveAppRequest(request, rendererDir));
  protocol.handle(viewScheme, (request) => serveViewSandboxRequest(request));
  guardPermissions(session.defaultSession, () => viewPermissionsAllowed);
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      buildMenuTemplate({
        platform: process.platform,
        appName: app.name,
        development: !app.isPackaged,
        actions: { openLink: (url) => void openExternalLink(url, links), showDataFolder: () => void shell.openPath(home) },
      }),
    ),
  );
  let core: HostCore;
  try {
    hostStarting = openHost();
    [core, windowState] = await Promise.all([hostStarting, readWindowState(home)]);
  } catch (error) {
    fail(error);
    return;
  }
  host = core;
  const keepViewPermissions = (trust: ViewTrust[]) => (viewPermissionsAllowed = new Set(trust.flatMap((entry) => entry.permissions.map((grant) => grant.permission))));
  core.events.on('viewTrustChanged', keepViewPermissions);
  keepViewPermissions(await core.api.listViewTrust({}));
  notifyPendingRequests({
    events: core.events,
    isWindowFocused: () => window?.isFocused() ?? false,
    show: (text, onClick) => {
      if (!Notification.isSupported()) return { close: () => undefined };
      const notification = new Notification({ title: text.title, body: text.body });
      notification.on('click', onClick);
      notification.show();
      return notification;
    },
    focusWindow: () => showWindow(),
  });
  if (quitState === 'running') createWindow(core);
}

async function openHost(): Promise<HostCore> {
  // Taken before any server starts: a browser-mode host on the same folder would start them all again.
  // (Electron's single-instance lock only sees other copies of the desktop app.)
  const attempt = await lockDataFolder(home, 'desktop');
  if ('heldBy' in attempt) {
    const holder = attempt.heldBy;
    throw new Error(`${alreadyRunningSentence(home, holder)} ${holder.frontEnd === 'browser' ? 'Use it in the browser, or stop it first (Ctrl+C where it was started), then open Atrium again.' : 'Use its window, or quit it first.'}`);
  }
  folderLock = attempt.lock;
  // Every way out gives the folder up; shutDown releases it once the servers are stopped.
  process.on('exit', () => attempt.lock.release());
  const keychain = await openKeychainSecrets(home, safeStorage);
  const launchPinKeys = desktopLaunchPinKeys(home, safeStorage, keychain.protection);
  return startHostCore({
    home,
    // A person is at the window to answer servers' sampling requests, unless they turned sampling off in Settings.
    samplingDefault: 'ask',
    secrets: windowSecrets(keychain.store),
    ...(keychain.store ? { secretStore: keychain.store } : {}),
    ...(keychain.protection.kind !== 'keychain' ? { keyStorageWarning: keychain.protection.warning } : {}),
    ...(launchPinKeys ? { launchPinKeys } : {}),
    frontEnd: { kind: 'electron', pickFolders, viewSandbox: viewSandboxUrl },
    // Opened from a desktop menu it has no terminal, and inherits the system's bare PATH; run from a terminal (npm start), that terminal's.
    launchedFromDesktop: process.stdout.isTTY !== true,
    sampleServer: bundledSampleServer(here),
    // A remote server's sign-in page goes to the person's own browser, through the same gate as links.
    signIn: { openAuthorizationUrl: (url) => openSignInPage(url, links) },
  });
}

function createWindow(core: HostCore): void {
  const primary = screen.getPrimaryDisplay();
  const workAreas = [primary, ...screen.getAllDisplays().filter((display) => display.id !== primary.id)].map((display) => display.workArea);
  const restored = restoreWindow(windowState, workAreas, windowSizes);
  const win = new BrowserWindow(buildWindowOptions(preloadPath, restored.bounds));
  window = win;
  if (restored.maximized) win.maximize();
  const disposeIpc = registerIpc({ ipcMain, window: win, api: core.api, events: core.events });
  win.once('ready-to-show', () => win.show());
  win.on('close', () => {
    windowState = { bounds: win.getNormalBounds(), maximized: win.isMaximized() };
    savingWindowState = writeWindowState(home, windowState).catch((error: unknown) => console.warn(`Atrium could not save the window's position: ${messageOf(error)}`));
  });
  win.on('closed', () => {
    disposeIpc();
    if (window === win) window = undefined;
  });
  win.loadURL(appEntryUrl).catch(fail);
}

function showWindow(): void {
  if (!window) {
    if (host && quitState === 'running') createWindow(host);
    return;
  }
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

/** The Roots view's "Choose folder…": the system's folder picker, over the window. */
async function pickFolders(): Promise<string[]> {
  const options: OpenDialogOptions = {
    title: 'Choose folders that servers may work in',
    buttonLabel: 'Add',
    properties: ['openDirectory', 'multiSelections', 'createDirectory'],
  };
  const chosen = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
  return chosen.canceled ? [] : chosen.filePaths;
}

async function shutDown(core: HostCore): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      console.error('Atrium: stopping the MCP servers took too long; quitting anyway.');
      resolve();
    }, shutdownLimitMs);
  });
  try {
    await Promise.race([core.shutdown(), limit]);
  } catch (error) {
    console.error(`Atrium: stopping the MCP servers failed: ${messageOf(error)}`);
  } finally {
    clearTimeout(timer);
    folderLock?.release();
  }
}

/** A start-up failure is shown to the person as a sentence, then Atrium exits. */
function fail(error: unknown): void {
  const message = messageOf(error);
  console.error(`Atrium could not start: ${message}`);
  dialog.showErrorBox('Atrium could not start', message);
  quitState = 'done';
  const starting = hostStarting;
  hostStarting = undefined;
  void (starting ? starting.then(shutDown, () => undefined) : Promise.resolve()).finally(() => app.exit(1));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
