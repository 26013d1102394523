// Signing in to a remote server that requires OAuth, against a real MCP server and authorization server
// (e2e/servers/oauthServer.ts): the person signs in when asked (the authorization page is "opened" in a
// headless browser that approves), the server connects with no restart, the sign-in survives a host
// restart, tokens are refreshed before they expire and after a 401, a step-up asks for the union of
// scopes a bounded number of times, and signing out revokes at the authorization server.

import assert from 'node:assert/strict';
import { writeFile, rm } from 'node:fs/promises';
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
import type { SignInMode } from './serverAuthorization.ts';
import { approveServers } from '../../../e2e/fixtures/approvedServers.ts';

const textOf = (result: Record<string, unknown>) => ((result.content as { text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');

interface Person {
  core: HostCore;
  /** Every authorization page the host opened, in order. */
  opened: string[];
  snapshots: ServerSnapshot[];
}

/** A host core on `home` (with its encrypted store), whose "browser" approves and records each page. */
async function startHost(home: string, mode: SignInMode = 'when-asked'): Promise<Person> {
  const opened: string[] = [];
  const browser = approvingBrowser();
  const secretStore = encryptedFileSecrets(home);
  const core = await startHostCore({
    home,
    keepAliveMs: 0,
    secretStore,
    signIn: {
      mode,
      openAuthorizationUrl: async (url) => {
        opened.push(url);
        await browser(url);
      },
    },
  });
  const snapshots: ServerSnapshot[] = [];
  core.events.on('serverChanged', (snapshot) => snapshot.id === 'remote' && snapshots.push(snapshot));
  return { core, opened, snapshots };
}

async function homeWith(fixture: HttpFixtureHandle): Promise<string> {
  const home = await makeTempDir('atrium-oauth-');
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { remote: { url: fixture.url }, echo: fixtureCommand('echoServer') } }));
  await approveServers(home);
  return home;
}

const count = (fixture: HttpFixtureHandle, pattern: RegExp) => fixture.stderr().split('\n').filter((line) => pattern.test(line)).length;

describe('signing in to a remote server', () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  test('RFC 7636 (PKCE S256) and RFC 8707 (resource): a server that answers 401 waits for the person; signing in opens its page with PKCE S256, resource and state, and it connects with no restart', async () => {
    const fixture = await startHttpFixture('oauthServer');
    const home = await homeWith(fixture);
    cleanups.push(() => fixture.stop(), () => rm(home, { recursive: true, force: true }));
    const first = await startHost(home);
    const settled = await first.core.hub.whenSettled();
    assert.equal(settled.get('echo')?.kind, 'ready', 'the other server is not held up');
    const waiting = (await first.core.api.listServers({})).find((s) => s.id === 'remote');
    assert.equal(waiting?.status.kind, 'needs-sign-in', 'no generic failure, and no restarts');
    assert.match(waiting?.status.kind === 'needs-sign-in' ? waiting.status.message : '', /remote: sign in to connect to this server/);
    assert.equal(waiting?.auth?.state, 'signed-out');
    assert.deepEqual(first.opened, [], 'nothing opened before the person asked');

    const signedIn = await first.core.api.signIn({ serverId: 'remote' });
    assert.equal(signedIn.status.kind, 'ready');
    assert.equal(signedIn.auth?.state, 'signed-in');
    assert.equal(signedIn.auth?.subject, 'alice');
    assert.deepEqual(signedIn.auth?.scopes, ['read']);
    assert.equal(signedIn.auth?.issuer, new URL(fixture.url).origin);
    assert.ok((signedIn.auth?.expiresAt ?? 0) > Date.now() + 3_000_000, 'the token lasts the hour the server gave');
    assert.equal(JSON.stringify(signedIn).includes('Bearer'), false);

    assert.equal(first.opened.length, 1);
    const page = new URL(first.opened[0] ?? '');
    assert.equal(page.searchParams.get('response_type'), 'code');
    assert.equal(page.searchParams.get('code_challenge_method'), 'S256');
    assert.match(page.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.match(page.searchParams.get('state') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.equal(page.searchParams.get('resource'), fixture.url);
    assert.equal(page.searchParams.get('scope'), 'read', 'the scope the server asked for in WWW-Authenticate');
    assert.match(page.searchParams.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.ok(first.snapshots.some((s) => s.auth?.state === 'signing-in' && s.auth.signInUrl === first.opened[0]), 'the window is told where to sign in');
    assert.ok(!first.snapshots.some((s) => s.status.kind === 'restarting' || s.status.kind === 'error'), 'signing in restarted nothing');
    assert.equal(textOf(await first.core.api.callTool({ serverId: 'remote', tool: 'whoami' })), 'alice read');
    await first.core.shutdown();

    // A second host on the same home: the stored sign-in is used, nobody is asked.
    const second = await startHost(home);
    cleanups.push(() => second.core.shutdown());
    assert.equal((await second.core.hub.whenSettled()).get('remote')?.kind, 'ready');
    assert.equal(textOf(await second.core.api.callTool({ serverId: 'remote', tool: 'whoami' })), 'alice read');
    assert.deepEqual(second.opened, []);
    assert.equal(count(fixture, /^authorize /), 1, 'one sign-in in all');

    // A token the server stops taking is refreshed, and the call goes through; still nobody is asked.
    await second.core.api.callTool({ serverId: 'remote', tool: 'revoke_access_tokens' });
    assert.equal(textOf(await second.core.api.callTool({ serverId: 'remote', tool: 'whoami' })), 'alice read');
    assert.equal(count(fixture, /^mcp 401 token refused$/), 1, 'the revoked token, refused once');
    assert.equal(count(fixture, /^token refresh_token$/), 1);
    assert.deepEqual(second.opened, []);

    // Step-up: the call that needs more is refused with a sentence; signing in again asks for the union.
    const stepUpStarted = second.snapshots.length;
    await assert.rejects(second.core.api.callTool({ serverId: 'remote', tool: 'admin_action' }), (error: Error & { code?: string }) => {
      assert.equal(error.code, 'unauthorized');
      assert.match(error.message, /^remote: the server needs more permission \(read admin\); sign in again to grant it$/);
      return true;
    });
    const needsMore = (await second.core.api.listServers({})).find((s) => s.id === 'remote')?.auth;
    assert.equal(needsMore?.state, 'signed-in', 'still signed in for what was granted');
    assert.match(needsMore?.error ?? '', /needs more permission \(read admin\)/);
    await second.core.api.signIn({ serverId: 'remote' });
    assert.equal(new URL(second.opened[0] ?? '').searchParams.get('scope'), 'read admin');
    assert.equal(textOf(await second.core.api.callTool({ serverId: 'remote', tool: 'admin_action' })), 'admin done');
    assert.ok(!second.snapshots.slice(stepUpStarted).some((s) => s.status.kind !== 'ready'), 'the session lived through the step-up');

    // Signing out revokes at the authorization server, forgets the tokens and disconnects.
    const out = await second.core.api.signOut({ serverId: 'remote' });
    assert.equal(out.server.status.kind, 'needs-sign-in');
    assert.equal(out.server.auth?.state, 'signed-out');
    assert.deepEqual([out.report.hadTokens, [...out.report.revoked].sort()], [true, ['access token', 'refresh token']], 'the person is told what was revoked');
    await fixture.waitForStderr(/^revoke refresh_token$/);
    await fixture.waitForStderr(/^revoke access_token$/);
    await second.core.shutdown();
    const third = await startHost(home);
    cleanups.push(() => third.core.shutdown());
    assert.equal((await third.core.hub.whenSettled()).get('remote')?.kind, 'needs-sign-in', 'the sign-in is gone from the store');
  });

  test('a token about to expire is refreshed before it is sent: the server never sees it refused', async () => {
    const fixture = await startHttpFixture('oauthServer', ['--expires-in', '30']);
    const home = await homeWith(fixture);
    cleanups.push(() => fixture.stop(), () => rm(home, { recursive: true, force: true }));
    const person = await startHost(home, 'automatic');
    cleanups.push(() => person.core.shutdown());
    assert.equal((await person.core.hub.whenSettled()).get('remote')?.kind, 'ready');
    const refreshesBefore = count(fixture, /^token refresh_token$/);
    assert.equal(textOf(await person.core.api.callTool({ serverId: 'remote', tool: 'whoami' })), 'alice read');
    assert.ok(count(fixture, /^token refresh_token$/) > refreshesBefore, 'a token within a minute of expiry was refreshed first');
    assert.equal(count(fixture, /^mcp 401/), 1, 'only the 401 that started the sign-in');
    assert.equal(person.opened.length, 1);
  });

  test('RFC 6750 (403 insufficient_scope): a server that keeps asking for more scope is asked at most twice more, then the person gets a clear error', async () => {
    const fixture = await startHttpFixture('oauthServer', ['--admin-never-enough']);
    const home = await homeWith(fixture);
    cleanups.push(() => fixture.stop(), () => rm(home, { recursive: true, force: true }));
    const person = await startHost(home, 'automatic');
    cleanups.push(() => person.core.shutdown());
    assert.equal((await person.core.hub.whenSettled()).get('remote')?.kind, 'ready');
    await assert.rejects(
      person.core.api.callTool({ serverId: 'remote', tool: 'admin_action' }),
      /remote: the server still asks for more permission \(admin\) after 2 sign-ins for it; Atrium stopped asking/,
    );
    // Two step-ups after the sign-in: a new authorization for the wider scope, then a refresh of the
    // token that already has it (a refresh cannot widen a grant, and this one needs no widening).
    assert.equal(count(fixture, /^authorize /), 2);
    assert.equal(count(fixture, /^token refresh_token$/), 1);
    assert.equal(count(fixture, /^mcp 403 admin_action$/), 3);
    assert.equal(new URL(person.opened.at(-1) ?? '').searchParams.get('scope'), 'read admin', 'the step-up asks for the union');
    assert.equal(textOf(await person.core.api.callTool({ serverId: 'echo', tool: 'echo', arguments: { text: 'fine' } })), 'fine');
    assert.equal(textOf(await person.core.api.callTool({ serverId: 'remote', tool: 'whoami' })), 'alice read admin');
  });
});
