import assert from 'node:assert/strict';
import { test } from 'node:test';
import { addressKind, assertServerUrl, checkServerUrl, reachOf, UrlPolicyError } from './urlPolicy.ts';
import type { OriginReach } from './urlPolicy.ts';

function refusal(raw: string, origin: OriginReach = 'public'): string {
  const verdict = checkServerUrl(raw, origin);
  assert.equal(verdict.ok, false, `${raw} should be refused`);
  return verdict.ok ? '' : verdict.reason;
}

test('https to a public host is allowed, as the URL parser writes it', () => {
  const verdict = checkServerUrl('https://Auth.Example.com/authorize?client_id=a&state=b', 'public');
  assert.equal(verdict.ok && verdict.url.href, 'https://auth.example.com/authorize?client_id=a&state=b');
});

test('plain http is allowed only to this computer', () => {
  for (const url of ['http://localhost:3000/callback', 'http://127.0.0.1:8080/token', 'http://[::1]/', 'http://app.localhost/']) {
    assert.equal(checkServerUrl(url, 'loopback').ok, true, url);
  }
  assert.match(refusal('http://auth.example.com/token'), /plain http is allowed only to this computer/);
  assert.match(refusal('http://10.0.0.1/token', 'private'), /plain http/);
});

test('file:, javascript:, data: and every scheme but https and http are refused', () => {
  for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'data:text/html,hi', 'vbscript:x', 'ftp://example.com/', 'smb://host/share', 'ms-msdt:/id']) {
    assert.match(refusal(url, 'loopback'), /only https addresses are allowed/, url);
  }
});

test('strings with shell metacharacters, spaces or control characters are not addresses', () => {
  for (const url of ['https://x/$(touch /tmp/pwned)', 'https://example.com/; rm -rf ~', '; rm -rf /', 'https://example.com/a\nb', 'https://example.com/`id`', 'https://example.com/a|b']) {
    assert.match(refusal(url, 'loopback'), /spaces, control characters|not a valid absolute URL/, url);
  }
  assert.match(refusal('not a url'), /spaces/);
  assert.match(refusal('/relative/path'), /not a valid absolute URL/);
});

test('link-local and cloud metadata addresses are refused whoever names them', () => {
  for (const origin of ['public', 'private', 'loopback'] as const) {
    assert.match(refusal('https://169.254.169.254/latest/meta-data/', origin), /cloud metadata/);
    assert.match(refusal('https://[fd00:ec2::254]/', origin), /cloud metadata/);
    assert.match(refusal('https://metadata.google.internal/computeMetadata/v1/', origin), /cloud metadata/);
    assert.match(refusal('https://169.254.10.20/', origin), /link-local/);
    assert.match(refusal('https://[fe80::1]/', origin), /link-local/);
    assert.match(refusal('https://0.0.0.0/', origin), /not a single host/);
  }
  // Every spelling the URL parser accepts for the metadata address is the same address.
  assert.match(refusal('https://0xa9fea9fe/'), /cloud metadata/);
  assert.match(refusal('https://[::ffff:169.254.169.254]/'), /cloud metadata/);
});

test('a public server may not send Atrium to a private or loopback address', () => {
  for (const url of ['https://10.1.2.3/', 'https://172.16.0.1/', 'https://172.31.255.255/', 'https://192.168.1.1/', 'https://[fc00::1]/', 'https://[fd12::1]/']) {
    assert.match(refusal(url, 'public'), /public server may not send Atrium to a private network address/, url);
    assert.equal(checkServerUrl(url, 'private').ok, true, url);
  }
  assert.match(refusal('https://127.0.0.1/', 'public'), /public server may not send Atrium to this computer/);
  assert.match(refusal('https://localhost/', 'private'), /private server may not send Atrium to this computer/);
  assert.match(refusal('https://[::ffff:7f00:1]/', 'public'), /this computer/);
  assert.equal(checkServerUrl('https://172.32.0.1/', 'public').ok, true, '172.32/16 is public');
});

test('user names and passwords in an address are refused', () => {
  assert.match(refusal('https://user:secret@auth.example.com/'), /user name or password/);
});

test('the reach of a configured server follows its address', () => {
  assert.equal(reachOf('http://localhost:3000/mcp'), 'loopback');
  assert.equal(reachOf('https://10.0.0.7/mcp'), 'private');
  assert.equal(reachOf('https://mcp.example.com/mcp'), 'public');
  assert.equal(addressKind('[::1]'), 'loopback');
  assert.equal(addressKind('[2001:db8::1]'), 'public');
});

test('a refusal names the URL and the rule', () => {
  assert.throws(
    () => assertServerUrl('file:///etc/passwd', 'public', 'open for sign-in'),
    (error: unknown) =>
      error instanceof UrlPolicyError && error.message === 'Atrium refused to open for sign-in "file:///etc/passwd": only https addresses are allowed, and file: is not one',
  );
});
