import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MenuItemConstructorOptions } from 'electron';
import { buildMenuTemplate, mcpDocsUrl } from './appMenu.ts';
import type { MenuOptions } from './appMenu.ts';

function menu(options: Partial<MenuOptions> = {}) {
  const opened: string[] = [];
  let dataFolderShown = 0;
  const template = buildMenuTemplate({
    platform: 'linux',
    appName: 'Atrium',
    development: false,
    actions: { openLink: (url) => opened.push(url), showDataFolder: () => dataFolderShown++ },
    ...options,
  });
  return { template, opened, dataFolderShown: () => dataFolderShown };
}

const labels = (template: MenuItemConstructorOptions[]) => template.map((item) => item.label?.replace('&', ''));
const submenu = (template: MenuItemConstructorOptions[], label: string) => {
  const found = template.find((item) => item.label?.replace('&', '') === label);
  assert.ok(found, `a ${label} menu`);
  return found.submenu as MenuItemConstructorOptions[];
};
const roles = (items: MenuItemConstructorOptions[]) => items.filter((item) => item.role).map((item) => item.role);
const click = (item: MenuItemConstructorOptions | undefined) => (item?.click as (() => void) | undefined)?.();

test('Windows and Linux: File, Edit, View, Window, Help; no application menu', () => {
  for (const platform of ['linux', 'win32'] as const) assert.deepEqual(labels(menu({ platform }).template), ['File', 'Edit', 'View', 'Window', 'Help']);
});

test('macOS: the application menu comes first, with About, Services, Hide and Quit', () => {
  const { template } = menu({ platform: 'darwin' });
  assert.deepEqual(labels(template), ['Atrium', 'File', 'Edit', 'View', 'Window', 'Help']);
  assert.deepEqual(roles(submenu(template, 'Atrium')), ['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit']);
  assert.deepEqual(roles(submenu(template, 'File')), ['close']);
});

test('Edit has undo, redo, cut, copy, paste and select all everywhere', () => {
  for (const platform of ['linux', 'win32', 'darwin'] as const) {
    const edit = roles(submenu(menu({ platform }).template, 'Edit'));
    for (const role of ['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll'] as const) assert.ok(edit.includes(role), `${platform}: ${role}`);
  }
});

test('View has zoom and full screen; reload and developer tools only in development', () => {
  assert.deepEqual(roles(submenu(menu().template, 'View')), ['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
  assert.deepEqual(roles(submenu(menu({ development: true }).template, 'View')), ['reload', 'forceReload', 'toggleDevTools', 'resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']);
});

test('Window minimises and closes (macOS: zoom and bring all to front)', () => {
  assert.deepEqual(roles(submenu(menu().template, 'Window')), ['minimize', 'close']);
  assert.deepEqual(roles(submenu(menu({ platform: 'darwin' }).template, 'Window')), ['minimize', 'zoom', 'front']);
});

test('Help opens the MCP documentation through the link gate; File shows the data folder; Quit is in File off macOS', () => {
  const { template, opened, dataFolderShown } = menu();
  const help = submenu(template, 'Help');
  click(help.find((item) => item.label === 'Model Context Protocol Documentation'));
  assert.deepEqual(opened, [mcpDocsUrl]);
  assert.match(mcpDocsUrl, /^https:\/\//);
  assert.ok(roles(help).includes('about'));
  const file = submenu(template, 'File');
  click(file.find((item) => item.label === 'Show Data Folder'));
  assert.equal(dataFolderShown(), 1);
  assert.deepEqual(roles(file), ['quit']);
});
