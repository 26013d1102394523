// The application menu: the usual roles (and so the usual shortcuts on each OS), built as a plain
// template so what each platform and mode gets can be tested without Electron. Reload and developer
// tools exist only in development: in the app, a reload would drop whatever the person was typing.
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  /** Opens a web page through the same URL gate as the window's links. */
  openLink(url: string): void;
  /** Shows Atrium's data folder (servers.json, providers.json, the history) in the file manager. */
  showDataFolder(): void;
}

export interface MenuOptions {
  platform: NodeJS.Platform;
  appName: string;
  development: boolean;
  actions: MenuActions;
}

export const mcpDocsUrl = 'https://modelcontextprotocol.io';

const separator: MenuItemConstructorOptions = { type: 'separator' };

export function buildMenuTemplate({ platform, appName, development, actions }: MenuOptions): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const appMenu: MenuItemConstructorOptions = {
    label: appName,
    submenu: [
      { role: 'about' },
      separator,
      { role: 'services' },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit' },
    ],
  };
  const fileMenu: MenuItemConstructorOptions = {
    label: '&File',
    submenu: [{ label: 'Show Data Folder', click: () => actions.showDataFolder() }, separator, mac ? { role: 'close' } : { role: 'quit' }],
  };
  const editMenu: MenuItemConstructorOptions = {
    label: '&Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      separator,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      ...(mac ? [{ role: 'pasteAndMatchStyle' } as const] : []),
      { role: 'delete' },
      separator,
      { role: 'selectAll' },
    ],
  };
  const viewMenu: MenuItemConstructorOptions = {
    label: '&View',
    submenu: [
      ...(development ? [{ role: 'reload' } as const, { role: 'forceReload' } as const, { role: 'toggleDevTools' } as const, separator] : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };
  const windowMenu: MenuItemConstructorOptions = {
    label: '&Window',
    role: 'window',
    submenu: mac ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }] : [{ role: 'minimize' }, { role: 'close' }],
  };
  const helpMenu: MenuItemConstructorOptions = {
    label: '&Help',
    role: 'help',
    submenu: [
      { label: 'Model Context Protocol Documentation', click: () => actions.openLink(mcpDocsUrl) },
      ...(mac ? [] : [separator, { role: 'about' } as const]),
    ],
  };
  return [...(mac ? [appMenu] : []), fileMenu, editMenu, viewMenu, windowMenu, helpMenu];
}
