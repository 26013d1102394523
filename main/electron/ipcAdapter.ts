// The Electron front end of the contract: one `ipcMain.handle` per request name, each checking that
// the request came from Atrium's own page (its window, its top frame, the atrium://app origin) and that
// its params match the contract before the API sees them, and one forwarder that pushes every host
// event to the window.
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { requestNames } from '../../shared/contract.ts';
import type { AtriumApi } from '../../shared/contract.ts';
import type { EventBus } from '../api/eventBus.ts';
import { dispatchRequest } from '../api/dispatchRequest.ts';
import { eventChannel, requestChannel } from '../../shared/ipcChannels.ts';
import type { IpcReply } from '../../shared/ipcChannels.ts';
import { isAppUrl } from './appProtocol.ts';

/** The parts of a BrowserWindow the adapter uses (a real BrowserWindow fits). */
export interface IpcWindow {
  isDestroyed(): boolean;
  readonly webContents: {
    readonly mainFrame: unknown;
    isDestroyed(): boolean;
    send(channel: string, ...args: unknown[]): void;
  };
}

export interface IpcAdapterOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  window: IpcWindow;
  api: AtriumApi;
  events: EventBus;
}

/** Registers the handlers and the event forwarder; the returned function removes both. */
export function registerIpc({ ipcMain, window, api, events }: IpcAdapterOptions): () => void {
  for (const name of requestNames) {
    ipcMain.handle(requestChannel(name), async (event: IpcMainInvokeEvent, params: unknown): Promise<IpcReply> => {
      // Only the top frame of Atrium's own window, showing Atrium's own page, may call the host: never a
      // subframe, another window, or a page the main frame was somehow navigated to.
      const frame = event.senderFrame;
      if (window.isDestroyed() || frame === null || frame !== window.webContents.mainFrame || !isAppUrl(frame.url)) {
        return { ok: false, error: { code: 'failed', message: 'Atrium only answers requests from its own window.' } };
      }
      return dispatchRequest(api, name, params);
    });
  }
  const stopForwarding = events.onAny((name, payload) => {
    if (window.isDestroyed() || window.webContents.isDestroyed()) return;
    window.webContents.send(eventChannel, name, payload);
  });
  return () => {
    stopForwarding();
    for (const name of requestNames) ipcMain.removeHandler(requestChannel(name));
  };
}
