import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { contentSecurityPolicy } from '../api/securityHeaders.ts';
import { appEntryUrl, appSchemePrivileges, isAppUrl, serveAppRequest } from './appProtocol.ts';

async function withRenderer(run: (dir: string) => Promise<void>): Promise<void> {
  const root = await mkdtemp(path.join(tmpdir(), 'atrium-protocol-'));
  const dir = path.join(root, 'renderer');
  await mkdir(path.join(dir, 'assets'), { recursive: true });
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><script type="module" src="./assets/app.js"></script>');
  await writeFile(path.join(dir, 'assets', 'app.js'), 'console.log("app")');
  await writeFile(path.join(root, 'secret.txt'), 'outside the renderer');
  await symlink(path.join(root, 'secret.txt'), path.join(dir, 'assets', 'link.txt'));
  try {
    await run(dir);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const get = (url: string, method = 'GET') => new Request(url, { method });

test('the window loads atrium://app/index.html, from a standard, secure scheme that never bypasses the CSP', () => {
  assert.equal(appEntryUrl, 'atrium://app/index.html');
  assert.equal(appSchemePrivileges.scheme, 'atrium');
  assert.equal(appSchemePrivileges.privileges?.standard, true);
  assert.equal(appSchemePrivileges.privileges?.secure, true);
  assert.equal(appSchemePrivileges.privileges?.bypassCSP, false);
  assert.equal(appSchemePrivileges.privileges?.allowServiceWorkers, false);
});

test('only atrium://app/ is the app: other schemes, hosts and URLs with credentials are not', () => {
  assert.equal(isAppUrl('atrium://app/index.html'), true);
  assert.equal(isAppUrl('atrium://app/'), true);
  for (const url of ['file:///index.html', 'atrium://other/index.html', 'https://app/index.html', 'atrium://user:pw@app/', 'atrium://app.evil/', 'not a url', '']) {
    assert.equal(isAppUrl(url), false, url);
  }
});

test('the renderer’s files are served with their type and the strict CSP', async () => {
  await withRenderer(async (dir) => {
    const page = await serveAppRequest(get('atrium://app/index.html'), dir);
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(page.headers.get('content-security-policy'), contentSecurityPolicy({ connect: [], frames: ['atrium-view://sandbox'] }));
    assert.match(page.headers.get('content-security-policy') ?? '', /frame-src atrium-view:\/\/sandbox;/, 'the window frames only the view sandbox');
    assert.equal(page.headers.get('x-content-type-options'), 'nosniff');
    assert.match(await page.text(), /<!doctype html>/);
    const script = await serveAppRequest(get('atrium://app/assets/app.js'), dir);
    assert.equal(script.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(await script.text(), 'console.log("app")');
    assert.equal((await serveAppRequest(get('atrium://app/'), dir)).status, 200);
  });
});

test('path traversal, encoded separators and symlinks out of the folder are refused', async () => {
  await withRenderer(async (dir) => {
    for (const url of [
      'atrium://app/../secret.txt',
      'atrium://app/%2e%2e/secret.txt',
      'atrium://app/assets/..%2F..%2Fsecret.txt',
      'atrium://app/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      'atrium://app/..%5Csecret.txt',
      'atrium://app/assets/link.txt',
      'atrium://app/index.html%00.js',
      'atrium://app/nothing-here.js',
      'atrium://app/assets',
    ]) {
      const response = await serveAppRequest(get(url), dir);
      assert.equal(response.status, 404, url);
      assert.doesNotMatch(await response.text(), /outside the renderer/, url);
    }
  });
});

test('another host of the scheme and any method but GET/HEAD are refused', async () => {
  await withRenderer(async (dir) => {
    assert.equal((await serveAppRequest(get('atrium://elsewhere/index.html'), dir)).status, 404);
    const post = await serveAppRequest(get('atrium://app/index.html', 'POST'), dir);
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
    const head = await serveAppRequest(get('atrium://app/index.html', 'HEAD'), dir);
    assert.equal(head.status, 200);
    assert.equal(await head.text(), '');
  });
});
