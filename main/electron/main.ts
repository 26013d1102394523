// Electron's main process: one instance, one window, the host core behind it. Bundled by
// main/electron/buildElectron.ts to dist/electron/main.mjs, with preload.cjs beside it and the renderer
// in dist/renderer/.
import { app, BrowserWindow, dialog, ipcMain } from 'electron';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startHostCore } from '../host/hostCore.ts';
import type { HostCore } from '../host/hostCore.ts';
import { resolveAtriumHome } from '../store/appHome.ts';
import { registerIpc } from './ipcAdapter.ts';
import { buildWindowOptions } from './windowOptions.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
const preloadPath = path.join(here, 'preload.cjs');
const rendererIndex = path.join(here, '..', 'renderer', 'index.html');
/** The host stops its servers itself (SIGTERM, then SIGKILL); this only bounds a quit that hangs. */
const shutdownLimitMs = 15_000;

type QuitState = 'running' | 'shutting-down' | 'done';
let quitState: QuitState = 'running';
/** Set as soon as starting begins, so a quit during start-up still stops whatever was started. */
let hostStarting: Promise<HostCore> | undefined;
let host: HostCore | undefined;
let window: BrowserWindow | undefined;

if (!app.requestSingleInstanceLock()) {
  // Another Atrium owns the servers and the data folder; it is asked to show itself instead.
  app.quit();
} else {
  app.enableSandbox();
  app.on('second-instance', () => {
    if (!window) return;
    if (window.isMinimized()) window.restore();
    window.focus();
  });
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });
  app.on('activate', () => {
    if (host && !window) createWindow(host);
  });
  app.on('before-quit', (event) => {
    if (quitState === 'done' || !hostStarting) return;
    event.preventDefault();
    if (quitState === 'shutting-down') return;
    quitState = 'shutting-down';
    void hostStarting.then(shutDown, () => undefined).finally(() => {
      quitState = 'done';
      app.quit();
    });
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());
  app.whenReady().then(start, fail);
}

async function start(): Promise<void> {
  let core: HostCore;
  try {
    // The same data folder as the CLI and the browser mode, so all three see the same servers.
    // A person is at the window to answer servers' sampling requests, unless they turned sampling off in Settings.
    hostStarting = startHostCore({ home: resolveAtriumHome(), samplingDefault: 'ask' });
    core = await hostStarting;
  } catch (error) {
    hostStarting = undefined;
    fail(error);
    return;
  }
  host = core;
  if (quitState === 'running') createWindow(core);
}

function createWindow(core: HostCore): void {
  const win = new BrowserWindow(buildWindowOptions(preloadPath));
  window = win;
  const disposeIpc = registerIpc({ ipcMain, window: win, api: core.api, events: core.events });
  win.once('ready-to-show', () => win.show());
  // The page never leaves Atrium and never opens windows; links are handled by the renderer.
  win.webContents.on('will-navigate', (event) => event.preventDefault());
  win.webContents.setWindowOpenHandler(() => ({ action: 'deny' }));
  win.on('closed', () => {
    disposeIpc();
    if (window === win) window = undefined;
  });
  win.loadFile(rendererIndex).catch(fail);
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
