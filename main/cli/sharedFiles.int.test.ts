// The data folder is shared: `atrium import` runs beside the window and beside another import, on a disk
// that may be full, and a write may be killed midway. Real `atrium` processes on real files.

import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { watch } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import { atriumCliPath, runAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { nextEvent, startTestHost } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';

const dirs: string[] = [];
after(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});
async function tempDir(prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

type ServersDoc = { mcpServers: Record<string, Record<string, unknown>> };
const serverNames = async (home: string) => Object.keys((JSON.parse(await readFile(join(home, 'servers.json'), 'utf8')) as ServersDoc).mcpServers);

describe('atrium import beside another writer', () => {
  test('two imports run at once, ten times over: no server is ever lost', async () => {
    const sources = await tempDir('atrium-import-sources-');
    const first = join(sources, 'first.json');
    const second = join(sources, 'second.json');
    await writeFile(first, JSON.stringify({ mcpServers: { alpha: { command: 'node', args: ['alpha.js'] } } }));
    await writeFile(second, JSON.stringify({ servers: { beta: { type: 'stdio', command: 'node', args: ['beta.js'] } } }));
    const outcomes: string[] = [];
    for (let run = 1; run <= 10; run++) {
      const home = await tempDir('atrium-import-together-');
      await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { mine: { command: 'node', args: ['mine.js'] } } }));
      const [a, b] = await Promise.all([runAtriumCli(home, ['import', first]), runAtriumCli(home, ['import', second])]);
      assert.equal(a.code, 0, a.stderr);
      assert.equal(b.code, 0, b.stderr);
      outcomes.push(`run ${run}: ${(await serverNames(home)).sort().join(', ')}`);
      assert.deepEqual((await readdir(home)).filter((name) => /\.(tmp|lock|stale)$/.test(name)), [], 'no lock or temporary file is left');
    }
    assert.deepEqual(outcomes, Array.from({ length: 10 }, (_, i) => `run ${i + 1}: alpha, beta, mine`));
  });

  test('an import while the window runs: the window takes the server up (waiting for approval), and its next change keeps it', async () => {
    const host = await startTestHost({ echo: fixtureCommand('echoServer') });
    try {
      await host.core.whenSettled();
      const source = join(await tempDir('atrium-import-beside-'), 'claude_desktop_config.json');
      await writeFile(source, JSON.stringify({ mcpServers: { family: fixtureCommand('familyServer') } }));
      const appears = nextEvent(host.core, 'serverChanged', (s) => s.id === 'family');
      const imported = await runAtriumCli(host.home, ['import', source]);
      assert.equal(imported.code, 0, imported.stderr);
      assert.deepEqual((await appears).status, { kind: 'needs-approval', reason: 'new' });

      await host.core.api.setServerEnabled({ serverId: 'echo', enabled: false });
      assert.deepEqual(await serverNames(host.home), ['echo', 'family'], 'the window’s save keeps the imported server');
    } finally {
      await host.close();
    }
  });
});

describe('a write that cannot finish', () => {
  const namespaces = spawnSync('unshare', ['-rm', 'true']).status === 0;

  test('on a full disk, import says so in one sentence, changes nothing and leaves no temporary file', { skip: namespaces ? false : 'this machine cannot make a mount namespace for a small disk (unshare -rm)' }, async () => {
    const sources = await tempDir('atrium-full-sources-');
    const source = join(sources, 'more.json');
    await writeFile(source, JSON.stringify({ mcpServers: { more: { command: 'node', args: ['more.js'] } } }));
    const servers = JSON.stringify({ mcpServers: { mine: { command: 'node', args: ['mine.js'] } } });
    const mountPoint = await tempDir('atrium-full-disk-');
    // A 256 KiB disk of its own, filled to the last byte, seen only by this process and its children.
    const script = [
      'set -e',
      `mount -t tmpfs -o size=256k tmpfs "$HOME_DIR"`,
      `printf '%s' "$SERVERS" > "$HOME_DIR/servers.json"`,
      `printf '{"version":1,"servers":{}}' > "$HOME_DIR/launch-approvals.json"`,
      `dd if=/dev/zero of="$HOME_DIR/filler" bs=4k 2>/dev/null || true`,
      `set +e`,
      `"$NODE" "$CLI" import "$SOURCE"; echo "exit $?"`,
      `cat "$HOME_DIR/servers.json"; echo; ls -a "$HOME_DIR"`,
    ].join('\n');
    const { stdout, stderr } = await promisify(execFile)('unshare', ['-rm', 'sh', '-c', script], {
      env: { ...process.env, HOME_DIR: mountPoint, ATRIUM_HOME: mountPoint, SERVERS: servers, NODE: process.execPath, CLI: atriumCliPath, SOURCE: source },
      timeout: 120_000,
    });
    assert.equal(stderr, `atrium: Atrium could not save servers.json (it is as it was): the disk that holds ${mountPoint} is full; free some space, then try again.\n`);
    const [exit, content, ...listing] = stdout.trim().split('\n');
    assert.equal(exit, 'exit 1');
    assert.equal(content, servers, 'servers.json is as it was');
    assert.deepEqual(listing.filter((name) => !['.', '..'].includes(name)).sort(), ['filler', 'launch-approvals.json', 'servers.json'], 'no temporary or lock file is left behind');
  });

  test('a write killed midway leaves its temporary file, and the next command removes it (one of a process that runs is kept)', async () => {
    const home = await tempDir('atrium-killed-write-');
    await writeFile(join(home, 'servers.json'), '{"mcpServers":{}}');
    const dataFile = fileURLToPath(new URL('../store/dataFile.ts', import.meta.url));
    // A write large enough to be caught midway: killed as soon as its temporary file appears.
    const appeared = new Promise<string>((resolve) => {
      const watcher = watch(home, (_event, name) => {
        if (!name?.endsWith('.tmp')) return;
        watcher.close();
        resolve(name);
      });
    });
    const writer = spawn(
      process.execPath,
      ['--input-type=module', '-e', `import { writeFileAtomically } from ${JSON.stringify(dataFile)}; await writeFileAtomically(${JSON.stringify(join(home, 'providers.json'))}, Buffer.alloc(128 * 1024 * 1024, 120));`],
      { stdio: 'ignore' },
    );
    const exited = once(writer, 'exit');
    const leftover = await Promise.race([appeared, exited.then(() => assert.fail('the write ended before its temporary file was seen'))]);
    writer.kill('SIGKILL');
    await exited;
    assert.ok((await readdir(home)).includes(leftover), `the killed write left ${leftover}`);
    assert.ok(!(await readdir(home)).includes('providers.json'), 'and never reached providers.json');
    // A write under way in a process that still runs is not another's to remove.
    const running = `servers.json.${process.pid}.7.tmp`;
    await writeFile(join(home, running), 'mine');

    const run = await runAtriumCli(home, ['servers']);
    assert.equal(run.code, 0, run.stderr);
    const names = await readdir(home);
    assert.ok(!names.includes(leftover), `${leftover} is removed at the next start`);
    assert.ok(names.includes(running), 'the running process’s temporary file is kept');
  });
});
