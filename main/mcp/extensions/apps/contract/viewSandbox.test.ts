// MCP Apps (the io.modelcontextprotocol/ui extension, 2026-01-26 spec, "Security: CSP"): a view's
// Content-Security-Policy is default-deny and never wider than what its resource declares in `_meta.ui.csp`.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cleanViewCsp, declaredOrigins, readViewSandboxQuery, requestedViewPermissions, viewConnectionAllowlist, viewContentPolicy, viewSandboxQuery } from './viewSandbox.ts';

const directive = (policy: string, name: string) => policy.split('; ').find((part) => part.startsWith(`${name} `));

test('MCP Apps CSP: a view that declares nothing may connect nowhere, frame nothing and be framed only by Atrium', () => {
  const { csp, dropped } = cleanViewCsp(undefined);
  assert.deepEqual(dropped, []);
  const policy = viewContentPolicy(csp, 'http://127.0.0.1:7431');
  assert.equal(directive(policy, 'default-src'), "default-src 'none'");
  assert.equal(directive(policy, 'connect-src'), "connect-src 'none'");
  assert.equal(directive(policy, 'frame-src'), "frame-src 'none'");
  assert.equal(directive(policy, 'base-uri'), "base-uri 'none'");
  assert.equal(directive(policy, 'frame-ancestors'), 'frame-ancestors http://127.0.0.1:7431');
  assert.equal(directive(policy, 'script-src'), "script-src 'self' 'unsafe-inline' blob: data:");
});

test('MCP Apps CSP: declared https origins map to their directives, and nothing else is kept', () => {
  const { csp, dropped } = cleanViewCsp({
    connectDomains: ['https://api.example.org', 'http://evil.example', 'https://a.example/path', "https://x.example 'unsafe-eval'", 'wss://live.example.org', 42],
    resourceDomains: ['https://*.cdn.example', 'https://fonts.example/', 'data:', '*'],
    frameDomains: ['javascript:alert(1)', 'https://embed.example'],
    baseUriDomains: 'https://base.example',
  });
  assert.deepEqual(csp.connectDomains, ['https://api.example.org', 'wss://live.example.org']);
  assert.deepEqual(csp.resourceDomains, ['https://*.cdn.example', 'https://fonts.example']);
  assert.deepEqual(csp.frameDomains, ['https://embed.example']);
  assert.deepEqual(csp.baseUriDomains, []);
  assert.equal(dropped.length, 8, dropped.join('\n'));
  assert.ok(dropped.includes('connectDomains: "http://evil.example" is not an https origin'));
  assert.ok(dropped.includes('baseUriDomains is not a list'));
  const policy = viewContentPolicy(csp, 'http://127.0.0.1:7431');
  assert.equal(directive(policy, 'connect-src'), 'connect-src https://api.example.org wss://live.example.org');
  assert.equal(directive(policy, 'img-src'), "img-src 'self' data: blob: https://*.cdn.example https://fonts.example");
  assert.equal(directive(policy, 'frame-src'), 'frame-src https://embed.example');
  assert.deepEqual(declaredOrigins(csp), ['https://api.example.org', 'wss://live.example.org', 'https://*.cdn.example', 'https://fonts.example', 'https://embed.example']);
});

test('MCP Apps CSP: a development server on loopback may be reached over http; a private address may not', () => {
  const { csp, dropped } = cleanViewCsp({ connectDomains: ['http://localhost:3000', 'http://127.0.0.1:8080', 'http://192.168.1.1', 'http://10.0.0.1:80'] });
  assert.deepEqual(csp.connectDomains, ['http://localhost:3000', 'http://127.0.0.1:8080']);
  assert.equal(dropped.length, 2);
});

test('MCP Apps CSP: a view declaring hundreds of origins keeps 32 of a list and says the rest were dropped', () => {
  const { csp, dropped } = cleanViewCsp({ connectDomains: Array.from({ length: 300 }, (_, i) => `https://h${i}.example`) });
  assert.equal(csp.connectDomains.length, 32);
  assert.deepEqual(dropped, ['connectDomains: more than 32 origins']);
});

test('the policy refuses a page that is not Atrium’s as the frame ancestor', () => {
  assert.throws(() => viewContentPolicy(cleanViewCsp({}).csp, 'https://evil.example'), /not Atrium's page/);
  assert.doesNotThrow(() => viewContentPolicy(cleanViewCsp({}).csp, 'atrium://app'));
});

test('the relay page query round-trips, and one that says more than Atrium would write is refused', () => {
  const { csp } = cleanViewCsp({ connectDomains: ['https://api.example.org'] });
  assert.deepEqual(readViewSandboxQuery(new URLSearchParams(viewSandboxQuery('http://127.0.0.1:7431', csp))), { hostOrigin: 'http://127.0.0.1:7431', csp });
  assert.equal(readViewSandboxQuery(new URLSearchParams({ host: 'https://evil.example', csp: '{}' })), undefined);
  assert.equal(readViewSandboxQuery(new URLSearchParams({ host: 'http://127.0.0.1:7431', csp: '{"connectDomains":["*"]}' })), undefined);
  assert.equal(readViewSandboxQuery(new URLSearchParams({ host: 'http://127.0.0.1:7431', csp: 'not json' })), undefined);
});

test('MCP Apps permissions: only the ones Atrium knows are read', () => {
  assert.deepEqual(requestedViewPermissions({ camera: {}, clipboardWrite: {}, usb: {} }), ['camera', 'clipboardWrite']);
  assert.deepEqual(requestedViewPermissions('camera'), []);
});

test('the Connection-Allowlist of a view that declares nothing names the sandbox only, which blocks WebRTC and every other way out', () => {
  assert.equal(viewConnectionAllowlist(cleanViewCsp(undefined).csp), '(response-origin)');
});

test('the Connection-Allowlist names each origin a view declared for fetching, loading or framing, as a URLPattern', () => {
  const { csp } = cleanViewCsp({
    connectDomains: ['https://api.example.org', 'wss://live.example.org', 'ws://localhost:3000', 'http://[::1]:8080'],
    resourceDomains: ['https://*.cdn.example', 'https://api.example.org'],
    frameDomains: ['https://embed.example:8443'],
    baseUriDomains: ['https://base.example'],
  });
  assert.equal(
    viewConnectionAllowlist(csp),
    '(response-origin "https://api.example.org/*" "https://live.example.org/*" "http://localhost:3000/*" "http://\\\\[\\\\:\\\\:1\\\\]:8080/*" "https://*.cdn.example/*" "https://embed.example:8443/*")',
  );
});
