// The desktop app's view sandbox scheme (MCP Apps, issue 16): an origin of its own that never bypasses
// the CSP, and the relay page with the view's own policy, framed only by atrium://app.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanViewCsp, viewSandboxQuery } from '../mcp/extensions/apps/contract/viewSandbox.ts';
import { serveViewSandboxRequest, viewSandboxUrl, viewSchemePrivileges } from './viewSandboxProtocol.ts';

test('views are shown from atrium-view://sandbox, a standard, secure scheme of their own that never bypasses the CSP', () => {
  assert.equal(viewSandboxUrl, 'atrium-view://sandbox/view');
  assert.equal(viewSchemePrivileges.scheme, 'atrium-view');
  assert.equal(viewSchemePrivileges.privileges?.standard, true);
  assert.equal(viewSchemePrivileges.privileges?.secure, true);
  assert.equal(viewSchemePrivileges.privileges?.bypassCSP, false);
  assert.equal(viewSchemePrivileges.privileges?.allowServiceWorkers, false);
});

test('the relay page carries the view’s policy and allowlist, runs apart from the page, and may be framed only by atrium://app', async () => {
  const { csp } = cleanViewCsp({ resourceDomains: ['https://cdn.example.org'] });
  const page = serveViewSandboxRequest(new Request(`${viewSandboxUrl}?${viewSandboxQuery('atrium://app', csp)}`));
  assert.equal(page.status, 200);
  const policy = page.headers.get('content-security-policy') ?? '';
  assert.match(policy, /^default-src 'none'; /);
  assert.match(policy, /img-src 'self' data: blob: https:\/\/cdn\.example\.org;/);
  assert.match(policy, /connect-src 'none';/);
  assert.match(policy, /frame-ancestors atrium:\/\/app$/);
  // What a CSP does not cover (WebRTC among it) is closed by the allowlist; the relay gets a process of its own.
  assert.equal(page.headers.get('connection-allowlist'), '(response-origin "https://cdn.example.org/*")');
  assert.equal(page.headers.get('origin-agent-cluster'), '?1');
  assert.match(await page.text(), /<script src="relay.js"><\/script>/);
  const script = serveViewSandboxRequest(new Request('atrium-view://sandbox/relay.js'));
  assert.match(await script.text(), /setAttribute\('sandbox', 'allow-scripts'\)/);
});

test('anything else is refused: another host, another page asking, more than a view may declare, other files, other methods', async () => {
  assert.equal(serveViewSandboxRequest(new Request('atrium-view://other/view')).status, 404);
  assert.equal(serveViewSandboxRequest(new Request(`${viewSandboxUrl}?${new URLSearchParams({ host: 'https://evil.example', csp: '{}' })}`)).status, 400);
  assert.equal(serveViewSandboxRequest(new Request(`${viewSandboxUrl}?${new URLSearchParams({ host: 'atrium://app', csp: '{"connectDomains":["*"]}' })}`)).status, 400);
  assert.equal(serveViewSandboxRequest(new Request('atrium-view://sandbox/index.html')).status, 404);
  assert.equal(serveViewSandboxRequest(new Request('atrium-view://sandbox/relay.js', { method: 'POST', body: 'x' })).status, 405);
});
