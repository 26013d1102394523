// A remote server is untrusted: nothing in its metadata, its challenges or its redirects may make Atrium
// open or fetch something the URL policy forbids. Each case runs a real server that misbehaves in one
// way (e2e/servers/oauthServer.ts); the host's browser and its network record everything they were
// given, and the test proves the bad address reached neither, the person gets a sentence naming the URL
// and the rule, and the other server never notices.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { makeTempDir } from '../../../e2e/fixtures/hostHarness.ts';
import type { HttpFixtureHandle } from '../../../e2e/servers/launch.ts';
import { fixtureCommand, startHttpFixture } from '../../../e2e/servers/launch.ts';
import type { HostCore } from '../../app/hostCore.ts';
import { startHostCore } from '../../app/hostCore.ts';
import { approvingBrowser } from '../../../e2e/fixtures/approvingBrowser.ts';
import { approveServers } from '../../../e2e/fixtures/approvedServers.ts';

const textOf = (result: Record<string, unknown>) => ((result.content as { text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');

interface Watched {
  core: HostCore;
  home: string;
  opened: string[];
  fetched: string[];
  close(): Promise<void>;
}

/** A host whose browser and sign-in network record every address they are handed. */
async function watchedHost(servers: Record<string, unknown>): Promise<Watched> {
  const home = await makeTempDir('atrium-oauth-safety-');
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: servers }));
  await approveServers(home);
  const opened: string[] = [];
  const fetched: string[] = [];
  const browser = approvingBrowser();
  const core = await startHostCore({
    home,
    keepAliveMs: 0,
    signIn: {
      openAuthorizationUrl: async (url) => {
        opened.push(url);
        await browser(url);
      },
      fetch: (url, init) => {
        fetched.push(String(url));
        return fetch(url, init);
      },
    },
  });
  return {
    core,
    home,
    opened,
    fetched,
    close: async () => {
      await core.shutdown();
      await rm(home, { recursive: true, force: true });
    },
  };
}

const marker = join(await makeTempDir('atrium-pwned-'), 'pwned');

const cases: { name: string; args: string[]; bad: string; refused: RegExp }[] = [
  {
    name: 'an authorization_endpoint with file:',
    args: ['--authorization-endpoint', 'file:///etc/passwd'],
    bad: 'file:',
    refused: /refused to use the authorization_endpoint from \S+ "file:\/\/\/etc\/passwd": only https addresses are allowed, and file: is not one/,
  },
  {
    name: 'an authorization_endpoint with javascript:',
    args: ['--authorization-endpoint', 'javascript:alert(document.cookie)'],
    bad: 'javascript:',
    refused: /"javascript:alert\(document\.cookie\)": only https addresses are allowed, and javascript: is not one/,
  },
  {
    name: 'an authorization_endpoint that is a shell command in disguise',
    args: ['--authorization-endpoint', `https://x/$(touch ${marker})`],
    bad: '$(touch',
    refused: /authorization_endpoint .*it holds spaces, control characters or characters no URL may contain/,
  },
  {
    name: 'an authorization_endpoint that is not an address at all',
    args: ['--authorization-endpoint', '; rm -rf ~'],
    bad: 'rm -rf',
    refused: /"; rm -rf ~": it holds spaces/,
  },
  {
    name: 'resource metadata naming the cloud metadata service as the authorization server',
    args: ['--authorization-server', 'https://169.254.169.254/'],
    bad: '169.254.169.254',
    refused: /authorization_servers .*"https:\/\/169\.254\.169\.254\/": it points at a cloud metadata service/,
  },
  {
    name: 'a 401 whose resource_metadata points at the cloud metadata service',
    args: ['--resource-metadata', 'http://169.254.169.254/latest/meta-data/'],
    bad: '169.254.169.254',
    refused: /refused to fetch "http:\/\/169\.254\.169\.254\/latest\/meta-data\/": plain http is allowed only to this computer/,
  },
  {
    name: 'authorization server metadata that redirects to a link-local address',
    args: ['--redirect-as-metadata-to', 'https://169.254.10.20/metadata'],
    bad: '169.254.10.20',
    refused: /refused to follow a redirect to "https:\/\/169\.254\.10\.20\/metadata": it points at a link-local address/,
  },
];

describe('a remote server cannot turn sign-in against the person', () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  for (const { name, args, bad, refused } of cases) {
    test(`${name}: nothing is opened or fetched there, the person is told why, other servers carry on`, async () => {
      const fixture = await startHttpFixture('oauthServer', args);
      const host = await watchedHost({ remote: { url: fixture.url }, echo: fixtureCommand('echoServer') });
      cleanups.push(() => fixture.stop(), () => host.close());
      assert.equal((await host.core.hub.whenSettled()).get('remote')?.kind, 'needs-sign-in');

      await assert.rejects(host.core.api.signIn({ serverId: 'remote' }), (error: Error) => {
        assert.match(error.message, /^remote: sign-in stopped: Atrium refused to /);
        assert.match(error.message, refused);
        return true;
      });
      assert.deepEqual(host.opened, [], 'the browser was never opened');
      assert.deepEqual(host.fetched.filter((url) => url.includes(bad)), [], 'the bad address was never fetched');
      assert.equal(fixture.stderr().includes('authorize '), false, 'no authorization was asked for');
      const remote = (await host.core.api.listServers({})).find((s) => s.id === 'remote');
      assert.equal(remote?.status.kind, 'error', 'a refusal is final: no restart loop');
      assert.equal(remote?.auth?.state, 'failed');
      assert.match(remote?.auth?.error ?? '', refused);
      assert.equal(textOf(await host.core.api.callTool({ serverId: 'echo', tool: 'echo', arguments: { text: 'unaffected' } })), 'unaffected');
      assert.equal(existsSync(marker), false);
    });
  }

  test('a token goes only to the server it was issued for: the same name at another address starts afresh', async () => {
    const first = await startHttpFixture('oauthServer');
    const second = await startHttpFixture('oauthServer');
    cleanups.push(() => first.stop(), () => second.stop());
    const host = await watchedHost({ remote: { url: first.url } });
    cleanups.push(() => host.close());
    await host.core.hub.whenSettled();
    await host.core.api.signIn({ serverId: 'remote' });
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'remote', tool: 'whoami' })), 'alice read');

    await host.core.api.saveServer({ serverId: 'remote', replaces: 'remote', entry: { url: second.url } });
    // A new address is a new launch definition: the person approves it before it is contacted.
    const { hash } = await host.core.api.reviewServerLaunch({ serverId: 'remote' });
    await host.core.api.approveServerLaunch({ serverId: 'remote', hash });
    assert.equal((await host.core.hub.whenSettled()).get('remote')?.kind, 'needs-sign-in');
    await waitForLine(second, /^mcp 401/);
    assert.equal(second.stderr().includes('token refused'), false, 'the new address never saw the old token');
  });
});

function waitForLine(fixture: HttpFixtureHandle, pattern: RegExp): Promise<string> {
  return fixture.waitForStderr(pattern);
}
