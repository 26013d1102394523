// `atrium servers add` and `servers remove` as a person uses them, with the real `atrium` process: a
// server added from the command line is saved not trusted and runs nothing before the person approved
// what it runs — on a terminal they are asked, as the window's start dialog asks; without one the
// command that approves it is printed.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { atriumCliPath, runAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import type { TerminalSession } from '../../e2e/fixtures/terminalSession.ts';
import { openTerminal, shellQuote, tmuxAvailable } from '../../e2e/fixtures/terminalSession.ts';
import { fixturePath } from '../../e2e/servers/launch.ts';

const storedServers = async (home: string) => (JSON.parse(await readFile(join(home, 'servers.json'), 'utf8')) as { mcpServers: Record<string, Record<string, unknown>> }).mcpServers;

describe('atrium servers add', () => {
  let home: string;
  before(async () => {
    home = await makeTempDir('atrium-servers-add-');
  });
  after(() => rm(home, { recursive: true, force: true }));

  test('without a terminal a local server is added, not trusted, runs nothing, and the command that approves it is printed', async () => {
    // In a folder the server is given as a root: in its sandbox it writes nowhere else.
    const folder = await makeTempDir('atrium-servers-add-root-');
    const pidFile = join(folder, 'echo.pid');
    const added = await runAtriumCli(home, ['servers', 'add', 'echo', '--env', 'GREETING=hello', '--', process.execPath, fixturePath('echoServer'), '--pid-file', pidFile]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /^Added echo to .*servers\.json\. It is not trusted: Atrium asks before it runs its tools, and it starts once you approve what it runs\.$/m);
    assert.match(added.stderr, /^echo is new: Atrium has not run it before\.$/m);
    assert.match(added.stderr, /^ {2}runs: .*echoServer\.ts --pid-file /m);
    assert.match(added.stderr, /^atrium: echo: not started until you approve it\. To approve it: atrium servers approve echo$/m);
    assert.deepEqual((await storedServers(home)).echo, { command: process.execPath, args: [fixturePath('echoServer'), '--pid-file', pidFile], env: { GREETING: 'hello' } });
    assert.equal(existsSync(pidFile), false, 'nothing ran before it was approved');

    const approved = await runAtriumCli(home, ['servers', 'approve', 'echo']);
    assert.equal(approved.code, 0, approved.stderr);
    const called = await runAtriumCli(home, ['call', 'echo', 'env', '{"name": "GREETING"}', '--root', folder]);
    assert.equal(called.code, 0, called.stderr);
    assert.equal(called.stdout.trim(), 'hello', 'it runs as added, with its environment');
    assert.equal(existsSync(pidFile), true, 'approved, it ran');
    await rm(folder, { recursive: true, force: true });
  });

  test('a script named by a path relative to the folder the command is typed in is refused, with its full path and --cwd .; with --cwd . it is added to run there', async () => {
    const folder = await makeTempDir('atrium-servers-add-here-');
    await writeFile(join(folder, 'server.mjs'), '// a server of this folder\n');
    const relative = await runAtriumCli(home, ['servers', 'add', 'local', '--', 'node', 'server.mjs'], {}, folder);
    assert.equal(relative.code, 1);
    assert.match(relative.stderr, new RegExp(`^atrium: server\\.mjs is a file in this folder, but Atrium starts local in a folder of its own, where it is not: give its full path \\(${join(folder, 'server.mjs').replace(/[.\\]/g, '\\$&')}\\), or add it with --cwd \\. to run it here$`, 'm'));
    assert.equal((await storedServers(home)).local, undefined, 'nothing was added');

    const here = await runAtriumCli(home, ['servers', 'add', 'local', '--cwd', '.', '--', 'node', 'server.mjs'], {}, folder);
    assert.equal(here.code, 0, here.stderr);
    assert.deepEqual((await storedServers(home)).local, { command: 'node', args: ['server.mjs'], cwd: folder });
    const elsewhere = await makeTempDir('atrium-servers-add-elsewhere-');
    const word = await runAtriumCli(home, ['servers', 'add', 'runner', '--', 'npx', '-y', 'server.mjs'], {}, elsewhere);
    assert.equal(word.code, 0, `a word that names no file of the folder is added as typed: ${word.stderr}`);
    // A slip in the program's name is said where the person approves it, with the one likely meant.
    assert.equal((await runAtriumCli(home, ['servers', 'add', 'slip', '--', 'nodee', 'server.js'])).code, 0);
    const slip = await runAtriumCli(home, ['servers', 'approve', 'slip']);
    assert.match(slip.stdout + slip.stderr, /^ {2}⚠ nodee is not a program on this computer \(nothing of that name is on the PATH the server gets\), so it cannot start as written: did you mean node\?$/m);
    assert.equal((await runAtriumCli(home, ['servers', 'remove', 'slip'])).code, 0);
    assert.equal((await runAtriumCli(home, ['servers', 'remove', 'runner'])).code, 0);
    assert.equal((await runAtriumCli(home, ['servers', 'remove', 'local'])).code, 0);
    await rm(folder, { recursive: true, force: true });
    await rm(elsewhere, { recursive: true, force: true });
  });

  test('a remote server is added by its address; a name taken, a command line and an address together, and an option of the server before -- are refused in words', async () => {
    const remote = await runAtriumCli(home, ['servers', 'add', 'web', '--url', 'http://127.0.0.1:9/mcp']);
    assert.equal(remote.code, 0, remote.stderr);
    assert.deepEqual((await storedServers(home)).web, { type: 'http', url: 'http://127.0.0.1:9/mcp' });
    assert.match(remote.stderr, /^atrium: web: not started until you approve it\. To approve it: atrium servers approve web$/m);

    const taken = await runAtriumCli(home, ['servers', 'add', 'web', '--', 'npx', 'something']);
    assert.equal(taken.code, 1);
    assert.match(taken.stderr, /^atrium: Name "web" is taken by another server: choose another name\.$/m);
    const both = await runAtriumCli(home, ['servers', 'add', 'other', '--url', 'https://example.com/mcp', '--', 'npx']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /a server is either a command line \(after --\) or an address \(--url\), not both/);
    const option = await runAtriumCli(home, ['servers', 'add', 'files', 'npx', '-y', '@modelcontextprotocol/server-filesystem']);
    assert.equal(option.code, 2);
    assert.match(option.stderr, /^atrium: -y is not an option of Atrium's: put the server's command line after --, as in atrium servers add NAME -- npx -y PACKAGE$/m);
    assert.deepEqual(Object.keys(await storedServers(home)).sort(), ['echo', 'web'], 'nothing refused was saved');

    const removed = await runAtriumCli(home, ['servers', 'remove', 'web']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /^Removed web from /m);
    assert.equal((await storedServers(home)).web, undefined);
  });

  test('a script or a working folder that is not on this computer is said where the server is approved, before it fails to start', async () => {
    const own = await makeTempDir('atrium-servers-missing-');
    const script = join(own, 'no-such-server.mjs');
    await writeFile(join(own, 'servers.json'), JSON.stringify({ mcpServers: { ghost: { command: process.execPath, args: [script], cwd: '/atrium-no-such-folder' } } }));
    const approved = await runAtriumCli(own, ['servers', 'approve', 'ghost']);
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, /^ {2}⚠ its working folder \/atrium-no-such-folder is not on this computer, so it cannot start as written\.$/m);
    assert.ok(approved.stdout.includes(`  ⚠ the script ${script} is not on this computer, so it cannot start as written.`), approved.stdout);
    assert.match(approved.stdout, /^Approved ghost, but it cannot start as written \(above\): mend its definition, then approve it again\.$/m, 'not "it starts with the next command"');
    await rm(own, { recursive: true, force: true });
  });

  test('servers disable and enable turn a server off and on, as the window\'s switch does; what approve says of a disabled one is a command that works', async () => {
    const own = await makeTempDir('atrium-servers-switch-');
    await writeFile(join(own, 'servers.json'), JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [fixturePath('echoServer')], disabled: true } } }));
    // Enabled before it is approved: on, but it waits for the approval, and says so.
    const early = await runAtriumCli(own, ['servers', 'enable', 'echo']);
    assert.match(early.stdout, /^Enabled echo: it starts once you approve what it runs \(atrium servers approve echo\)\.$/m);
    assert.equal((await runAtriumCli(own, ['servers', 'disable', 'echo'])).code, 0);
    const approved = await runAtriumCli(own, ['servers', 'approve', 'echo']);
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, /^Approved echo \(it is disabled: to start it, atrium servers enable echo\)\.$/m);
    const enabled = await runAtriumCli(own, ['servers', 'enable', 'echo']);
    assert.equal(enabled.code, 0, enabled.stderr);
    assert.match(enabled.stdout, /^Enabled echo: it starts with the next command\.$/m);
    assert.equal((await storedServers(own)).echo?.disabled, undefined);
    const tools = await runAtriumCli(own, ['tools', '--server', 'echo']);
    assert.equal(tools.code, 0, tools.stderr);
    assert.match(tools.stdout, /echo \/ echo/);
    const disabled = await runAtriumCli(own, ['servers', 'disable', 'echo']);
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.match(disabled.stdout, /^Disabled echo: it does not start until you enable it \(atrium servers enable echo\)\.$/m);
    assert.equal((await storedServers(own)).echo?.disabled, true);
    const off = await runAtriumCli(own, ['tools', '--server', 'echo']);
    assert.equal(off.code, 1);
    assert.equal(off.stderr.trim(), 'atrium: echo is disabled: to use it, atrium servers enable echo');
    const slip = await runAtriumCli(own, ['servers', 'enable', 'ecko']);
    assert.equal(slip.code, 1);
    assert.match(slip.stderr, /there is no server named "ecko" in .*: did you mean "echo"\?/);
    await rm(own, { recursive: true, force: true });
  });

  test('an address with a user name and password is refused, and the password is neither saved nor said back', async () => {
    const refused = await runAtriumCli(home, ['servers', 'add', 'withpass', '--url', 'https://ann:hunter2-pass@example.com/mcp']);
    assert.equal(refused.code, 1, refused.stderr);
    assert.match(refused.stderr, /the address holds a user name or password \(before "@"\), which Atrium never sends in an address: give the credential as a header instead/);
    assert.doesNotMatch(refused.stdout + refused.stderr, /hunter2-pass/);
    assert.equal((await storedServers(home)).withpass, undefined);
    assert.doesNotMatch(await readFile(join(home, 'servers.json'), 'utf8'), /hunter2-pass/);
  });

  test('a name held by a hand-written entry with a mistake is refused: the entry, its token with it, stays as the person wrote it, and can be removed by its name', async () => {
    const own = await makeTempDir('atrium-servers-add-handwritten-');
    const written = JSON.stringify({ mcpServers: { github: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github@1.0.0'], env: { GITHUB_TOKEN: 'ghp_kept', GITHUB_ORG: 42 } } } }, null, 2);
    await writeFile(join(own, 'servers.json'), written);
    const added = await runAtriumCli(own, ['servers', 'add', 'github', '--', process.execPath, fixturePath('echoServer')]);
    assert.equal(added.code, 1, added.stderr);
    assert.match(added.stderr, /^atrium: Name "github" is taken by an entry of the servers file that has a mistake: fix that entry, or choose another name\.$/m);
    assert.equal(await readFile(join(own, 'servers.json'), 'utf8'), written);

    // The entry the person cannot fix can be removed by its name, as a server can.
    const removed = await runAtriumCli(own, ['servers', 'remove', 'github']);
    assert.equal(removed.code, 0, removed.stderr);
    assert.match(removed.stdout, /^Removed github from /m);
    assert.deepEqual((await storedServers(own)).github, undefined);
    await rm(own, { recursive: true, force: true });
  });

  test('on a terminal the person is asked whether to start it, as the window asks, and sees it start', { skip: tmuxAvailable ? false : 'no tmux on this machine' }, async () => {
    let terminal: TerminalSession | undefined;
    try {
      const command = ['env', `ATRIUM_HOME=${shellQuote(home)}`, shellQuote(process.execPath), shellQuote(atriumCliPath), 'servers', 'add', 'echo2', '--', shellQuote(process.execPath), shellQuote(fixturePath('echoServer'))];
      terminal = await openTerminal(command.join(' '));
      await terminal.waitFor(/echo2 is new: Atrium has not run it before\./);
      await terminal.waitFor(/Start echo2 with this definition\? \[y\] yes, \[n\] no: $/m);
      await terminal.type('y');
      const pane = await terminal.waitFor(/exited with \d+/, 60_000);
      assert.match(pane, /echo2 {2}\[stdio\] {2}Ready\n {4}\d+ tools,/);
      assert.match(pane, /exited with 0/);
      assert.equal((await storedServers(home)).echo2?.['trusted'], undefined, 'not trusted');
    } finally {
      await terminal?.close();
    }
  });
});
