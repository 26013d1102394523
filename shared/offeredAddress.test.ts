import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkOfferedAddress, mixedScriptLabels, toUnicodeHost } from './offeredAddress.ts';

function refused(raw: string): string {
  const verdict = checkOfferedAddress(raw);
  assert.equal(verdict.ok, false, raw);
  return verdict.ok ? '' : verdict.reason;
}

function offered(raw: string) {
  const verdict = checkOfferedAddress(raw);
  assert.ok(verdict.ok, verdict.ok ? raw : `${raw}: ${verdict.reason}`);
  return verdict.address;
}

test('the sign-in URL policy: no metadata, link-local or private address; http only to this computer', () => {
  assert.match(refused('https://169.254.169.254/latest/meta-data/'), /metadata/);
  assert.match(refused('http://169.254.169.254/latest/meta-data/'), /metadata/);
  assert.match(refused('https://169.254.10.1/'), /link-local/);
  assert.match(refused('http://192.168.1.1/admin?reboot=1'), /private network/);
  assert.match(refused('https://192.168.1.1/admin?reboot=1'), /private network/);
  assert.match(refused('https://10.0.0.8/'), /private network/);
  assert.match(refused('http://example.com/'), /plain http/);
  assert.match(refused('javascript:alert(1)'), /only https/);
  assert.match(refused('https://user:pw@example.com/'), /user name or password/);
  assert.equal(offered('http://127.0.0.1:8080/callback').registrableDomain, '127.0.0.1');
  assert.equal(offered('https://example.com/').registrableDomain, 'example.com');
});

test('the registrable domain comes from the Public Suffix List, not the whole host', () => {
  assert.equal(offered('https://accounts.google.com.evil.example/login').registrableDomain, 'evil.example');
  assert.equal(offered('https://login.bbc.co.uk/').registrableDomain, 'bbc.co.uk');
  assert.equal(offered('https://someone.github.io/page').registrableDomain, 'someone.github.io');
  assert.deepEqual(offered('https://accounts.google.com/').warnings, []);
});

test('an internationalised name is shown in Unicode beside its punycode, with a warning; mixed scripts are flagged', () => {
  const lookalike = offered('https://аpple.com/'); // Cyrillic а
  assert.equal(lookalike.host, 'xn--pple-43d.com');
  assert.equal(lookalike.unicodeHost, 'аpple.com');
  assert.equal(lookalike.registrableDomain, 'xn--pple-43d.com');
  assert.equal(lookalike.unicodeRegistrableDomain, 'аpple.com');
  assert.equal(lookalike.warnings.length, 2);
  assert.match(lookalike.warnings[0] ?? '', /xn--pple-43d\.com/);
  assert.match(lookalike.warnings[1] ?? '', /Latin and Cyrillic/);
  const german = offered('https://bücher.de/');
  assert.equal(german.unicodeHost, 'bücher.de');
  assert.equal(german.warnings.length, 1, 'one script: internationalised, not mixed');
});

test('punycode decodes per RFC 3492; Japanese mixes that belong together are not flagged', () => {
  assert.equal(toUnicodeHost('xn--mnchen-3ya.de'), 'münchen.de');
  assert.equal(toUnicodeHost('xn--wgv71a119e.jp'), '日本語.jp');
  assert.equal(toUnicodeHost('xn--zz.example'), 'xn--zz.example');
  assert.deepEqual(mixedScriptLabels('ひらがなカタカナ漢字abc.jp'), []);
  assert.deepEqual(mixedScriptLabels('pаypal.com'), ['pаypal: Latin and Cyrillic']);
});
