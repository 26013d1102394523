// Runs in the sandboxed, context-isolated preload (bundled to CommonJS by main/electron/buildElectron.ts).
// The page gets `window.atrium` built from the contract's names and nothing else: no ipcRenderer.
import { contextBridge, ipcRenderer } from 'electron';
import type { IpcRendererEvent } from 'electron';
import { buildExposedApi } from './buildExposedApi.ts';
import { eventChannel } from '../shared/ipcChannels.ts';

const api = buildExposedApi(
  (channel, params) => ipcRenderer.invoke(channel, params),
  (listener) => {
    const handler = (_event: IpcRendererEvent, name: unknown, payload: unknown) => {
      if (typeof name === 'string') listener(name, payload);
    };
    ipcRenderer.on(eventChannel, handler);
    return () => {
      ipcRenderer.removeListener(eventChannel, handler);
    };
  },
);

contextBridge.exposeInMainWorld('atrium', api);
