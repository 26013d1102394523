import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Session, WebContents } from 'electron';
import { guardPermissions, guardWebContents, openSignInPage, windowOpenHandler } from './webContentsPolicy.ts';
import type { ViewPermission } from '../mcp/extensions/apps/contract/viewSandbox.ts';

function opener(fail = false) {
  const opened: string[] = [];
  const warnings: string[] = [];
  return {
    opened,
    warnings,
    openExternal: async (url: string) => {
      if (fail) throw new Error('no handler for this address');
      opened.push(url);
    },
    warn: (message: string) => warnings.push(message),
  };
}

/** A WebContents that records its listeners and window-open handler, so tests can fire them. */
function fakeContents() {
  const listeners = new Map<string, (event: { url?: string; preventDefault(): void }) => void>();
  let openHandler: ((details: { url: string }) => unknown) | undefined;
  const webrtc: string[] = [];
  const contents = {
    on: (name: string, listener: (event: { url?: string; preventDefault(): void }) => void) => listeners.set(name, listener),
    setWindowOpenHandler: (handler: (details: { url: string }) => unknown) => (openHandler = handler),
    setWebRTCIPHandlingPolicy: (policy: string) => webrtc.push(policy),
  };
  const fire = (name: string, url?: string) => {
    let prevented = false;
    listeners.get(name)?.({ url, preventDefault: () => (prevented = true) });
    return prevented;
  };
  return { contents: contents as unknown as WebContents, fire, open: (url: string) => openHandler?.({ url }), listeners, webrtc };
}

test('window.open never creates a window; an https link the gate accepts goes to the browser', async () => {
  const links = opener();
  const handle = windowOpenHandler(links);
  assert.deepEqual(handle({ url: 'https://example.com/docs' }), { action: 'deny' });
  await Promise.resolve();
  assert.deepEqual(links.opened, ['https://example.com/docs']);
  assert.deepEqual(links.warnings, []);
});

test('a link the gate refuses is not opened, and the reason is reported to main’s log', async () => {
  const links = opener();
  const handle = windowOpenHandler(links);
  for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,hi', 'http://example.com/', 'https://u:p@example.com/']) {
    assert.deepEqual(handle({ url }), { action: 'deny' });
  }
  await Promise.resolve();
  assert.deepEqual(links.opened, []);
  assert.equal(links.warnings.length, 5);
  assert.match(links.warnings[0] ?? '', /^Atrium did not open a link: Atrium does not open file: addresses\.$/);
});

test('a failure of the OS’s URL handler is reported, not thrown', async () => {
  const links = opener(true);
  windowOpenHandler(links)({ url: 'https://example.com/' });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(links.warnings, ['Atrium could not open https://example.com/: no handler for this address']);
});

test('a guarded page never navigates, never attaches a webview, sends no WebRTC over plain UDP, and opens links only through the gate', async () => {
  const links = opener();
  const page = fakeContents();
  guardWebContents(page.contents, links);
  assert.equal(page.fire('will-navigate', 'https://example.com/'), true);
  assert.equal(page.fire('will-navigate', 'atrium://app/index.html'), true);
  assert.equal(page.fire('will-attach-webview'), true);
  assert.equal(page.fire('will-redirect', 'https://example.com/'), true);
  assert.equal(page.fire('will-redirect', 'atrium://app/index.html'), false);
  assert.deepEqual(page.open('https://example.com/a'), { action: 'deny' });
  assert.deepEqual(page.open('file:///etc/passwd'), { action: 'deny' });
  await Promise.resolve();
  assert.deepEqual(links.opened, ['https://example.com/a']);
  assert.deepEqual(page.webrtc, ['disable_non_proxied_udp'], 'no page sends WebRTC over plain UDP');
});

function permissionHandlers(allowed: ViewPermission[]) {
  const handlers: Record<string, (...args: never[]) => unknown> = {};
  const session = {
    setPermissionRequestHandler: (handler: never) => (handlers.request = handler),
    setPermissionCheckHandler: (handler: never) => (handlers.check = handler),
    setDevicePermissionHandler: (handler: never) => (handlers.device = handler),
    setDisplayMediaRequestHandler: (handler: never) => (handlers.display = handler),
  } as unknown as Session;
  guardPermissions(session, () => new Set(allowed));
  const request = (permission: string, details: Record<string, unknown>) => {
    const answers: boolean[] = [];
    (handlers.request as (contents: unknown, permission: string, callback: (granted: boolean) => void, details: unknown) => void)({}, permission, (granted) => answers.push(granted), details);
    assert.equal(answers.length, 1, 'answered once, at once');
    return answers[0];
  };
  const check = (permission: string, details: Record<string, unknown>) => (handlers.check as (contents: unknown, permission: string, origin: string, details: unknown) => boolean)({}, permission, 'null', details);
  return { handlers, request, check };
}

test('with nothing allowed, every permission request, check and device request is denied, from any frame, but Atrium’s own clipboard writes', () => {
  const { handlers, request, check } = permissionHandlers([]);
  for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'clipboard-sanitized-write', 'midiSysex', 'fullscreen', 'openExternal', 'unknown']) {
    for (const frame of [{ isMainFrame: true, requestingUrl: 'atrium://app/index.html' }, { isMainFrame: false, requestingUrl: 'about:srcdoc' }]) {
      // A reply's Copy: Atrium's own page writes to the clipboard; nothing else, and no view, may.
      const expected = permission === 'clipboard-sanitized-write' && frame.isMainFrame;
      assert.equal(request(permission, { ...frame, mediaTypes: ['video'] }), expected, permission);
      assert.equal(check(permission, { ...frame, mediaType: 'video' }), expected, permission);
    }
  }
  assert.equal(request('clipboard-sanitized-write', { isMainFrame: true, requestingUrl: 'https://example.com/' }), false, 'a page that is not Atrium’s');
  assert.equal((handlers.device as (details: unknown) => boolean)({ deviceType: 'usb', origin: 'atrium://app' }), false);
  const streams: unknown[] = [];
  (handlers.display as (request: unknown, callback: (streams: unknown) => void) => void)({}, (given) => streams.push(given));
  assert.deepEqual(streams, [null]);
});

test('a permission the person allowed for views is given to a view sandbox frame only, and only that permission', () => {
  const { request, check } = permissionHandlers(['geolocation', 'camera']);
  const view = { isMainFrame: false, requestingUrl: 'about:srcdoc' };
  assert.equal(request('geolocation', view), true);
  assert.equal(request('geolocation', { isMainFrame: false, requestingUrl: 'atrium-view://sandbox/view' }), true);
  assert.equal(check('geolocation', view), true);
  assert.equal(request('media', { ...view, mediaTypes: ['video'] }), true, 'camera');
  assert.equal(request('media', { ...view, mediaTypes: ['video', 'audio'] }), false, 'the microphone was not allowed');
  assert.equal(request('media', view), false, 'media without saying which is refused');
  assert.equal(check('media', { ...view, mediaType: 'unknown' }), false);
  assert.equal(request('clipboard-sanitized-write', view), false);
  assert.equal(request('notifications', view), false, 'no view may have a permission Atrium does not offer');
  assert.equal(request('geolocation', { isMainFrame: true, requestingUrl: 'atrium://app/index.html' }), false, 'not Atrium’s own page');
  assert.equal(request('geolocation', { isMainFrame: false, requestingUrl: 'https://example.com/' }), false, 'not a frame outside the view sandbox');
});

test('a sign-in page goes to the system browser through the link gate; a refused one fails the sign-in and opens nothing', async () => {
  const links = opener();
  await openSignInPage('https://auth.example.com/authorize?client_id=atrium&state=s', links);
  assert.deepEqual(links.opened, ['https://auth.example.com/authorize?client_id=atrium&state=s']);
  await assert.rejects(openSignInPage('file:///etc/passwd', links), /Atrium did not open the sign-in page: Atrium does not open file: addresses/);
  await assert.rejects(openSignInPage('https://user:pw@auth.example.com/', links), /user name or password/);
  assert.equal(links.opened.length, 1);
  await assert.rejects(openSignInPage('https://auth.example.com/authorize', opener(true)), /no handler for this address/);
});
