// The relay page of the view sandbox (MCP Apps' "sandbox proxy"): the one document served on the
// sandbox origin. Atrium's page frames it, once per view; it frames the view's HTML in a frame of its
// own with `sandbox="allow-scripts"` and never `allow-same-origin`, so the view's origin is opaque: it
// can reach neither Atrium's page nor this relay, nor another view. The relay passes messages between
// the page and its one view, and nothing else: from the page only when they come from Atrium's origin
// (the `host` it was opened for), from the view only when they come from its own frame and are plain JSON
// within the size cap. The view's document inherits the relay's Content-Security-Policy and Connection-
// Allowlist (an about:srcdoc document takes its parent's), which the sandbox server builds from what the
// view declared (viewSandbox.ts).
//
// The relay runs in a process of its own (the sandbox answers with Origin-Agent-Cluster, and the desktop
// app's sandbox is another scheme): a view's huge message costs the relay the time to read it, never
// Atrium's page, which is handed only messages within the cap.
//
// The script is plain JavaScript in a string because it is served as it is by both front ends (the
// browser mode's sandbox listener and the desktop app's atrium-view: scheme). Its two pure parts are
// separate strings so unit tests can run them; the Playwright journeys with hostile views test the rest.

export const relayScriptPath = '/relay.js';

/** A message from a view larger than this (characters of its strings and keys, about its JSON size) is dropped. */
export const MAX_VIEW_MESSAGE_CHARS = 4 * 1024 * 1024;
/** Deeper than this, or with more values than this, a view's message is not passed on either. */
const MAX_VIEW_MESSAGE_DEPTH = 64;
const MAX_VIEW_MESSAGE_VALUES = 200_000;

/** The method the relay tells the page with that it dropped one of the view's messages, and why. */
export const viewMessageDropped = 'atrium/view-message-dropped';
export type ViewMessageDropReason = 'too-large' | 'not-json';

/**
 * `viewMessageProblem(value)`: null when the value is plain JSON (objects, arrays, strings, numbers,
 * booleans, null) within the caps; else why not. It stops as soon as a cap is passed, so a huge message
 * costs no more than the cap to judge.
 */
export const viewMessageCheckSource = `function viewMessageProblem(value) {
  var budget = ${MAX_VIEW_MESSAGE_CHARS};
  var values = ${MAX_VIEW_MESSAGE_VALUES};
  var stack = [value, 0];
  while (stack.length > 0) {
    var depth = stack.pop();
    var item = stack.pop();
    if (--values < 0) return 'too-large';
    if (item === null || item === undefined || typeof item === 'boolean') { budget -= 5; continue; }
    if (typeof item === 'number') { if (!isFinite(item)) return 'not-json'; budget -= 24; continue; }
    if (typeof item === 'string') { budget -= item.length + 2; if (budget < 0) return 'too-large'; continue; }
    if (typeof item !== 'object') return 'not-json';
    if (depth >= ${MAX_VIEW_MESSAGE_DEPTH}) return 'too-large';
    var i;
    if (Array.isArray(item)) {
      if (Object.getPrototypeOf(item) !== Array.prototype) return 'not-json';
      if (item.length > values) return 'too-large';
      budget -= 2 + item.length;
      for (i = 0; i < item.length; i++) stack.push(item[i], depth + 1);
    } else {
      var proto = Object.getPrototypeOf(item);
      if (proto !== Object.prototype && proto !== null) return 'not-json';
      var keys = Object.keys(item);
      if (keys.length > values) return 'too-large';
      budget -= 2;
      for (i = 0; i < keys.length; i++) {
        budget -= keys[i].length + 4;
        stack.push(item[keys[i]], depth + 1);
      }
    }
    if (budget < 0) return 'too-large';
  }
  return null;
}`;

/**
 * `withViewGuard(html)`: the view's HTML with a script first (after its doctype, so it keeps standards
 * mode) that takes WebRTC away before the view's own code runs. A Content-Security-Policy cannot stop a
 * peer connection; the sandbox's Connection-Allowlist does in the browsers that know it, and this does
 * in any. The view cannot get them back from a frame of its own: in a sandbox without
 * allow-same-origin, every frame it makes is another origin.
 */
export const viewGuardSource = `function withViewGuard(html) {
  var guard = '<script>(function () { var names = ["RTCPeerConnection", "webkitRTCPeerConnection", "RTCIceTransport"]; for (var i = 0; i < names.length; i++) { try { delete window[names[i]]; } catch (e) {} } var me = document.currentScript; if (me && me.parentNode) me.parentNode.removeChild(me); })();</' + 'script>';
  var doctype = /^\\uFEFF?(?:\\s|<!--[\\s\\S]*?-->)*<!doctype[^>]*>/i.exec(html);
  var at = doctype ? doctype[0].length : 0;
  return html.slice(0, at) + guard + html.slice(at);
}`;

export const relayPage = `<!doctype html>
<html>
  <head>
    <meta charset="utf-8" />
    <meta name="referrer" content="no-referrer" />
    <style>html, body { margin: 0; padding: 0; height: 100%; overflow: hidden; background: transparent; } iframe { border: 0; width: 100%; height: 100%; display: block; }</style>
    <script src="${relayScriptPath.slice(1)}"></script>
  </head>
  <body></body>
</html>
`;

export const relayScript = `'use strict';
(function relay() {
  if (window.parent === window) return;
  var hostOrigin = new URLSearchParams(location.search).get('host');
  if (!hostOrigin) return;
  ${viewMessageCheckSource}
  ${viewGuardSource}
  var view = null;
  window.addEventListener('message', function (event) {
    if (event.source === window.parent) {
      if (event.origin !== hostOrigin) return;
      var message = event.data;
      if (message && message.method === 'ui/notifications/sandbox-resource-ready') {
        var params = message.params || {};
        if (view !== null || typeof params.html !== 'string') return;
        view = document.createElement('iframe');
        // Scripts only: never allow-same-origin, so the view's origin is opaque.
        view.setAttribute('sandbox', 'allow-scripts');
        view.setAttribute('title', 'View');
        // The permissions Atrium's page passes on (only those the person allowed); named from this list
        // only, and capped anyway by the relay's own frame, which Atrium's page gave the same ones.
        var features = { camera: 'camera', microphone: 'microphone', geolocation: 'geolocation', clipboardWrite: 'clipboard-write' };
        var allowed = [];
        var asked = params.permissions || {};
        for (var name in features) if (Object.prototype.hasOwnProperty.call(asked, name)) allowed.push(features[name] + ' *');
        if (allowed.length > 0) view.setAttribute('allow', allowed.join('; '));
        view.srcdoc = withViewGuard(params.html);
        document.body.appendChild(view);
        return;
      }
      if (view !== null && view.contentWindow) view.contentWindow.postMessage(message, '*');
      return;
    }
    if (view === null || event.source !== view.contentWindow) return;
    var problem = viewMessageProblem(event.data);
    if (problem === null) window.parent.postMessage(event.data, hostOrigin);
    else window.parent.postMessage({ jsonrpc: '2.0', method: '${viewMessageDropped}', params: { reason: problem } }, hostOrigin);
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, hostOrigin);
})();
`;
