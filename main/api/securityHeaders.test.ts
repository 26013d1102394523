import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentSecurityPolicy, securityHeaders } from './securityHeaders.ts';

function directives(policy: string): Map<string, string> {
  return new Map(policy.split('; ').map((directive) => {
    const [name = '', ...sources] = directive.split(' ');
    return [name, sources.join(' ')];
  }));
}

test('the policy denies by default and allows scripts and styles only from the app itself', () => {
  const policy = directives(contentSecurityPolicy({ connect: [] }));
  assert.equal(policy.get('default-src'), "'none'");
  assert.equal(policy.get('script-src'), "'self'");
  assert.equal(policy.get('style-src'), "'self'");
  assert.equal(policy.get('base-uri'), "'none'");
  assert.equal(policy.get('form-action'), "'none'");
  assert.equal(policy.get('frame-ancestors'), "'none'");
});

test('no inline script, no eval, and no remote image can be allowed by the policy', () => {
  const policy = contentSecurityPolicy({ connect: ['ws://127.0.0.1:5123'] });
  assert.doesNotMatch(policy, /unsafe-inline|unsafe-eval|wasm-unsafe-eval/);
  assert.equal(directives(policy).get('img-src'), "'self' data:");
  assert.doesNotMatch(policy, /https?:|\*/);
});

test('the browser bridge may connect to its own WebSocket only; Electron to nothing', () => {
  assert.equal(directives(contentSecurityPolicy({ connect: ['ws://127.0.0.1:5123'] })).get('connect-src'), 'ws://127.0.0.1:5123');
  assert.equal(directives(contentSecurityPolicy({ connect: [] })).get('connect-src'), "'none'");
});

test('the exact policy string, so any loosening shows up in review', () => {
  assert.equal(
    contentSecurityPolicy({ connect: ['ws://[::1]:8080'] }),
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; media-src data:; connect-src ws://[::1]:8080; frame-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  );
  // MCP Apps: the page frames the view sandbox's origin, and nothing else.
  assert.match(contentSecurityPolicy({ connect: [], frames: ['http://127.0.0.1:9123'] }), /; frame-src http:\/\/127\.0\.0\.1:9123; /);
});

test('a frame source that would smuggle in a directive is refused', () => {
  for (const source of ["http://127.0.0.1:1; script-src 'unsafe-inline'", '*', "'self'"]) {
    assert.throws(() => contentSecurityPolicy({ connect: [], frames: [source] }), /not a source/, source);
  }
});

test('a connect source that would smuggle in a directive is refused', () => {
  for (const source of ["ws://127.0.0.1:1; script-src 'unsafe-inline'", 'ws://a b', "'self'", 'ws://a,b', '*']) {
    assert.throws(() => contentSecurityPolicy({ connect: [source] }), /not a source/, source);
  }
});

test('the companion headers stop sniffing, referrers and cross-origin embedding', () => {
  const headers = securityHeaders({ connect: [] });
  assert.equal(headers['Content-Security-Policy'], contentSecurityPolicy({ connect: [] }));
  assert.equal(headers['X-Content-Type-Options'], 'nosniff');
  assert.equal(headers['Referrer-Policy'], 'no-referrer');
  assert.equal(headers['Cross-Origin-Opener-Policy'], 'same-origin');
  assert.equal(headers['Cross-Origin-Resource-Policy'], 'same-origin');
});
