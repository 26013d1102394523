// What every page Electron creates may do: never navigate away from Atrium, never open a window,
// never embed a <webview>, never send WebRTC over plain UDP, and never get a device or browser permission,
// except the few an MCP Apps view may use once the person allowed them for its server. Links leave only through `window.open(url)` (after
// the person confirmed the address), the URL gate and the OS's URL handler.
import type { HandlerDetails, Session, WebContents, WindowOpenHandlerResponse } from 'electron';
import type { ViewPermission } from '../mcp/extensions/apps/contract/viewSandbox.ts';
import { isAppUrl } from './appProtocol.ts';
import { checkExternalUrl } from './externalUrl.ts';
import { viewScheme } from './viewSandboxProtocol.ts';

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
  // Atrium itself has no use for WebRTC. A view's peer connection is refused by its sandbox (the relay's
  // Connection-Allowlist and the guard before its code); this is one more layer under them: no UDP to a
  // STUN or TURN server, nor to a peer, from any page.
  contents.setWebRTCIPHandlingPolicy('disable_non_proxied_udp');
}

/** The permissions the person allowed some server's views, as they are now (main keeps it current). */
export type ViewPermissionsAllowed = () => ReadonlySet<ViewPermission>;

/**
 * Notifications from the page, MIDI, HID, USB, serial, screen capture, clipboard reading…: all refused,
 * asked or merely checked; Atrium's own notifications come from main, not from the page. Atrium's own
 * page may write to the clipboard (a reply's Copy), nothing else. Camera,
 * microphone, location and clipboard writing are refused too, except to a frame in the view sandbox when
 * the person allowed that permission for some server's views. Which server's view may use it is decided
 * in the page: only an allowed server's view frame is given the feature (its `allow` attribute), and the
 * browser blocks it in any other frame before it reaches here.
 */
export function guardPermissions(session: Session, viewsMayUse: ViewPermissionsAllowed): void {
  session.setPermissionRequestHandler((_contents, permission, callback, details) => {
    const mediaTypes = 'mediaTypes' in details ? details.mediaTypes : undefined;
    callback(viewMayUse(permission, { isMainFrame: details.isMainFrame, requestingUrl: details.requestingUrl, mediaTypes }, viewsMayUse()));
  });
  session.setPermissionCheckHandler((_contents, permission, _origin, details) =>
    viewMayUse(permission, { isMainFrame: details.isMainFrame, requestingUrl: details.requestingUrl, mediaTypes: details.mediaType ? [details.mediaType] : undefined }, viewsMayUse()),
  );
  session.setDevicePermissionHandler(() => false);
  session.setDisplayMediaRequestHandler((_request, callback) => callback(null));
}

interface PermissionAsker {
  isMainFrame: boolean;
  requestingUrl: string | undefined;
  mediaTypes: readonly string[] | undefined;
}

function viewMayUse(permission: string, asker: PermissionAsker, allowed: ReadonlySet<ViewPermission>): boolean {
  // Atrium's own page needs one only: writing to the clipboard, when the person presses a reply's Copy.
  // A view's frame is the relay's (atrium-view:) or the view's own document inside it (about:srcdoc, an
  // opaque origin).
  if (asker.isMainFrame) return permission === 'clipboard-sanitized-write' && isAppUrl(asker.requestingUrl ?? '');
  const url = asker.requestingUrl ?? '';
  if (!url.startsWith(`${viewScheme}:`) && url !== 'about:srcdoc') return false;
  const needed = permissionsNeeded(permission, asker.mediaTypes);
  return needed.length > 0 && needed.every((name) => allowed.has(name));
}

/** What Electron's permission name means in Atrium's terms; nothing for a permission no view may have. */
function permissionsNeeded(permission: string, mediaTypes: readonly string[] | undefined): ViewPermission[] {
  if (permission === 'geolocation') return ['geolocation'];
  if (permission === 'clipboard-sanitized-write') return ['clipboardWrite'];
  if (permission !== 'media' || !mediaTypes || mediaTypes.length === 0) return [];
  const needed: ViewPermission[] = [];
  for (const type of mediaTypes) {
    if (type === 'video') needed.push('camera');
    else if (type === 'audio') needed.push('microphone');
    else return [];
  }
  return needed;
}
