// `atrium sign-in` and `atrium sign-out` as a person runs them: real `node main/cli/atrium.ts` processes
// against a real MCP server and authorization server (e2e/servers/oauthServer.ts). The person's browser
// is an HTTP client that opens the printed address and follows the authorization server's redirects
// back to the CLI's loopback listener, as a browser does once the person approved.

import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runAtriumCli, startAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import type { HttpFixtureHandle } from '../../e2e/servers/launch.ts';
import { fixtureCommand, startHttpFixture } from '../../e2e/servers/launch.ts';
import { startHostCore } from '../app/hostCore.ts';
import { approvingBrowser } from '../../e2e/fixtures/approvingBrowser.ts';
import { encryptedFileSecrets } from '../store/encryptedSecrets.ts';
import { windowSecrets } from '../store/secrets.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';

/** One CLI run to its end. */
const atrium = (home: string, ...args: string[]) => runAtriumCli(home, args);



const AUTHORIZATION_PAGE = /^http:\/\/127\.0\.0\.1:\d+\/authorize\?\S+$/;
const count = (fixture: HttpFixtureHandle, pattern: RegExp) => fixture.stderr().split('\n').filter((line) => pattern.test(line)).length;

describe('atrium sign-in and sign-out', () => {
  const cleanups: (() => Promise<void>)[] = [];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });

  async function homeWith(servers: Record<string, unknown>): Promise<string> {
    const home = await makeTempDir('atrium-cli-signin-');
    cleanups.push(() => rm(home, { recursive: true, force: true }));
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: servers }));
    await approveServers(home);
    return home;
  }

  async function oauthFixture(): Promise<HttpFixtureHandle> {
    const fixture = await startHttpFixture('oauthServer');
    cleanups.push(() => fixture.stop());
    return fixture;
  }

  test('sign-in prints the authorization page and waits for the browser; later processes are signed in until sign-out revokes and forgets', async () => {
    const fixture = await oauthFixture();
    const home = await homeWith({ remote: { url: fixture.url }, echo: fixtureCommand('echoServer') });

    const signingIn = startAtriumCli(home, ['sign-in', 'remote']);
    const page = await signingIn.lineMatching(AUTHORIZATION_PAGE);
    const query = new URL(page).searchParams;
    assert.equal(query.get('code_challenge_method'), 'S256');
    assert.equal(query.get('resource'), fixture.url);
    assert.equal(query.get('scope'), 'read', 'the scope the server asked for, as in the window');
    assert.match(query.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    await signingIn.lineMatching(/^Waiting for the browser to come back \(up to 10 minutes; Ctrl\+C cancels\)…$/);
    assert.ok(signingIn.stillRunning(), 'it waits for the person');

    await approvingBrowser()(page);
    const signedIn = await signingIn.exited;
    assert.equal(signedIn.code, 0, signedIn.stderr);
    assert.match(signedIn.stdout, /^To sign in to remote, open this address in your browser:$/m);
    assert.match(signedIn.stdout, /^Signed in to remote as alice \(scopes read, expires in (59 min|1 h)\)$/m);

    // The sign-in is kept encrypted in the home, where the browser mode keeps its own.
    const stored = await readFile(join(home, 'secrets.enc'), 'latin1');
    assert.doesNotMatch(stored, /alice|access_token|refresh_token/);

    // A second process is signed in without asking anyone.
    const listed = await atrium(home, 'servers');
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(listed.stdout, /^remote {2}\[http\] {2}Ready\n(?: {4}.*\n){2} {4}signed in as alice · expires in (59 min|1 h)$/m);
    const echo = listed.stdout.split(/\n(?=\S)/).find((block) => block.startsWith('echo '));
    assert.ok(echo !== undefined && !/signed in|sign-in|sign in/i.test(echo), 'a server that needs no sign-in gets no sign-in line');
    const called = await atrium(home, 'call', 'remote', 'whoami');
    assert.equal(called.code, 0, called.stderr);
    assert.equal(called.stdout.trim(), 'alice read');
    // The browser mode (`npm run web`) keeps its sign-ins in the same store: it is signed in too.
    const secretStore = encryptedFileSecrets(home);
    const web = await startHostCore({ home, keepAliveMs: 0, secrets: windowSecrets(secretStore), secretStore, frontEnd: { kind: 'browser' } });
    try {
      assert.equal((await web.hub.whenSettled()).get('remote')?.kind, 'ready');
      assert.equal((await web.api.listServers({})).find((server) => server.id === 'remote')?.auth?.subject, 'alice');
    } finally {
      await web.shutdown();
    }
    assert.equal(count(fixture, /^authorize /), 1, 'one sign-in in all');

    const signedOut = await atrium(home, 'sign-out', 'remote');
    assert.equal(signedOut.code, 0, signedOut.stderr);
    assert.equal(signedOut.stdout.trim(), 'Signed out of remote: its authorization server revoked the refresh token and the access token, and Atrium forgot them.');
    assert.equal(count(fixture, /^revoke refresh_token$/), 1);
    assert.equal(count(fixture, /^revoke access_token$/), 1);

    const afterwards = await atrium(home, 'servers');
    assert.match(afterwards.stdout, /^remote {2}\[http\] {2}Sign-in needed\n(?: {4}.*\n){2} {4}not signed in: sign in to connect to this server — atrium sign-in remote$/m);
    const refused = await atrium(home, 'call', 'remote', 'whoami');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^atrium: remote: sign in to connect to this server — atrium sign-in remote$/m);
    const again = await atrium(home, 'sign-out', 'remote');
    assert.equal(again.stdout.trim(), 'Not signed in to remote: there was nothing to sign out of.');
    assert.equal(count(fixture, /^authorize /), 1, 'nothing signed in behind the person’s back');
  });

  test('a sign-in the server revoked: the CLI says so and later processes too, until the person signs in again', async () => {
    const fixture = await oauthFixture();
    const home = await homeWith({ remote: { url: fixture.url } });
    const signingIn = startAtriumCli(home, ['sign-in', 'remote']);
    await approvingBrowser()(await signingIn.lineMatching(AUTHORIZATION_PAGE));
    assert.equal((await signingIn.exited).code, 0);

    assert.equal((await atrium(home, 'call', 'remote', 'revoke_all_tokens')).code, 0);
    const refused = await atrium(home, 'call', 'remote', 'whoami');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /^atrium: remote: the sign-in expired or was revoked; sign in again — atrium sign-in remote$/m);
    // A later process knows why, though the refused tokens are gone.
    const listed = await atrium(home, 'servers');
    assert.match(listed.stdout, /^remote {2}\[http\] {2}Sign-in needed\n(?: {4}.*\n){2} {4}not signed in: the sign-in expired or was revoked; sign in again — atrium sign-in remote$/m);
    assert.equal(count(fixture, /^mcp 401 token refused$/), 1, 'the refused token was not sent again');

    const again = startAtriumCli(home, ['sign-in', 'remote']);
    await approvingBrowser()(await again.lineMatching(AUTHORIZATION_PAGE));
    assert.match((await again.exited).stdout, /^Signed in to remote as alice/m);
    assert.match((await atrium(home, 'servers')).stdout, /^ {4}signed in as alice · expires in (59 min|1 h)$/m);
  });

  test('a server that cannot be signed in to is refused with the reason and a non-zero exit', async () => {
    const plain = await startHttpFixture('listChangedServer');
    cleanups.push(() => plain.stop());
    const home = await homeWith({ plain: { url: plain.url }, echo: fixtureCommand('echoServer') });
    const cases: [string[], RegExp][] = [
      [['sign-in', 'nobody'], /^atrium: there is no server named "nobody" in .*servers\.json$/m],
      // A slip names the remote server meant.
      [['sign-in', 'plian'], /^atrium: there is no server named "plian" in .*servers\.json: did you mean "plain"\?$/m],
      [['sign-out', 'nobody'], /^atrium: there is no server named "nobody" in .*servers\.json$/m],
      [['sign-in', 'echo'], /^atrium: echo is a stdio server: only remote servers \(a "url" in the servers file\) sign in$/m],
      [['sign-out', 'echo'], /^atrium: echo is a stdio server/m],
      [['sign-in', 'plain'], /^atrium: plain needs no sign-in: it connected without asking for authorization$/m],
    ];
    for (const [args, message] of cases) {
      const outcome = await atrium(home, ...args);
      assert.equal(outcome.code, 1, `${args.join(' ')}: ${outcome.stderr}`);
      assert.match(outcome.stderr, message);
      assert.equal(outcome.stdout, '');
    }
    const usage = await atrium(home, 'sign-in');
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /^atrium: "sign-in" takes <server>$/m);
  });

  // The loopback listener would keep the process alive: exiting at once shows the wait really ended.
  test('a browser that never comes back ends the wait with a clear message; Ctrl+C cancels it; no sign-in is stored', { timeout: 60_000 }, async () => {
    const fixture = await oauthFixture();
    const home = await homeWith({ remote: { url: fixture.url } });

    const waiting = startAtriumCli(home, ['sign-in', 'remote', '--timeout', '1500']);
    await waiting.lineMatching(/^Waiting for the browser to come back \(up to 1500 ms; Ctrl\+C cancels\)…$/);
    const timedOut = await waiting.exited;
    assert.equal(timedOut.code, 1);
    assert.match(timedOut.stderr, /^atrium: remote: sign-in failed: no sign-in came back from the browser within 1500 ms$/m);

    const cancelled = startAtriumCli(home, ['sign-in', 'remote']);
    await cancelled.lineMatching(AUTHORIZATION_PAGE);
    assert.ok(cancelled.stillRunning());
    cancelled.interrupt();
    const outcome = await cancelled.exited;
    assert.equal(outcome.code, 130);
    assert.match(outcome.stderr, /^atrium: the sign-in to remote was cancelled$/m);
    assert.equal(count(fixture, /^token authorization_code$/), 0);
    assert.match((await atrium(home, 'servers')).stdout, /not signed in/);
  });
});
