import assert from 'node:assert/strict';
import { once } from 'node:events';
import { get } from 'node:http';
import type { IncomingMessage } from 'node:http';
import { test } from 'node:test';
import { openLoopbackRedirect } from './loopbackRedirect.ts';

test('RFC 8252 loopback redirect: listens on 127.0.0.1 for this flow only and accepts the right state once', async () => {
  const redirect = await openLoopbackRedirect({ timeoutMs: 10_000 });
  assert.match(redirect.redirectUrl, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  redirect.expect('state-123');

  const wrong = await fetch(`${redirect.redirectUrl}?code=stolen&state=other`);
  assert.equal(wrong.status, 400, 'an answer with another state is refused');
  assert.match(await wrong.text(), /does not belong to the sign-in Atrium started/);
  const missing = await fetch(`${redirect.redirectUrl}?code=stolen`);
  assert.equal(missing.status, 400, 'an answer without state is refused');

  const right = await fetch(`${redirect.redirectUrl}?code=the-code&state=state-123&iss=${encodeURIComponent('https://auth.example.com')}`);
  assert.equal(right.status, 200);
  assert.match(await right.text(), /You can close this tab/);
  assert.equal(right.headers.get('content-security-policy'), "default-src 'none'");
  assert.deepEqual(await redirect.result, { code: 'the-code', iss: 'https://auth.example.com' });

  await assert.rejects(fetch(`${redirect.redirectUrl}?code=again&state=state-123`), 'the listener is gone after the one answer');
});

test('RFC 6749 §10.12 (state): an answer before the flow has a state, or to another path or host name, is refused', async () => {
  const redirect = await openLoopbackRedirect({ timeoutMs: 10_000 });
  assert.equal((await fetch(`${redirect.redirectUrl}?code=x&state=`)).status, 400);
  redirect.expect('s');
  const port = new URL(redirect.redirectUrl).port;
  assert.equal((await fetch(`http://127.0.0.1:${port}/other?code=x&state=s`)).status, 404);
  // fetch always sends the real Host; a rebinding page's request would carry its own name.
  const foreign = get(`http://127.0.0.1:${port}/callback?code=x&state=s`, { headers: { host: `evil.example:${port}` } });
  const [answer] = (await once(foreign, 'response')) as [IncomingMessage];
  answer.resume();
  assert.equal(answer.statusCode, 400);
  await redirect.close();
  await assert.rejects(redirect.result, /abandoned/);
});

test('RFC 6749 §4.1.2.1: the authorization server refusing access ends the flow with its error code only', async () => {
  const redirect = await openLoopbackRedirect({ timeoutMs: 10_000 });
  redirect.expect('s');
  const answer = await fetch(`${redirect.redirectUrl}?state=s&error=access_denied&error_description=${encodeURIComponent('<script>evil</script>')}`);
  assert.equal(answer.status, 200);
  assert.doesNotMatch(await answer.text(), /evil/);
  await assert.rejects(redirect.result, /did not grant access \(access_denied\)/);
});

test('a flow nobody completes times out with a clear error', async () => {
  const redirect = await openLoopbackRedirect({ timeoutMs: 50 });
  redirect.expect('s');
  await assert.rejects(redirect.result, /no sign-in came back from the browser within 50 ms/);
});

test('cancelling the flow closes the listener', async () => {
  const controller = new AbortController();
  const redirect = await openLoopbackRedirect({ timeoutMs: 10_000, signal: controller.signal });
  controller.abort();
  await assert.rejects(redirect.result, /cancelled/);
  await assert.rejects(fetch(redirect.redirectUrl));
});
