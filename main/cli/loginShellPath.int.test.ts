// The login shell's PATH as a person with a real terminal meets it: the real `atrium` process, a bash
// whose start-up files are slow or extend PATH, and (for the terminal itself) a tmux pane.

import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { atriumCliPath, runAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import type { TerminalSession } from '../../e2e/fixtures/terminalSession.ts';
import { openTerminal, shellQuote, tmuxAvailable } from '../../e2e/fixtures/terminalSession.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';

const bash = ['/bin/bash', '/usr/bin/bash'].find((file) => {
  try {
    execFileSync(file, ['-c', 'true'], { timeout: 10_000 });
    return true;
  } catch {
    return false;
  }
});

async function countLines(file: string): Promise<number> {
  try {
    return (await readFile(file, 'utf8')).split('\n').filter(Boolean).length;
  } catch {
    return 0;
  }
}

describe('the login shell PATH', { skip: bash ? false : 'no bash on this machine' }, () => {
  let home: string;
  let userHome: string;
  before(async () => {
    home = await makeTempDir('atrium-shell-path-');
    userHome = await makeTempDir('atrium-shell-user-');
    // A server command that only the login shell's PATH can find.
    const bin = join(userHome, 'login-bin');
    await mkdir(bin);
    const echo = fixtureCommand('echoServer');
    await writeFile(join(bin, 'atrium-test-echo'), `#!/bin/sh\nexec '${echo.command}' ${echo.args.map((a) => `'${a}'`).join(' ')}\n`);
    await chmod(join(bin, 'atrium-test-echo'), 0o755);
    // Unsandboxed: the wrapper starts a Node the sandbox cannot know of (this test is about finding the command).
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: { command: 'atrium-test-echo', sandbox: false } } }));
  });
  after(async () => {
    await rm(home, { recursive: true, force: true });
    await rm(userHome, { recursive: true, force: true });
  });

  test('the login shell is asked once; later runs use the kept PATH until a start-up file changes; --help never asks', async () => {
    const asked = join(userHome, 'asked');
    const profile = join(userHome, '.bash_profile');
    await writeFile(profile, `echo asked >> "$HOME/asked"\nexport PATH="$PATH:$HOME/login-bin"\n`);
    const env = { HOME: userHome, SHELL: bash ?? '' };
    // Approved as the person would, where the command is found: on the login shell's PATH.
    const approved = await runAtriumCli(home, ['servers', 'approve', 'echo'], env);
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, new RegExp(`atrium-test-echo is ${join(userHome, 'login-bin', 'atrium-test-echo')}`), 'the approval names the program the login shell’s PATH finds');

    const first = await runAtriumCli(home, ['tools'], env);
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /echo \/ add/, 'the server was found on the login shell PATH');
    assert.equal(await countLines(asked), 1);

    const second = await runAtriumCli(home, ['tools'], env);
    assert.match(second.stdout, /echo \/ add/, 'the kept PATH still finds the server');
    assert.equal(await countLines(asked), 1, 'the second run did not ask the shell');

    assert.equal((await runAtriumCli(home, ['--help'], env)).code, 0);
    assert.equal(await countLines(asked), 1, '--help did not ask the shell');

    await writeFile(profile, `echo asked >> "$HOME/asked"\nexport PATH="$PATH:$HOME/login-bin"\n# edited\n`);
    const third = await runAtriumCli(home, ['tools'], env);
    assert.match(third.stdout, /echo \/ add/);
    assert.equal(await countLines(asked), 2, 'an edited profile is read again');
  });

  test('run from a shell, its PATH leads: the program it finds first is the one run, the login shell\'s after it', async () => {
    // The same command in two folders: one on the PATH this shell has (after `nvm use`, say), one that the
    // login shell's profile puts first. From a terminal, the person means the one their shell finds.
    const own = join(home, 'shell-first');
    const shellBin = join(userHome, 'shell-bin');
    await mkdir(own, { recursive: true });
    await mkdir(shellBin, { recursive: true });
    const echo = fixtureCommand('echoServer');
    await writeFile(join(shellBin, 'atrium-test-echo'), `#!/bin/sh\nexec '${echo.command}' ${echo.args.map((a) => `'${a}'`).join(' ')}\n`);
    await chmod(join(shellBin, 'atrium-test-echo'), 0o755);
    await writeFile(join(own, 'servers.json'), JSON.stringify({ mcpServers: { echo: { command: 'atrium-test-echo', sandbox: false } } }));
    await writeFile(join(userHome, '.bash_profile'), `export PATH="$HOME/login-bin:$PATH"\n`);
    try {
      const env = { HOME: userHome, SHELL: bash ?? '', PATH: `${shellBin}:${process.env.PATH ?? ''}` };
      const approved = await runAtriumCli(own, ['servers', 'approve', 'echo'], env);
      assert.equal(approved.code, 0, approved.stderr);
      assert.match(approved.stdout, new RegExp(`atrium-test-echo is ${join(shellBin, 'atrium-test-echo')}`), 'the approval names the program this shell finds');
      const listed = await runAtriumCli(own, ['tools'], env);
      assert.equal(listed.code, 0, listed.stderr);
      assert.match(listed.stdout, /echo \/ add/, 'and that is the one that runs, as approved');
      // A command only the login shell's PATH has is still found.
      const loginOnly = await runAtriumCli(own, ['servers', 'approve', 'echo'], { ...env, PATH: process.env.PATH ?? '' });
      assert.match(loginOnly.stdout, new RegExp(`atrium-test-echo is ${join(userHome, 'login-bin', 'atrium-test-echo')}`));
    } finally {
      await rm(own, { recursive: true, force: true });
      await rm(shellBin, { recursive: true, force: true });
    }
  });

  test("run with npm run, a server's command is never found among Atrium's own tools that npm put first on the PATH", async () => {
    // `npm run web` (or `npm run atrium`) starts Atrium with its own node_modules/.bin first on the PATH,
    // where its dev copies of MCP servers are: a person's `mcp-server-everything` is not that one.
    const own = join(home, 'npm-run');
    await mkdir(own, { recursive: true });
    await writeFile(join(own, 'servers.json'), JSON.stringify({ mcpServers: { everything: { command: 'mcp-server-everything', args: ['stdio'], sandbox: false } } }));
    try {
      const atriumBin = fileURLToPath(new URL('../../node_modules/.bin', import.meta.url));
      const env = { HOME: userHome, SHELL: bash ?? '', PATH: `${atriumBin}:${process.env.PATH ?? ''}` };
      const approved = await runAtriumCli(own, ['servers', 'approve', 'everything'], env);
      assert.doesNotMatch(approved.stdout, /node_modules\/\.bin/, 'the approval names no program of Atrium’s own');
      const listed = await runAtriumCli(own, ['tools'], env);
      assert.match(listed.stderr, /everything: command not found: "mcp-server-everything"/);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });

  test('a login shell slower than the time limit leaves the terminal to Atrium: the approval question is asked and answered', { skip: tmuxAvailable ? false : 'no tmux on this machine', timeout: 150_000 }, async () => {
    const slowHome = await makeTempDir('atrium-slow-shell-');
    const llm = await startFakeAnthropic([{ toolCalls: [{ name: 'echo__add', input: { a: 2, b: 3 } }] }, { text: 'Two and three make five.' }]);
    let terminal: TerminalSession | undefined;
    try {
      await writeFile(join(slowHome, '.bash_profile'), 'sleep 4\n');
      await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: fixtureCommand('echoServer') } }));
      terminal = await openTerminal(
        [
          'env', `HOME=${shellQuote(slowHome)}`, `SHELL=${shellQuote(bash ?? '')}`, `ATRIUM_HOME=${shellQuote(home)}`, 'ANTHROPIC_API_KEY=sk-ant-test',
          shellQuote(process.execPath), shellQuote(atriumCliPath), 'chat', shellQuote('add 2 and 3'),
          '--provider', 'anthropic', '--model', 'claude-test', '--base-url', shellQuote(llm.url), '--approve', 'ask',
        ].join(' '),
      );
      // The servers file changed since the earlier tests approved it: starting echo is asked first, on the same terminal.
      await terminal.waitFor(/Start echo with this definition\? \[y\] yes/);
      await terminal.type('y');
      await terminal.waitFor(/Allow\? \[y\] once/);
      await terminal.type('y');
      const pane = await terminal.waitFor(/exited with \d+/);
      assert.match(pane, /Two and three make five\./);
      assert.match(pane, /exited with 0/);
      assert.doesNotMatch(pane, /EIO|setRawMode|\n\s+at /);
    } finally {
      await terminal?.close();
      await llm.close();
      await rm(slowHome, { recursive: true, force: true });
      // Unsandboxed: the wrapper starts a Node the sandbox cannot know of (this test is about finding the command).
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: { command: 'atrium-test-echo', sandbox: false } } }));
    }
  });
});
