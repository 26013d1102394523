// A ready remote server whose sign-in stops working, against a real MCP server and authorization server
// (e2e/servers/oauthServer.ts): when the server refuses the access token and nothing can renew it (the
// refresh token was revoked, or there never was one), the server waits for the person in
// "needs sign-in", signed out, saying the sign-in expired or was revoked — it does not stay Ready with
// calls failing one by one. Other servers carry on untouched, and signing in again reconnects it.

import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { ServerSnapshot } from '../../../shared/domain.ts';
import { makeTempDir } from '../../../e2e/fixtures/hostHarness.ts';
import type { HttpFixtureHandle } from '../../../e2e/servers/launch.ts';
import { fixtureCommand, startHttpFixture } from '../../../e2e/servers/launch.ts';
import type { HostCore } from '../../app/hostCore.ts';
import { startHostCore } from '../../app/hostCore.ts';
import { encryptedFileSecrets } from '../../store/encryptedSecrets.ts';
import { approvingBrowser } from '../../../e2e/fixtures/approvingBrowser.ts';
import { approveServers } from '../../../e2e/fixtures/approvedServers.ts';

const textOf = (result: Record<string, unknown>) => ((result.content as { text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');
const count = (fixture: HttpFixtureHandle, pattern: RegExp) => fixture.stderr().split('\n').filter((line) => pattern.test(line)).length;
const LOST = /^remote: the sign-in expired or was revoked; sign in again$/;

interface Host {
  core: HostCore;
  snapshots: ServerSnapshot[];
}

async function startHost(home: string): Promise<Host> {
  const browser = approvingBrowser();
  const core = await startHostCore({
    home,
    keepAliveMs: 0,
    secretStore: encryptedFileSecrets(home),
    signIn: { mode: 'when-asked', openAuthorizationUrl: (url) => browser(url) },
  });
  const snapshots: ServerSnapshot[] = [];
  core.events.on('serverChanged', (snapshot) => snapshots.push(snapshot));
  return { core, snapshots };
}

const remoteOf = async (core: HostCore) => (await core.api.listServers({})).find((s) => s.id === 'remote');

describe('a sign-in the server stops taking', () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function signedInHost(fixtureArgs: string[]): Promise<{ fixture: HttpFixtureHandle; home: string; host: Host }> {
    const fixture = await startHttpFixture('oauthServer', fixtureArgs);
    const home = await makeTempDir('atrium-signin-lost-');
    cleanups.push(() => fixture.stop(), () => rm(home, { recursive: true, force: true }));
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { remote: { url: fixture.url }, echo: fixtureCommand('echoServer') } }));
    await approveServers(home);
    const host = await startHost(home);
    cleanups.push(() => host.core.shutdown());
    await host.core.hub.whenSettled();
    const signedIn = await host.core.api.signIn({ serverId: 'remote' });
    assert.equal(signedIn.status.kind, 'ready');
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'remote', tool: 'whoami' })), 'alice read');
    return { fixture, home, host };
  }

  async function assertWaitsForThePerson(host: Host): Promise<void> {
    const echoChangesBefore = host.snapshots.filter((s) => s.id === 'echo').length;
    await assert.rejects(host.core.api.callTool({ serverId: 'remote', tool: 'whoami' }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'unauthorized');
      assert.match(error.message, LOST);
      return true;
    });
    const remote = await remoteOf(host.core);
    assert.equal(remote?.status.kind, 'needs-sign-in', 'not left Ready with every call failing');
    assert.match(remote?.status.kind === 'needs-sign-in' ? remote.status.message : '', LOST);
    assert.equal(remote?.auth?.state, 'signed-out');
    assert.match(remote?.auth?.error ?? '', LOST);
    assert.equal(remote?.counts.tools, 0, 'its tools are no longer offered');
    assert.ok(!host.snapshots.some((s) => s.id === 'remote' && (s.status.kind === 'restarting' || s.status.kind === 'error')), 'nothing retries in a loop');
    // A later call says the same, without asking the server again.
    await assert.rejects(host.core.api.callTool({ serverId: 'remote', tool: 'whoami' }), /remote: the server is not ready \(remote: the sign-in expired or was revoked; sign in again\)/);

    assert.equal(host.snapshots.filter((s) => s.id === 'echo').length, echoChangesBefore, 'the other server saw no change');
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'echo', tool: 'echo', arguments: { text: 'still here' } })), 'still here');
  }

  test('the refresh token is refused too: needs sign-in, signed out, and signing in again reconnects it', async () => {
    const { fixture, home, host } = await signedInHost([]);
    await host.core.api.callTool({ serverId: 'remote', tool: 'revoke_all_tokens' });
    await assertWaitsForThePerson(host);
    assert.equal(count(fixture, /^token refresh_token$/), 1, 'the refresh token was tried once');

    // The forgotten tokens stay forgotten: a later host on the same home is not signed in either.
    await host.core.shutdown();
    const later = await startHost(home);
    cleanups.push(() => later.core.shutdown());
    assert.equal((await later.core.hub.whenSettled()).get('remote')?.kind, 'needs-sign-in');
    const remembered = await remoteOf(later.core);
    assert.equal(remembered?.auth?.state, 'signed-out');
    assert.match(remembered?.auth?.error ?? '', LOST, 'why is remembered, not just "sign in to connect"');
    assert.match(remembered?.status.kind === 'needs-sign-in' ? remembered.status.message : '', LOST);
    assert.equal(count(fixture, /^mcp 401 token refused$/), 1, 'the refused token is not sent again');

    const again = await later.core.api.signIn({ serverId: 'remote' });
    assert.equal(again.status.kind, 'ready');
    assert.equal(again.auth?.state, 'signed-in');
    assert.equal(again.auth?.error, undefined);
    assert.equal(textOf(await later.core.api.callTool({ serverId: 'remote', tool: 'whoami' })), 'alice read');
  });

  test('there is no refresh token: the refused token is forgotten and the server needs sign-in at once', async () => {
    const { fixture, host } = await signedInHost(['--no-refresh-token']);
    await host.core.api.callTool({ serverId: 'remote', tool: 'revoke_access_tokens' });
    await assertWaitsForThePerson(host);
    assert.equal(count(fixture, /^token refresh_token$/), 0);

    const again = await host.core.api.signIn({ serverId: 'remote' });
    assert.equal(again.status.kind, 'ready');
    assert.equal(textOf(await host.core.api.callTool({ serverId: 'remote', tool: 'whoami' })), 'alice read');
  });
});
