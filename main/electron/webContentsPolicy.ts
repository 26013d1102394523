// What every page Electron creates may do: never navigate away from Atrium, never open a window,
// never embed a <webview>, and never get a device or browser permission. Links leave only through
// `window.open(url)` (after the person confirmed the address), the URL gate and the OS's URL handler.
import type { HandlerDetails, Session, WebContents, WindowOpenHandlerResponse } from 'electron';
import { isAppUrl } from './appProtocol.ts';
import { checkExternalUrl } from './externalUrl.ts';

export interface LinkOpener {
  /** shell.openExternal in the app. */
  openExternal(url: string): Promise<void>;
  /** Where a refused or failed link is reported (never to the page). */
  warn(message: string): void;
}

/** Hands `url` to the person's browser if the gate accepts it; reports why not otherwise. */
export function openExternalLink(url: string, opener: LinkOpener): boolean {
  const verdict = checkExternalUrl(url);
  if (!verdict.ok) {
    opener.warn(`Atrium did not open a link: ${verdict.reason}.`);
    return false;
  }
  opener.openExternal(verdict.url).catch((error: unknown) => opener.warn(`Atrium could not open ${verdict.url}: ${error instanceof Error ? error.message : String(error)}`));
  return true;
}

/**
 * A remote server's authorization page (already through the sign-in URL policy) goes to the system
 * browser through the same gate as a link; a refused address fails the sign-in with the gate's reason.
 */
export async function openSignInPage(url: string, opener: LinkOpener): Promise<void> {
  const verdict = checkExternalUrl(url);
  if (!verdict.ok) throw new Error(`Atrium did not open the sign-in page: ${verdict.reason}`);
  await opener.openExternal(verdict.url);
}

/** No window is ever created; an address the gate accepts goes to the person's browser instead. */
export function windowOpenHandler(opener: LinkOpener): (details: Pick<HandlerDetails, 'url'>) => WindowOpenHandlerResponse {
  return ({ url }) => {
    openExternalLink(url, opener);
    return { action: 'deny' };
  };
}

/** Applied to every WebContents as it is created (app's `web-contents-created`). */
export function guardWebContents(contents: WebContents, opener: LinkOpener): void {
  // The renderer is a single page: it never navigates, and a link click never replaces it.
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => {
    if (!isAppUrl(event.url)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(windowOpenHandler(opener));
}

/**
 * Camera, microphone, notifications from the page, geolocation, MIDI, HID, USB, serial, screen
 * capture, clipboard reading…: all refused, asked or merely checked. Atrium's own notifications come
 * from main, not from the page.
 */
export function denyAllPermissions(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback(null));
}
