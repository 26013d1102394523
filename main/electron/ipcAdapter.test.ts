import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { IpcMainInvokeEvent } from 'electron';
import { requestNames } from '../../shared/contract.ts';
import type { AtriumApi } from '../../shared/contract.ts';
import { EventBus } from '../api/eventBus.ts';
import { registerIpc } from './ipcAdapter.ts';
import type { IpcAdapterOptions } from './ipcAdapter.ts';

type Handler = (event: IpcMainInvokeEvent, params: unknown) => Promise<unknown>;

function setup(overrides: Partial<AtriumApi> = {}, pageUrl = 'atrium://app/index.html') {
  const handlers = new Map<string, Handler>();
  const ipcMain = {
    handle: (channel: string, handler: Handler) => handlers.set(channel, handler),
    removeHandler: (channel: string) => handlers.delete(channel),
  } as unknown as IpcAdapterOptions['ipcMain'];
  const mainFrame = { name: 'main', url: pageUrl };
  const sent: unknown[][] = [];
  const window = {
    destroyed: false,
    isDestroyed() {
      return this.destroyed;
    },
    webContents: { mainFrame, isDestroyed: () => false, send: (...args: unknown[]) => sent.push(args) },
  };
  const calls: unknown[] = [];
  const api = new Proxy(overrides, {
    get: (target, name: string) =>
      target[name as keyof AtriumApi] ??
      (async (params: unknown) => {
        calls.push({ name, params });
        return null;
      }),
  }) as AtriumApi;
  const events = new EventBus();
  const dispose = registerIpc({ ipcMain, window, api, events });
  const invoke = (channel: string, params: unknown, senderFrame: unknown = mainFrame) =>
    handlers.get(channel)!({ senderFrame } as IpcMainInvokeEvent, params);
  return { handlers, window, sent, calls, events, dispose, invoke };
}

test('registers one atrium:<name> handler per contract request and removes them all', () => {
  const { handlers, dispose } = setup();
  assert.deepEqual([...handlers.keys()].sort(), requestNames.map((name) => `atrium:${name}`).sort());
  dispose();
  assert.equal(handlers.size, 0);
});

test('a valid request from the main frame reaches the API and returns its result', async () => {
  const { invoke, calls } = setup();
  assert.deepEqual(await invoke('atrium:restartServer', { serverId: 'files' }), { ok: true, result: null });
  assert.deepEqual(calls, [{ name: 'restartServer', params: { serverId: 'files' } }]);
});

test('a request from any other frame is refused before validation or the API', async () => {
  const { invoke, calls, window } = setup();
  const refused = await invoke('atrium:restartServer', { serverId: 'files' }, { name: 'iframe', url: 'atrium://app/index.html' });
  assert.equal((refused as { ok: boolean }).ok, false);
  assert.equal((await invoke('atrium:restartServer', { serverId: 'files' }, null) as { ok: boolean }).ok, false);
  window.destroyed = true;
  assert.equal((await invoke('atrium:restartServer', { serverId: 'files' }) as { ok: boolean }).ok, false);
  assert.deepEqual(calls, []);
});

test('the main frame showing anything but atrium://app/ is refused (a page it was navigated to)', async () => {
  for (const url of ['https://evil.example/', 'file:///home/you/page.html', 'atrium://other/index.html', 'about:blank', '']) {
    const { invoke, calls } = setup({}, url);
    const reply = (await invoke('atrium:restartServer', { serverId: 'files' })) as { ok: boolean; error?: { message: string } };
    assert.equal(reply.ok, false, url);
    assert.equal(reply.error?.message, 'Atrium only answers requests from its own window.');
    assert.deepEqual(calls, [], url);
  }
});

test('params that break the contract schema are refused with invalid_params', async () => {
  const { invoke, calls } = setup();
  const reply = (await invoke('atrium:restartServer', { serverId: 'files', extra: true })) as { ok: false; error: { code: string } };
  assert.equal(reply.ok, false);
  assert.equal(reply.error.code, 'invalid_params');
  assert.deepEqual(calls, []);
});

test('the desktop-only requests are checked like the rest: pickFolders and getHostInfo take no params', async () => {
  const { invoke, calls } = setup();
  for (const name of ['pickFolders', 'getHostInfo']) {
    const reply = (await invoke(`atrium:${name}`, { path: '/etc' })) as { ok: false; error: { code: string } };
    assert.equal(reply.error.code, 'invalid_params', name);
  }
  assert.deepEqual(calls, []);
  assert.deepEqual(await invoke('atrium:pickFolders', {}), { ok: true, result: null });
  assert.deepEqual(calls, [{ name: 'pickFolders', params: {} }]);
});

test('an API failure becomes an error value, never a thrown stack', async () => {
  const { invoke } = setup({
    restartServer: async () => {
      throw Object.assign(new Error('No server named "files".'), { code: 'not_found' });
    },
  });
  assert.deepEqual(await invoke('atrium:restartServer', { serverId: 'files' }), {
    ok: false,
    error: { code: 'not_found', message: 'No server named "files".' },
  });
});

test('host events are forwarded to the window on atrium:event until disposed', () => {
  const { events, sent, dispose } = setup();
  events.emit('serverRemoved', { serverId: 'files' });
  dispose();
  events.emit('serverRemoved', { serverId: 'other' });
  assert.deepEqual(sent, [['atrium:event', 'serverRemoved', { serverId: 'files' }]]);
});
