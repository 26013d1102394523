// Calling a sign-in off (the window's "Cancel sign-in"), against a real MCP server and authorization
// server (e2e/servers/oauthServer.ts): the loopback redirect closes at once, so the authorization page
// answering later reaches nothing; the server waits for a sign-in with a sentence saying it was
// cancelled; a sign-in again that is cancelled keeps the sign-in Atrium already had.

import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import type { ServerSnapshot } from '../../../shared/domain.ts';
import { makeTempDir, nextEvent } from '../../../e2e/fixtures/hostHarness.ts';
import type { HttpFixtureHandle } from '../../../e2e/servers/launch.ts';
import { startHttpFixture } from '../../../e2e/servers/launch.ts';
import type { HostCore } from '../../app/hostCore.ts';
import { startHostCore } from '../../app/hostCore.ts';
import { encryptedFileSecrets } from '../../store/encryptedSecrets.ts';
import { approvingBrowser } from '../../../e2e/fixtures/approvingBrowser.ts';
import { approveServers } from '../../../e2e/fixtures/approvedServers.ts';

const textOf = (result: Record<string, unknown>) => ((result.content as { text?: string }[]) ?? []).map((c) => c.text ?? '').join('\n');

/** Where the authorization page sends the browser back: the sign-in's own loopback listener. */
const redirectOf = (snapshot: ServerSnapshot) => new URL(snapshot.auth?.signInUrl ?? '').searchParams.get('redirect_uri') ?? '';

describe('cancelling a sign-in', () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  let fixture: HttpFixtureHandle;
  let core: HostCore;
  /** What the person's browser does with the page: nothing yet (they have not looked), or approve. */
  let browser: (url: string) => Promise<void> = async () => undefined;

  /** Starts a sign-in and resolves once its page is ready for the person, with the pending request. */
  async function startSignIn(): Promise<{ request: Promise<ServerSnapshot>; page: ServerSnapshot }> {
    const ready = nextEvent(core, 'serverChanged', (s) => s.id === 'remote' && s.auth?.state === 'signing-in');
    const request = core.api.signIn({ serverId: 'remote' });
    // Observed below; an early failure must not go unhandled meanwhile.
    request.catch(() => undefined);
    return { request, page: await ready };
  }

  test('the loopback redirect closes, the server waits for a sign-in saying it was cancelled, and signing in afterwards works', async () => {
    fixture = await startHttpFixture('oauthServer');
    const home = await makeTempDir('atrium-cancel-');
    cleanups.push(() => fixture.stop(), () => rm(home, { recursive: true, force: true }));
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { remote: { url: fixture.url } } }));
    await approveServers(home);
    core = await startHostCore({ home, keepAliveMs: 0, secretStore: encryptedFileSecrets(home), signIn: { openAuthorizationUrl: (url) => browser(url) } });
    cleanups.push(() => core.shutdown());
    assert.equal((await core.hub.whenSettled()).get('remote')?.kind, 'needs-sign-in');

    const { request, page } = await startSignIn();
    const redirect = redirectOf(page);
    assert.match(redirect, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.equal((await fetch(redirect)).status, 400, 'the loopback listener is there, waiting for its own state');

    const cancelled = await core.api.cancelSignIn({ serverId: 'remote' });
    assert.deepEqual(cancelled.status, { kind: 'needs-sign-in', message: 'remote: the sign-in was cancelled' });
    assert.deepEqual(cancelled.auth, { state: 'signed-out', error: 'remote: the sign-in was cancelled' }, 'no page to open any more');
    await assert.rejects(request, (error: Error & { code?: string }) => {
      assert.equal(error.code, 'unauthorized');
      assert.equal(error.message, 'remote: the sign-in was cancelled');
      return true;
    });
    await assert.rejects(fetch(redirect), 'the loopback listener is closed');
    // The person approves in the tab they still had open: the answer reaches nothing.
    await assert.rejects(approvingBrowser()(page.auth?.signInUrl ?? ''));
    assert.equal((await core.api.listServers({})).find((s) => s.id === 'remote')?.status.kind, 'needs-sign-in');
    assert.equal(fixture.stderr().split('\n').filter((line) => line.startsWith('token ')).length, 0, 'no code was redeemed');

    browser = approvingBrowser();
    const signedIn = await core.api.signIn({ serverId: 'remote' });
    assert.equal(signedIn.status.kind, 'ready');
    assert.equal(signedIn.auth?.state, 'signed-in');
    assert.equal(signedIn.auth?.error, undefined);
  });

  test('a sign-in again that is cancelled keeps the sign-in Atrium had, and the server stays connected', async () => {
    browser = async () => undefined;
    const before = (await core.api.listServers({})).find((s) => s.id === 'remote');
    assert.equal(before?.auth?.state, 'signed-in');
    const { request, page } = await startSignIn();
    const cancelled = await core.api.cancelSignIn({ serverId: 'remote' });
    await assert.rejects(request, /remote: the sign-in was cancelled/);
    assert.equal(cancelled.status.kind, 'ready');
    assert.deepEqual(cancelled.auth, before?.auth);
    await assert.rejects(fetch(redirectOf(page)));
    assert.equal(textOf(await core.api.callTool({ serverId: 'remote', tool: 'whoami' })), 'alice read');
  });

  test('cancelling when no sign-in is under way changes nothing', async () => {
    const before = (await core.api.listServers({})).find((s) => s.id === 'remote');
    assert.deepEqual(await core.api.cancelSignIn({ serverId: 'remote' }), before);
  });
});
