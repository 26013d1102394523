// A stand-in for the `electron` module, for mainWiring.int.test.ts only: where Electron's binary cannot
// be installed, the built main.mjs still runs on plain Node with this module resolved for 'electron'.
// It records what main does (the scheme registered before ready, the window's options, handlers, menus)
// and lets the test drive it (ready, quit, IPC, closing the window). It behaves as Electron documents,
// in the few places main relies on; everything else is absent, so an unexpected call fails loudly.
import { EventEmitter } from 'node:events';

type Listener = (...args: never[]) => unknown;

class Emitter extends EventEmitter {}

export interface FakeRecord {
  readyAt?: number;
  schemesRegisteredAt?: number;
  schemes: unknown[];
  protocolHandlers: Map<string, (request: Request) => Promise<Response>>;
  ipcHandlers: Map<string, (event: unknown, params: unknown) => Promise<unknown>>;
  windows: FakeWindow[];
  menu?: unknown;
  permissionHandlers: Record<string, Listener>;
  notifications: { title: string; body: string; shown: boolean }[];
  errors: { title: string; message: string }[];
  openedExternally: string[];
  exitCode?: number;
  ready(): void;
  quitted: Promise<void>;
}

let markReady: () => void = () => undefined;
const readiness = new Promise<void>((resolve) => (markReady = resolve));
let markQuitted: () => void = () => undefined;

export const record: FakeRecord = {
  schemes: [],
  protocolHandlers: new Map(),
  ipcHandlers: new Map(),
  windows: [],
  permissionHandlers: {},
  notifications: [],
  errors: [],
  openedExternally: [],
  ready: () => {
    record.readyAt = performance.now();
    markReady();
  },
  quitted: new Promise<void>((resolve) => (markQuitted = resolve)),
};
(globalThis as { fakeElectron?: FakeRecord }).fakeElectron = record;

class FakeApp extends Emitter {
  readonly name = 'Atrium';
  readonly isPackaged = false;
  requestSingleInstanceLock(): boolean {
    return true;
  }
  enableSandbox(): void {}
  setAppUserModelId(): void {}
  whenReady(): Promise<void> {
    return readiness;
  }
  quit(): void {
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (!prevented) markQuitted();
  }
  exit(code: number): void {
    record.exitCode = code;
    markQuitted();
  }
}
export const app = new FakeApp();

export const protocol = {
  registerSchemesAsPrivileged(schemes: unknown[]): void {
    record.schemesRegisteredAt = performance.now();
    record.schemes.push(...schemes);
  },
  handle(scheme: string, handler: (request: Request) => Promise<Response>): void {
    record.protocolHandlers.set(scheme, handler);
  },
};

export const session = {
  defaultSession: Object.fromEntries(
    ['setPermissionRequestHandler', 'setPermissionCheckHandler', 'setDevicePermissionHandler', 'setDisplayMediaRequestHandler'].map((name) => [
      name,
      (handler: Listener) => (record.permissionHandlers[name] = handler),
    ]),
  ),
};

export const ipcMain = {
  handle: (channel: string, handler: (event: unknown, params: unknown) => Promise<unknown>) => record.ipcHandlers.set(channel, handler),
  removeHandler: (channel: string) => record.ipcHandlers.delete(channel),
};

export const Menu = {
  buildFromTemplate: (template: unknown) => ({ template }),
  setApplicationMenu: (menu: unknown) => (record.menu = menu),
};

export const dialog = {
  showErrorBox: (title: string, message: string) => record.errors.push({ title, message }),
  showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
};

export const shell = {
  openExternal: async (url: string) => void record.openedExternally.push(url),
  openPath: async () => '',
};

export const screen = {
  getPrimaryDisplay: () => ({ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }),
  getAllDisplays: () => [{ id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } }],
};

export const safeStorage = {
  isAsyncEncryptionAvailable: async () => true,
  getSelectedStorageBackend: () => 'gnome_libsecret',
  encryptStringAsync: async (text: string) => Buffer.from(Buffer.from(text).map((b) => b ^ 0x5a)),
  decryptStringAsync: async (blob: Buffer) => ({ result: Buffer.from(blob.map((b) => b ^ 0x5a)).toString(), shouldReEncrypt: false }),
};

export class Notification extends Emitter {
  static isSupported(): boolean {
    return true;
  }
  private readonly entry: { title: string; body: string; shown: boolean };
  constructor(options: { title: string; body: string }) {
    super();
    this.entry = { title: options.title, body: options.body, shown: false };
    record.notifications.push(this.entry);
  }
  show(): void {
    this.entry.shown = true;
  }
  close(): void {
    this.entry.shown = false;
  }
}

class FakeWebContents extends Emitter {
  readonly mainFrame = { url: '' };
  readonly sent: unknown[][] = [];
  windowOpenHandler?: (details: { url: string }) => unknown;
  isDestroyed(): boolean {
    return false;
  }
  send(...args: unknown[]): void {
    this.sent.push(args);
    this.emit('sent', args);
  }
  setWindowOpenHandler(handler: (details: { url: string }) => unknown): void {
    this.windowOpenHandler = handler;
  }
}

export class FakeWindow extends Emitter {
  readonly webContents = new FakeWebContents();
  destroyed = false;
  focused = false;
  maximized = false;
  readonly options: { width: number; height: number; x?: number; y?: number; webPreferences: Record<string, unknown> };
  constructor(options: FakeWindow['options']) {
    super();
    this.options = options;
    record.windows.push(this);
    app.emit('web-contents-created', {}, this.webContents);
  }
  async loadURL(url: string): Promise<void> {
    this.webContents.mainFrame.url = url;
    this.emit('ready-to-show');
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  isFocused(): boolean {
    return this.focused;
  }
  isMinimized(): boolean {
    return false;
  }
  isMaximized(): boolean {
    return this.maximized;
  }
  maximize(): void {
    this.maximized = true;
  }
  getNormalBounds() {
    return { x: this.options.x ?? 100, y: this.options.y ?? 100, width: this.options.width, height: this.options.height };
  }
  show(): void {}
  restore(): void {}
  focus(): void {
    this.focused = true;
  }
  /** The person closes the window. */
  close(): void {
    this.emit('close', { preventDefault: () => undefined });
    this.destroyed = true;
    this.emit('closed');
    if (record.windows.every((w) => w.destroyed)) app.emit('window-all-closed');
  }
}
export { FakeWindow as BrowserWindow };
