// The browser mode's view sandbox listener (MCP Apps, issue 16): the relay page and its script, each
// relay page with the policy of the view it will hold, framed only by Atrium's page; nothing else.
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, test } from 'node:test';
import { cleanViewCsp, viewSandboxQuery } from '../mcp/extensions/apps/contract/viewSandbox.ts';
import { startViewSandboxServer } from './viewSandboxServer.ts';
import type { ViewSandboxServer } from './viewSandboxServer.ts';

let sandbox: ViewSandboxServer;
before(async () => {
  sandbox = await startViewSandboxServer();
});
after(() => sandbox.close());

/** A raw GET, so the Host header can be anything. */
function get(path: string, host?: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const { port } = new URL(sandbox.pageUrl);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { host: host ?? `127.0.0.1:${port}` } }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('the relay page carries the view’s own policy: what it declared, framed only by the page that asked', async () => {
  const { csp } = cleanViewCsp({ connectDomains: ['https://api.example.org'] });
  const page = await get(`/view?${viewSandboxQuery('http://127.0.0.1:7431', csp)}`);
  assert.equal(page.status, 200);
  assert.match(String(page.headers['content-type']), /^text\/html/);
  const policy = String(page.headers['content-security-policy']);
  assert.match(policy, /connect-src https:\/\/api\.example\.org;/);
  assert.match(policy, /frame-ancestors http:\/\/127\.0\.0\.1:7431$/);
  assert.equal(page.headers['connection-allowlist'], '(response-origin "https://api.example.org/*")');
  // Another port of 127.0.0.1 is the page's own site: this keeps the relay out of the page's process.
  assert.equal(page.headers['origin-agent-cluster'], '?1');
  assert.match(page.body, /<script src="relay.js"><\/script>/);
  const script = await get('/relay.js');
  assert.equal(script.status, 200);
  assert.match(script.body, /setAttribute\('sandbox', 'allow-scripts'\)/);
  assert.doesNotMatch(script.body, /setAttribute\('sandbox', '[^']*allow-same-origin/);
});

test('a relay page asked for another page, or for more than Atrium allows, is refused; nothing else is served', async () => {
  assert.equal((await get(`/view?${new URLSearchParams({ host: 'https://evil.example', csp: '{}' })}`)).status, 400);
  assert.equal((await get(`/view?${new URLSearchParams({ host: 'http://127.0.0.1:7431', csp: '{"connectDomains":["*"]}' })}`)).status, 400);
  assert.equal((await get('/view')).status, 400);
  assert.equal((await get('/index.html')).status, 404);
  assert.equal((await get('/../package.json')).status, 404);
  assert.equal((await get('/relay.js', 'evil.example')).status, 403, 'a name that rebinds to loopback is refused');
});
