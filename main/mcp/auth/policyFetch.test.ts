import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { FetchLike } from '@modelcontextprotocol/client';
import { policyFetch } from './policyFetch.ts';

/** A network that answers from a table and records every URL it was asked for, with its headers. */
function network(routes: Record<string, () => Response>) {
  const asked: { url: string; authorization: string | null }[] = [];
  const fetchLike: FetchLike = async (input, init) => {
    const url = String(input);
    asked.push({ url, authorization: new Headers(init?.headers).get('authorization') });
    const route = routes[url];
    return route ? route() : new Response('not found', { status: 404 });
  };
  return { asked, fetch: fetchLike };
}

const redirect = (location: string, status = 302) => () => new Response(null, { status, headers: { location } });

test('a public server cannot redirect Atrium to a private address; the private address is never fetched', async () => {
  const net = network({ 'https://auth.example.com/.well-known/oauth-authorization-server': redirect('https://10.0.0.5/metadata') });
  await assert.rejects(
    policyFetch('public', { base: net.fetch })('https://auth.example.com/.well-known/oauth-authorization-server'),
    /refused to follow a redirect to "https:\/\/10\.0\.0\.5\/metadata": a public server may not send Atrium to a private network address/,
  );
  assert.deepEqual(net.asked.map((a) => a.url), ['https://auth.example.com/.well-known/oauth-authorization-server']);
});

test('a URL that breaks the policy is refused before anything is fetched', async () => {
  const net = network({});
  for (const url of ['http://169.254.169.254/latest/meta-data/', 'file:///etc/passwd', 'http://auth.example.com/token']) {
    await assert.rejects(policyFetch('public', { base: net.fetch })(url), /Atrium refused to fetch/);
  }
  assert.deepEqual(net.asked, []);
});

test('redirects are followed hop by hop, and credentials never cross to another origin', async () => {
  const net = network({
    'https://auth.example.com/a': redirect('/b'),
    'https://auth.example.com/b': redirect('https://login.example.net/c'),
    'https://login.example.net/c': () => Response.json({ ok: true }),
  });
  const response = await policyFetch('public', { base: net.fetch })('https://auth.example.com/a', { headers: { authorization: 'Bearer secret' } });
  assert.deepEqual(await response.json(), { ok: true });
  assert.deepEqual(net.asked, [
    { url: 'https://auth.example.com/a', authorization: 'Bearer secret' },
    { url: 'https://auth.example.com/b', authorization: 'Bearer secret' },
    { url: 'https://login.example.net/c', authorization: null },
  ]);
});

test('a redirected POST (a token request) is not replayed elsewhere: the redirect comes back as the answer', async () => {
  const net = network({ 'https://auth.example.com/token': redirect('https://other.example.com/token') });
  const response = await policyFetch('public', { base: net.fetch })('https://auth.example.com/token', { method: 'POST', body: 'code=x' });
  assert.equal(response.status, 302);
  assert.deepEqual(net.asked.map((a) => a.url), ['https://auth.example.com/token']);
});

test('metadata whose endpoints break the policy is refused as a whole, naming the field', async () => {
  const metadata = (fields: Record<string, unknown>) => () => Response.json({ issuer: 'https://auth.example.com', ...fields });
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ authorization_endpoint: 'javascript:alert(1)' }, /authorization_endpoint .*only https addresses are allowed/],
    [{ authorization_endpoint: 'file:///etc/passwd' }, /authorization_endpoint .*only https addresses are allowed/],
    [{ authorization_endpoint: 'https://x/$(touch /tmp/pwned)' }, /authorization_endpoint .*spaces, control characters/],
    [{ token_endpoint: 'https://169.254.169.254/token' }, /token_endpoint .*cloud metadata/],
    [{ registration_endpoint: 'https://192.168.1.10/register' }, /registration_endpoint .*private network address/],
  ];
  for (const [fields, reason] of cases) {
    const net = network({ 'https://auth.example.com/.well-known/oauth-authorization-server': metadata(fields) });
    await assert.rejects(policyFetch('public', { base: net.fetch })('https://auth.example.com/.well-known/oauth-authorization-server'), reason);
  }
  const prm = network({ 'https://mcp.example.com/.well-known/oauth-protected-resource': () => Response.json({ authorization_servers: ['https://metadata.google.internal/'] }) });
  await assert.rejects(policyFetch('public', { base: prm.fetch })('https://mcp.example.com/.well-known/oauth-protected-resource'), /authorization_servers .*cloud metadata/);
});

test('a redirect to a forbidden address is refused even when the caller follows redirects itself', async () => {
  const net = network({ 'https://auth.example.com/.well-known/oauth-authorization-server': redirect('https://169.254.169.254/latest/meta-data/') });
  await assert.rejects(
    policyFetch('public', { base: net.fetch })('https://auth.example.com/.well-known/oauth-authorization-server', { redirect: 'manual' }),
    /refused to follow a redirect to "https:\/\/169\.254\.169\.254\/latest\/meta-data\/": it points at a cloud metadata service/,
  );
  assert.equal(net.asked.length, 1);
});

test('a public name that resolves to a metadata, link-local or private address is refused before it is fetched', async () => {
  const net = network({});
  const resolveHost = async (hostname: string) => ({ 'meta.example.com': ['169.254.169.254'], 'lan.example.com': ['93.184.215.14', '10.1.2.3'], 'v6.example.com': ['fe80::1'] })[hostname] ?? [];
  const guarded = policyFetch('public', { base: net.fetch, resolveHost });
  await assert.rejects(guarded('https://meta.example.com/token'), /refused to fetch "https:\/\/meta\.example\.com\/token": meta\.example\.com resolves to 169\.254\.169\.254: a cloud metadata service/);
  await assert.rejects(guarded('https://lan.example.com/token'), /lan\.example\.com resolves to 10\.1\.2\.3: a public server may not send Atrium to a private network address/);
  await assert.rejects(guarded('https://v6.example.com/token'), /v6\.example\.com resolves to fe80::1: a link-local address/);
  assert.deepEqual(net.asked, []);
});

test('the host the person configured may resolve to a private address (a company server), never to a metadata service', async () => {
  const net = network({ 'https://mcp.corp.example/.well-known/oauth-protected-resource': () => Response.json({ resource: 'https://mcp.corp.example/mcp' }) });
  const resolveHost = async (hostname: string) => ({ 'mcp.corp.example': ['10.0.0.7'], 'other.corp.example': ['10.0.0.8'] })[hostname] ?? [];
  const guarded = policyFetch('public', { base: net.fetch, resolveHost, chosenHost: 'mcp.corp.example' });
  assert.equal((await guarded('https://mcp.corp.example/.well-known/oauth-protected-resource')).status, 200);
  await assert.rejects(guarded('https://other.corp.example/token'), /resolves to 10\.0\.0\.8/);
  const metadata = policyFetch('public', { base: net.fetch, resolveHost: async () => ['169.254.169.254'], chosenHost: 'mcp.corp.example' });
  await assert.rejects(metadata('https://mcp.corp.example/x'), /cloud metadata service/);
});

/** A network whose one answer never ends (as fast as it is read) or never comes; aborting its signal fails either. */
function endlessNetwork(kind: 'endless' | 'silent'): { fetch: FetchLike; cancelled: () => boolean } {
  let cancelled = false;
  const filler = new Uint8Array(64 * 1024).fill(0x61);
  return {
    cancelled: () => cancelled,
    fetch: (_input, init) =>
      new Promise((resolve, reject) => {
        const signal = init?.signal as AbortSignal;
        if (signal.aborted) return reject(signal.reason);
        signal.addEventListener('abort', () => reject(signal.reason));
        if (kind === 'silent') return;
        const body = new ReadableStream<Uint8Array>({
          start: (controller) => controller.enqueue(new TextEncoder().encode('{"resource":"')),
          pull: (controller) => controller.enqueue(filler),
          cancel: () => void (cancelled = true),
        });
        resolve(new Response(body, { headers: { 'content-type': 'application/json' } }));
      }),
  };
}

test('an answer without end is read to 256 KB, then refused, naming its address; the refusal is heard even if the caller swallows it', async () => {
  const net = endlessNetwork('endless');
  const refused: Error[] = [];
  await assert.rejects(
    policyFetch('loopback', { base: net.fetch, onRefused: (error) => refused.push(error) })('http://127.0.0.1:1/.well-known/oauth-protected-resource'),
    /^SignInAnswerError: the answer from http:\/\/127\.0\.0\.1:1\/\.well-known\/oauth-protected-resource is larger than 256 KB; Atrium stopped reading it$/,
  );
  assert.ok(net.cancelled(), 'the answer was cancelled at its source');
  assert.equal(refused.length, 1);
});

test('an answer that does not come within the time limit is given up, naming its address; one called off is not a refusal', async () => {
  const refused: Error[] = [];
  const guarded = policyFetch('loopback', { base: endlessNetwork('silent').fetch, onRefused: (error) => refused.push(error), timeoutMs: 50 });
  await assert.rejects(guarded('http://127.0.0.1:1/token', { method: 'POST' }), /^SignInAnswerError: http:\/\/127\.0\.0\.1:1\/token did not finish answering within 50 ms$/);
  assert.equal(refused.length, 1);
  const person = new AbortController();
  const calledOff = policyFetch('loopback', { base: endlessNetwork('silent').fetch, onRefused: (error) => refused.push(error) })('http://127.0.0.1:1/token', { signal: person.signal });
  person.abort(new Error('the person called the sign-in off'));
  await assert.rejects(calledOff, /the person called the sign-in off/);
  assert.equal(refused.length, 1, 'calling off is not the server’s doing');
});
