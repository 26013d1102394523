import assert from 'node:assert/strict';
import { test } from 'node:test';
import { REDACTED, isSecretKey, redactSecrets, redactString } from './redactSecrets.ts';

test('keys that name a secret are redacted, whatever their case or separator', () => {
  for (const key of [
    'password', 'Password', 'PASSWD', 'db_password', 'passphrase', 'pwd', 'secret', 'client_secret', 'clientSecret',
    'token', 'accessToken', 'access_token', 'refresh-token', 'GITHUB_TOKEN', 'GITHUB_PERSONAL_ACCESS_TOKEN',
    'api_key', 'apiKey', 'apikey', 'api-key', 'X-API-Key', 'XAPIKey', 'Authorization', 'auth', 'oauth', 'basicAuth',
    'cookie', 'Set-Cookie', 'session', 'sessionId', 'session_id', 'private_key', 'privateKey', 'credential',
    'credentials', 'AWS_SECRET_ACCESS_KEY', 'aws_access_key_id', 'bearer', 'bearerToken', 'jwt',
  ]) {
    assert.ok(isSecretKey(key), `${key} should be a secret key`);
  }
});

test('ordinary words that merely contain a secret word are not redacted', () => {
  for (const key of ['tokenizer', 'max_tokens', 'maxTokens', 'tokens', 'author', 'authority', 'authors', 'sessions', 'keyword', 'key', 'path', 'passage', 'secretary', 'cookbook', 'description']) {
    assert.ok(!isSecretKey(key), `${key} should not be a secret key`);
  }
});

test('values under secret keys are redacted at any depth, inside objects and arrays', () => {
  const input = {
    path: '/tmp/x',
    max_tokens: 500,
    tokenizer: 'cl100k',
    password: 'hunter2',
    pin: 1234,
    nested: { deeper: [{ apiKey: 'abc', name: 'ok' }, { list: [{ Authorization: 'Basic dXNlcjpwYXNz' }] }] },
    env: { GITHUB_TOKEN: 'plain-looking', HOME: '/home/me' },
    auth: { user: 'me', pass: 'x' },
    headers: [['Cookie', 'sid=1']],
  };
  assert.deepEqual(redactSecrets(input), {
    path: '/tmp/x',
    max_tokens: 500,
    tokenizer: 'cl100k',
    password: REDACTED,
    pin: 1234,
    nested: { deeper: [{ apiKey: REDACTED, name: 'ok' }, { list: [{ Authorization: REDACTED }] }] },
    env: { GITHUB_TOKEN: REDACTED, HOME: '/home/me' },
    auth: REDACTED,
    headers: [['Cookie', 'sid=1']],
  });
  assert.equal(input.password, 'hunter2', 'the input is not modified');
});

test('numbers under secret keys are redacted; booleans and null reveal nothing and stay', () => {
  assert.deepEqual(redactSecrets({ otp: 123456, auth: false, token: null, secret: true }), { otp: REDACTED, auth: false, token: null, secret: true });
});

test('values that look like secrets are redacted wherever they are', () => {
  const jwt = 'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U';
  const pem = '-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA PRIVATE KEY-----';
  for (const secret of [
    'sk-proj-abcdefghijklmnop1234',
    'sk-ant-api03-abcdefghijklmnopqrstuvwxyz',
    'ghp_abcdefghijklmnopqrstuvwxyz0123456789',
    'github_pat_11ABCDEFG0123456789_abcdefghij',
    'xoxb-1234567890-abcdefghij',
    'xoxp-1234567890-abcdefghij',
    'AKIAIOSFODNN7EXAMPLE',
    jwt,
    'Bearer abc123def456ghi789',
    pem,
    'sk_live_abcdefghijklmnop1234',
  ]) {
    assert.equal(redactString(secret), REDACTED, secret);
    assert.deepEqual(redactSecrets({ note: secret, list: [secret] }), { note: REDACTED, list: [REDACTED] });
  }
});

test('a secret inside a longer string is cut out and the rest kept', () => {
  assert.equal(redactString('git clone https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/a/b'), `git clone https://${REDACTED}@github.com/a/b`);
  assert.equal(redactString('curl -H "Authorization: Bearer abc123def456ghi789" https://x'), `curl -H "Authorization: ${REDACTED}" https://x`);
  assert.equal(redactString('postgres://app:s3cr3t@db.local:5432/main'), `postgres://app:${REDACTED}@db.local:5432/main`);
  assert.equal(redactString('mysql --password=hunter2 -u root'), `mysql --password=${REDACTED} -u root`);
  assert.equal(redactString('GITHUB_TOKEN=abc123 npm publish'), `GITHUB_TOKEN=${REDACTED} npm publish`);
  assert.equal(redactString('{"api_key": "abc123", "q": "cats"}'), `{"api_key": "${REDACTED}", "q": "cats"}`);
  assert.equal(redactString('key:\n-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\nend'), `key:\n${REDACTED}\nend`);
});

test('ordinary text is left alone', () => {
  for (const text of [
    'Bearer tokens are described in RFC 6750',
    'use the tokenizer with max_tokens=500',
    'scikit-learn is imported as sk-learn',
    'https://example.com/path?q=1',
    'the password policy requires 12 characters',
    'ask-questions-first',
  ]) {
    assert.equal(redactString(text), text);
  }
});

test('circular structures do not hang', () => {
  const a: Record<string, unknown> = { name: 'a' };
  a.self = a;
  assert.deepEqual(redactSecrets(a), { name: 'a', self: '[circular]' });
});
