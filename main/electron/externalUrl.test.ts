import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkExternalUrl } from './externalUrl.ts';

test('https addresses are opened, normalised as the URL parser writes them', () => {
  assert.deepEqual(checkExternalUrl('https://modelcontextprotocol.io/docs'), { ok: true, url: 'https://modelcontextprotocol.io/docs' });
  assert.deepEqual(checkExternalUrl('HTTPS://Example.COM'), { ok: true, url: 'https://example.com/' });
  assert.deepEqual(checkExternalUrl('https://xn--exmple-cua.com/sign-in?session=42'), { ok: true, url: 'https://xn--exmple-cua.com/sign-in?session=42' });
});

test('plain http is opened only for loopback addresses', () => {
  for (const url of ['http://127.0.0.1:11434/', 'http://localhost:3000/callback', 'http://[::1]:8080/', 'http://127.1/', 'http://0x7f.0.0.1/']) {
    assert.equal(checkExternalUrl(url).ok, true, url);
  }
  for (const url of ['http://example.com/', 'http://10.0.0.1/', 'http://localhost.evil.com/', 'http://128.0.0.1/', 'http://[::2]/']) {
    const verdict = checkExternalUrl(url);
    assert.equal(verdict.ok, false, url);
    assert.match(!verdict.ok ? verdict.reason : '', /only for this computer/);
  }
});

test('file:, javascript:, data: and every other scheme are never opened', () => {
  for (const url of [
    'file:///etc/passwd',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'ms-msdt:/id PCWDiagnostic',
    'smb://server/share',
    'atrium://app/index.html',
    'mailto:someone@example.com',
    'ftp://example.com/file',
  ]) {
    const verdict = checkExternalUrl(url);
    assert.equal(verdict.ok, false, url);
    assert.match(!verdict.ok ? verdict.reason : '', /does not open/, url);
  }
});

test('an address with credentials in it is refused', () => {
  for (const url of ['https://user:secret@example.com/', 'https://user@example.com/', 'http://a:b@127.0.0.1/']) {
    const verdict = checkExternalUrl(url);
    assert.deepEqual(verdict, { ok: false, reason: 'the address carries a user name or password' }, url);
  }
});

test('what is not an address at all, or is absurdly long, is refused with a reason', () => {
  assert.deepEqual(checkExternalUrl(''), { ok: false, reason: 'the address is empty' });
  assert.deepEqual(checkExternalUrl('example.com'), { ok: false, reason: 'it is not a valid address' });
  assert.deepEqual(checkExternalUrl('https://'), { ok: false, reason: 'it is not a valid address' });
  assert.equal(checkExternalUrl(`https://example.com/${'a'.repeat(9000)}`).ok, false);
  assert.equal(checkExternalUrl(42 as unknown as string).ok, false);
});
