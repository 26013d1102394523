// Installing on the command line, with the real `atrium` process and a registry of the test's own on
// 127.0.0.1: the search over every page; one entry of each kind (npm, PyPI, OCI, a bundle, a remote)
// installed with its values, leaving no `latest`, no secret in servers.json and no process started before
// approval (npx, uvx and docker on PATH are stand-ins that leave a mark if run); a bundle from a file,
// checked and refused when bad, answering once approved; and a server the organisation's policy denies,
// refused by every way in, each naming the rule and the file.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';
import { buildBundle } from '../../e2e/fixtures/bundleFixture.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { sampleRegistryItems, startRegistryFixture } from '../../e2e/fixtures/registryFixture.ts';
import type { RegistryFixture } from '../../e2e/fixtures/registryFixture.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';
import { BUNDLE_LIMITS } from '../../shared/installs.ts';
import { encryptedFileSecrets } from '../store/encryptedSecrets.ts';

const SECRETS = { weather: 'sk-weather-1111111111', db: 'db-password-2222222222', greeter: 'greeter-key-33333333333', tickets: 'tickets-token-4444444444' };

describe('atrium registry search and atrium install', () => {
  let registry: RegistryFixture;
  let home: string;
  let marks: string;
  let env: Record<string, string>;
  const atrium = (...args: string[]) => runAtriumCli(home, [...args, '--timeout', '20000'], env);
  const serversFile = () => readFile(join(home, 'servers.json'), 'utf8').catch(() => '');

  before(async () => {
    registry = await startRegistryFixture();
    home = await makeTempDir('atrium-install-');
    marks = join(home, 'marks');
    // Stand-ins for the package runners: run, they leave a mark (and fail), so a start shows.
    const bin = join(home, 'bin');
    await mkdir(bin);
    await mkdir(marks);
    for (const program of ['npx', 'uvx', 'docker']) {
      await writeFile(join(bin, program), `#!/bin/sh\ntouch ${JSON.stringify(join(marks, program))}\nexit 1\n`);
      await chmod(join(bin, program), 0o755);
    }
    env = { PATH: `${bin}:${dirname(process.execPath)}:/usr/bin:/bin`, ATRIUM_REGISTRY_URL: registry.url };
  });
  after(async () => {
    await registry.close();
    await rm(home, { recursive: true, force: true });
  });

  test('search reads every page; a word of a description finds it; deleted never; deprecated with its message', async () => {
    const all = await atrium('registry', 'search', 'filler', '--json');
    assert.equal(all.code, 0, all.stderr);
    assert.equal((JSON.parse(all.stdout) as { total: number }).total, 23, 'fillers on all three pages');
    const forecast = await atrium('registry', 'search', 'forecasts');
    assert.match(forecast.stdout, /^io\.github\.atrium-test\/weather 1\.2\.3 — Weather {2}\[npm\]$/m);
    assert.match(forecast.stdout, /^1 server matches "forecasts" \(1 entry the registry sent could not be read and was left out\)\.$/m);
    const notes = await atrium('registry', 'search', 'notes');
    assert.match(notes.stdout, /^ {4}⚠ deprecated: Use io\.github\.atrium-test\/notes instead\.$/m);
    const deleted = await atrium('registry', 'search', 'old-weather');
    assert.match(deleted.stdout, /^0 servers match "old-weather" /m);
  });

  // Before anything is installed: the same entry installed already is refused before its values are read.
  test('a value that cannot be part of the address it goes into is named, with what it may hold; nothing is written', async () => {
    const before = await serversFile();
    const run = await atrium('install', 'com.example/tickets', '--env', 'tenant=bad value/with spaces?#', '--env', 'token=t');
    assert.equal(run.code, 1);
    assert.match(run.stderr, /^atrium: The address's tenant "bad value\/with spaces\?#" cannot be part of a web address's name: use letters, digits, hyphens and dots: give it with --env tenant=…$/m);
    assert.equal(await serversFile(), before);
  });

  test('one of each kind (5/5) installs with its values: exact versions, secrets in the store, nothing started', async () => {
    const installs: [string, string[]][] = [
      ['io.github.atrium-test/weather', ['--env', `WEATHER_API_KEY=${SECRETS.weather}`]],
      ['io.github.atrium-test/notes', ['--env', `notes_dir=${join(home, 'notes')}`]],
      ['io.github.atrium-test/db', ['--env', `DB_PASSWORD=${SECRETS.db}`]],
      ['io.github.atrium-test/greeter', ['--env', `api_key=${SECRETS.greeter}`, '--env', 'greeting=Bonjour']],
      ['com.example/tickets', ['--env', 'tenant=acme', '--env', `token=${SECRETS.tickets}`]],
    ];
    for (const [name, values] of installs) {
      const downloads = registry.requests.filter((request) => request.startsWith('/files/')).length;
      const run = await atrium('install', name, ...values);
      assert.equal(run.code, 0, `${name}: ${run.stderr}`);
      if (name.endsWith('/greeter')) assert.equal(registry.requests.filter((request) => request.startsWith('/files/')).length - downloads, 1, 'the bundle is downloaded once, for its plan and its install');
      assert.match(run.stdout, /^Installed [\w-]+ in .*servers\.json\. It is not trusted/m);
      assert.match(run.stderr, /not started until you approve it\. To approve it: atrium servers approve [\w-]+$/m);
    }
    const written = await serversFile();
    const servers = (JSON.parse(written) as { mcpServers: Record<string, { command?: string; args?: string[]; url?: string; headers?: Record<string, string> }> }).mcpServers;
    assert.deepEqual(Object.keys(servers).sort(), ['db', 'greeter', 'notes', 'tickets', 'weather']);
    assert.deepEqual([servers.weather?.command, ...(servers.weather?.args ?? [])], ['npx', '-y', '@atrium-test/weather-mcp@1.2.3']);
    assert.deepEqual([servers.notes?.command, ...(servers.notes?.args ?? [])], ['uvx', 'atrium-notes-mcp==0.4.1', join(home, 'notes')]);
    assert.deepEqual([servers.db?.command, ...(servers.db?.args ?? []).slice(0, 3)], ['docker', 'run', '-i', '--rm']);
    assert.ok(servers.db?.args?.includes('ghcr.io/atrium-test/db-mcp:2.0.1'));
    assert.equal(servers.tickets?.url, 'https://acme.tickets.example/mcp');
    assert.match(servers.tickets?.headers?.Authorization ?? '', /^Bearer \$\{secret:[^}]+\}$/);
    assert.equal((written.match(/latest/g) ?? []).length, 0, 'no latest anywhere');
    for (const secret of Object.values(SECRETS)) assert.ok(!written.includes(secret), `${secret.slice(0, 8)}… is not in servers.json`);

    // Listing them starts none: each waits for approval.
    const listed = await atrium('servers', '--json');
    const statuses = (JSON.parse(listed.stdout) as { id: string; status: { kind: string } }[]).map((server) => server.status.kind);
    assert.deepEqual(statuses, ['needs-approval', 'needs-approval', 'needs-approval', 'needs-approval', 'needs-approval']);
    assert.deepEqual(await readdir(marks), [], '0 processes started before approval');
  });

  test('an entry installed again at the same version is refused, naming the server that runs it; nothing is written', async () => {
    const before = await serversFile();
    const again = await atrium('install', 'io.github.atrium-test/weather', '--env', `WEATHER_API_KEY=${SECRETS.weather}`);
    assert.equal(again.code, 1);
    assert.equal(again.stderr.trim(), 'atrium: io.github.atrium-test/weather 1.2.3 is installed already, as weather: nothing was installed (atrium servers remove weather, then install it again, to start over)');
    assert.equal(await serversFile(), before, 'no weather-2 beside it');
  });

  test('approved, the registry bundle runs with the settings and the secret it was given', async () => {
    assert.equal((await atrium('servers', 'approve', 'greeter')).code, 0);
    const greet = await atrium('call', 'greeter', 'greet', '{"name":"Ada"}');
    assert.equal(greet.code, 0, greet.stderr);
    assert.match(greet.stdout, /Bonjour, Ada!/);
    const key = await atrium('call', 'greeter', 'key_length');
    assert.match(key.stdout, new RegExp(`\\b${SECRETS.greeter.length}\\b`), 'the secret reached the server from the store');
    assert.deepEqual(await readdir(marks), [], 'the other servers still did not start');
  });

  test('a removed server takes the secrets it was installed with out of the store; a copy that still names them keeps them', async () => {
    const kept = async () => (await encryptedFileSecrets(home).names()).filter((name) => name.startsWith('mcp-server:'));
    const weatherSecrets = (await kept()).filter((name) => name.startsWith('mcp-server:weather:'));
    assert.equal(weatherSecrets.length, 1, 'the weather key is in the store');
    const file = JSON.parse(await serversFile()) as { mcpServers: Record<string, unknown> };
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { ...file.mcpServers, 'weather-copy': file.mcpServers.weather } }, null, 2));

    assert.equal((await atrium('servers', 'remove', 'weather')).code, 0);
    assert.deepEqual((await kept()).filter((name) => name.startsWith('mcp-server:weather:')), weatherSecrets, 'weather-copy still names the key: it stays');
    const others = (await kept()).filter((name) => !name.startsWith('mcp-server:weather:'));
    assert.equal((await atrium('servers', 'remove', 'weather-copy')).code, 0);
    assert.deepEqual(await kept(), others, "the weather key is gone; the other servers' secrets stay");
  });

  test('a name the registry does not have names the one meant: its short name, a slip, or a version it does not have', async () => {
    const before = await serversFile();
    const short = await atrium('install', 'weather@1.2.3', '--env', 'WEATHER_API_KEY=x');
    assert.equal(short.code, 1);
    assert.match(short.stderr, /has no server named weather at version 1\.2\.3: did you mean io\.github\.atrium-test\/weather\?$/m);
    const slip = await atrium('install', 'io.github.atrium-test/wether');
    assert.match(slip.stderr, /has no server named io\.github\.atrium-test\/wether: did you mean io\.github\.atrium-test\/weather\?$/m);
    const version = await atrium('install', 'io.github.atrium-test/weather@9.9.9');
    assert.match(version.stderr, /has no server named io\.github\.atrium-test\/weather at version 9\.9\.9: its latest version there is 1\.2\.3$/m);
    assert.equal(await serversFile(), before);
  });

  test('a required value not given is named, with how to give it; nothing is written', async () => {
    const before = await serversFile();
    const run = await atrium('install', 'io.github.atrium-test/weather@1.2.3', '--env', 'UNITS=metric');
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /The environment variable WEATHER_API_KEY is required \(Your weather service key\): give it with --env WEATHER_API_KEY=…/);
    assert.equal(await serversFile(), before);
  });
});

test('a search of a registry that cannot be read, with no list kept, is one line saying so and exit 1', async () => {
  const registry = await startRegistryFixture();
  registry.setDown(true);
  const home = await makeTempDir('atrium-registry-down-');
  try {
    const run = await runAtriumCli(home, ['registry', 'search', 'weather', '--registry', registry.url]);
    assert.equal(run.code, 1);
    assert.equal(run.stdout, '');
    assert.equal(run.stderr.trim(), `atrium: the registry at ${registry.url} answered 503 Service Unavailable`);
  } finally {
    await registry.close();
    await rm(home, { recursive: true, force: true });
  }
});

test('a registry entry whose bundle does not have the SHA-256 it lists is refused, and nothing written', async () => {
  const registry = await startRegistryFixture((url) => {
    const { items, files } = sampleRegistryItems(url);
    const greeter = items.find((item) => item.server.name === 'io.github.atrium-test/greeter');
    const pkg = (greeter?.server.packages as { fileSha256: string }[] | undefined)?.[0];
    if (pkg) pkg.fileSha256 = 'cd'.repeat(32);
    return { items, files };
  });
  const home = await makeTempDir('atrium-entry-hash-');
  try {
    const run = await runAtriumCli(home, ['install', 'io.github.atrium-test/greeter', '--registry', registry.url, '--env', 'api_key=x']);
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /the bundle's SHA-256 is [0-9a-f]{64}, not the (cd){32} expected: it is not the file that was published/);
    assert.ok(!existsSync(join(home, 'bundles')), 'nothing unpacked');
    assert.ok(!existsSync(join(home, 'servers.json')) || !(await readFile(join(home, 'servers.json'), 'utf8')).includes('greeter'));
  } finally {
    await registry.close();
    await rm(home, { recursive: true, force: true });
  }
});

describe('atrium install FILE.mcpb', () => {
  let home: string;
  const atrium = (...args: string[]) => runAtriumCli(home, [...args, '--timeout', '20000']);
  before(async () => {
    home = await makeTempDir('atrium-bundle-');
  });
  after(() => rm(home, { recursive: true, force: true }));

  test('the bad ones are refused (escape, hash, manifest, size, empty: 5/5), nothing of them written anywhere', async () => {
    const valid = buildBundle();
    const files: [string, Uint8Array, string[], RegExp][] = [
      ['escape.mcpb', buildBundle('escape'), [], /path leaves the folder it unpacks to/],
      ['greeter.mcpb', valid, ['--sha256', 'ab'.repeat(32)], /SHA-256 is [0-9a-f]{64}, not the (ab){32} expected/],
      // Said for the person who has the file, in the manifest's own words: no schema path, no "Required".
      ['invalid.mcpb', buildBundle('invalid-manifest'), [], /^atrium: the bundle's manifest\.json is not valid, so it cannot be installed \(its author can mend it\): "entry_point" in "server" is missing/m],
      ['huge.mcpb', new Uint8Array(BUNDLE_LIMITS.fileBytes + 1024), [], /huge\.mcpb is 40 MB, over the 40 MB Atrium installs/],
      ['empty.mcpb', new Uint8Array(0), [], /^atrium: the file is empty, so it is not a bundle$/m],
    ];
    for (const [name, bytes, extra, refused] of files) {
      await writeFile(join(home, name), bytes);
      const run = await atrium('install', join(home, name), '--env', 'api_key=x', ...extra);
      assert.notEqual(run.code, 0, `${name} refused`);
      assert.match(run.stderr, refused);
    }
    assert.ok(!existsSync(join(home, 'servers.json')) || !(await readFile(join(home, 'servers.json'), 'utf8')).includes('greeter'));
    assert.ok(!existsSync(join(home, 'bundles')) || (await readdir(join(home, 'bundles'))).length === 0, 'nothing unpacked');
    for (const up of [home, dirname(home), join(home, 'bundles')]) assert.ok(!existsSync(join(up, 'escaped-from-bundle.txt')), `nothing written in ${up}`);
  });

  test('the valid one, its hash checked, installs under the data folder and answers once approved', async () => {
    const bytes = buildBundle();
    await writeFile(join(home, 'greeter.mcpb'), bytes);
    const run = await atrium('install', join(home, 'greeter.mcpb'), '--sha256', createHash('sha256').update(bytes).digest('hex'), '--env', 'api_key=0123456789', '--env', 'greeting=Hi', '--env', `workspace=${home}`);
    assert.equal(run.code, 0, run.stderr);
    const stored = (JSON.parse(await readFile(join(home, 'servers.json'), 'utf8')) as { mcpServers: Record<string, { roots?: string[] }> }).mcpServers['greeter-bundle'];
    assert.deepEqual(stored?.roots, [home], 'a directory setting becomes a root');
    const [folder] = await readdir(join(home, 'bundles'));
    assert.match(folder ?? '', /^greeter-bundle-1\.0\.0-[0-9a-f]{12}$/);
    assert.ok(!(await readFile(join(home, 'servers.json'), 'utf8')).includes('0123456789'));
    assert.equal((await atrium('servers', 'approve', 'greeter-bundle')).code, 0);
    const greet = await atrium('call', 'greeter-bundle', 'greet', '{"name":"Grace"}');
    assert.match(greet.stdout, /Hi, Grace!/, greet.stderr);

    const before = await readFile(join(home, 'servers.json'), 'utf8');
    const again = await atrium('install', join(home, 'greeter.mcpb'), '--env', 'api_key=0123456789');
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^atrium: greeter-bundle 1\.0\.0 is installed already, as greeter-bundle: nothing was installed/);
    assert.equal(await readFile(join(home, 'servers.json'), 'utf8'), before);
    assert.equal((await readdir(join(home, 'bundles'))).length, 1, 'nothing unpacked again');
  });

  test('removed, a server takes the bundle it was unpacked from with it; a copy that still runs from it keeps it', async () => {
    const file = JSON.parse(await readFile(join(home, 'servers.json'), 'utf8')) as { mcpServers: Record<string, unknown> };
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { ...file.mcpServers, 'greeter-copy': file.mcpServers['greeter-bundle'] } }, null, 2));
    const unpacked = await readdir(join(home, 'bundles'));
    assert.equal(unpacked.length, 1);

    assert.equal((await atrium('servers', 'remove', 'greeter-bundle')).code, 0);
    assert.deepEqual(await readdir(join(home, 'bundles')), unpacked, 'greeter-copy still runs from it: it stays');
    const removed = await atrium('servers', 'remove', 'greeter-copy');
    assert.equal(removed.code, 0, removed.stderr);
    assert.deepEqual(await readdir(join(home, 'bundles')), [], 'the last server that ran from it is gone: so is the bundle');
  });
});

describe('a server the policy denies, by every way in', () => {
  let home: string;
  let policyFile: string;
  let registry: RegistryFixture;
  const atrium = (...args: string[]) => runAtriumCli(home, [...args, '--timeout', '20000'], { ATRIUM_POLICY_FILE: policyFile, ATRIUM_REGISTRY_URL: registry.url });
  const rule = () => new RegExp(`Your organisation's policy does not allow this server \\(rule deniedMcpServers\\[0\\] \\{"serverName":"echo"\\} in ${policyFile.replaceAll('/', '\\/').replaceAll('.', '\\.')}\\)`);

  before(async () => {
    home = await makeTempDir('atrium-policy-');
    registry = await startRegistryFixture();
    policyFile = join(home, 'policy.json');
    // Allowed by name too: the deny wins.
    await writeFile(policyFile, JSON.stringify({ allowedMcpServers: [{ serverName: 'echo' }, { serverName: 'greeter' }], deniedMcpServers: [{ serverName: 'echo' }, { serverUrl: 'https://*.tickets.example/*' }] }));
    // Written by hand, and approved: the policy holds it all the same.
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: fixtureCommand('echoServer') } }));
    await approveServers(home);
  });
  after(async () => {
    await registry.close();
    await rm(home, { recursive: true, force: true });
  });

  test('a hand-edited servers.json: listed as blocked, its tools never reached', async () => {
    const listed = await atrium('servers');
    assert.match(listed.stdout, /Blocked by policy: /);
    assert.match(listed.stdout, rule());
    const tools = await atrium('tools');
    assert.match(tools.stderr + tools.stdout, rule());
  });

  test('call and servers approve are refused, naming the rule', async () => {
    const call = await atrium('call', 'echo', 'echo', '{"text":"hi"}');
    assert.notEqual(call.code, 0);
    assert.match(call.stderr, rule());
    const approve = await atrium('servers', 'approve', 'echo');
    assert.notEqual(approve.code, 0);
    assert.match(approve.stderr, /echo cannot start: /);
    assert.match(approve.stderr, rule());
  });

  test('import says the imported server will not start, and why', async () => {
    const shared = join(home, 'shared.json');
    const echo = fixtureCommand('echoServer');
    await writeFile(shared, JSON.stringify({ mcpServers: { echo2: { ...echo, args: [...echo.args, '--both-eras'] } } }));
    // The second server is not on the allow list (only names echo and greeter are).
    const imported = await atrium('import', shared);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stderr, /^atrium: echo2 will not start: This server is not on your organisation's list of allowed servers \(its command line matches no entry\) \(rule allowedMcpServers in /m);
  });

  test('install from the registry of a denied remote is refused, and nothing written', async () => {
    const before = await readFile(join(home, 'servers.json'), 'utf8');
    const run = await atrium('install', 'com.example/tickets', '--env', 'tenant=acme', '--env', 'token=t');
    assert.notEqual(run.code, 0);
    assert.match(run.stderr, /tickets was not installed: Your organisation's policy does not allow this server \(rule deniedMcpServers\[1\] \{"serverUrl":"https:\/\/\*\.tickets\.example\/\*"\}/);
    assert.equal(await readFile(join(home, 'servers.json'), 'utf8'), before);
  });
});
