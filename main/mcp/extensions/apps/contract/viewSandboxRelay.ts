// The relay page of the view sandbox (MCP Apps' "sandbox proxy"): the one document served on the
// sandbox origin. Atrium's page frames it, once per view; it frames the view's HTML in a frame of its
// own with `sandbox="allow-scripts"` and never `allow-same-origin`, so the view's origin is opaque: it
// can reach neither Atrium's page nor this relay, nor another view. The relay passes messages between
// the page and its one view, and nothing else: from the page only when they come from Atrium's origin
// (the `host` it was opened for), from the view only when they come from its own frame. The view's
// document inherits the relay's Content-Security-Policy (an about:srcdoc document takes its parent's),
// which the sandbox server builds from what the view declared (shared/viewSandbox.ts).
//
// The script is plain JavaScript in a string because it is served as it is by both front ends (the
// browser mode's sandbox listener and the desktop app's atrium-view: scheme); the Playwright journeys
// with a hostile view are its tests.

export const relayScriptPath = '/relay.js';

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
        view.srcdoc = params.html;
        document.body.appendChild(view);
        return;
      }
      if (view !== null && view.contentWindow) view.contentWindow.postMessage(message, '*');
      return;
    }
    if (view !== null && event.source === view.contentWindow) window.parent.postMessage(event.data, hostOrigin);
  });
  window.parent.postMessage({ jsonrpc: '2.0', method: 'ui/notifications/sandbox-proxy-ready', params: {} }, hostOrigin);
})();
`;
