// Ctrl+C as a person presses it, in a real terminal, at each of the CLI's questions (starting a server, a
// tool call's approval, a server's form, a sampling request) and while a call runs: the command ends at
// once with exit code 130, says so in a line (no stack trace), and the servers it started are gone.

import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { atriumCliPath } from '../../e2e/fixtures/atriumCliProcess.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import type { FakeLlmServer } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';
import type { TerminalSession } from '../../e2e/fixtures/terminalSession.ts';
import { openTerminal, shellQuote, tmuxAvailable } from '../../e2e/fixtures/terminalSession.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';

/** How long a server process may take to be gone once the command that ran it ended (it is reaped by then, normally at once). */
const GONE_WITHIN_MS = 10_000;

describe('Ctrl+C on a real terminal', { skip: tmuxAvailable ? false : 'no tmux on this machine', timeout: 600_000 }, () => {
  let home: string;
  let pidFile: string;
  const terminals: TerminalSession[] = [];
  const llms: FakeLlmServer[] = [];

  before(async () => {
    home = await makeTempDir('atrium-interrupt-');
    pidFile = join(home, 'echo.pid');
  });
  after(async () => {
    for (const terminal of terminals) await terminal.close();
    for (const llm of llms) await llm.close();
    await rm(home, { recursive: true, force: true });
  });

  async function withEcho(approved: boolean): Promise<void> {
    await rm(pidFile, { force: true });
    await rm(join(home, 'launch-approvals.json'), { force: true });
    // Outside the sandbox: the pid it writes is this machine's only there (the sandbox numbers its own processes).
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: { ...fixtureCommand('echoServer', ['--pid-file', pidFile]), sandbox: false } } }));
    if (approved) await approveServers(home);
  }

  async function atrium(args: string[], env: Record<string, string> = {}): Promise<TerminalSession> {
    const assignments = Object.entries({ ATRIUM_HOME: home, ...env }).map(([name, value]) => `${name}=${shellQuote(value)}`);
    const terminal = await openTerminal(['env', ...assignments, shellQuote(process.execPath), shellQuote(atriumCliPath), ...args.map(shellQuote)].join(' '));
    terminals.push(terminal);
    return terminal;
  }

  /** Presses Ctrl+C and checks how the command ended: 130, one line saying so, no stack trace. */
  async function pressCtrlC(terminal: TerminalSession): Promise<string> {
    await terminal.press('C-c');
    const pane = await terminal.waitFor(/exited with \d+/, 30_000);
    assert.match(pane, /exited with 130/, pane);
    assert.match(pane, /atrium: interrupted/, pane);
    assert.doesNotMatch(pane, /\n\s+at /, 'no stack trace');
    assert.doesNotMatch(pane, /AbortError|ABORT_ERR/, pane);
    return pane;
  }

  /** The echo server this run started is not running any more. */
  async function echoIsGone(): Promise<void> {
    const pid = Number(await readFile(pidFile, 'utf8'));
    const deadline = Date.now() + GONE_WITHIN_MS;
    while (isRunning(pid)) {
      if (Date.now() > deadline) assert.fail(`the echo server (pid ${pid}) still runs after the command ended`);
      await delay(100);
    }
  }

  async function chatWith(script: Parameters<typeof startFakeAnthropic>[0], flags: string[]): Promise<TerminalSession> {
    const llm = await startFakeAnthropic(script);
    llms.push(llm);
    return atrium(['chat', 'go', '--provider', 'anthropic', '--model', 'claude-test', '--base-url', llm.url, ...flags], { ANTHROPIC_API_KEY: 'sk-ant-test-not-real' });
  }

  test('at the question whether to start a new server', async () => {
    await withEcho(false);
    const terminal = await atrium(['tools']);
    await terminal.waitFor(/Start echo with this definition\? \[y\] yes, \[n\] no: $/m);
    await pressCtrlC(terminal);
    assert.equal(existsSync(pidFile), false, 'the server was not started');
  });

  test('Ctrl+D at a question answers it with nothing: the safe default (no), not a crash', async () => {
    await withEcho(false);
    const terminal = await atrium(['tools']);
    await terminal.waitFor(/Start echo with this definition\? \[y\] yes, \[n\] no: $/m);
    await terminal.press('C-d');
    const pane = await terminal.waitFor(/exited with \d+/, 30_000);
    assert.match(pane, /atrium: echo: not started until you approve it/);
    assert.match(pane, /exited with 1/);
    assert.doesNotMatch(pane, /\n\s+at |AbortError/, 'no stack trace');
    assert.equal(existsSync(pidFile), false, 'the server was not started');
  });

  test('at a tool call’s approval in a chat', async () => {
    await withEcho(true);
    const terminal = await chatWith([{ toolCalls: [{ name: 'echo__add', input: { a: 1, b: 2 } }] }, { text: 'Three.' }], ['--approve', 'ask']);
    await terminal.waitFor(/Allow\? \[y\] once/);
    await pressCtrlC(terminal);
    await echoIsGone();
  });

  test('at a server’s sampling request in a chat', async () => {
    await withEcho(true);
    const terminal = await chatWith([{ toolCalls: [{ name: 'echo__sample', input: { prompt: 'say hi' } }] }, { text: 'Hi.' }], ['--approve', 'all', '--sampling', 'ask']);
    await terminal.waitFor(/Run it\? \[y\] yes/);
    await pressCtrlC(terminal);
    await echoIsGone();
  });

  test('at a server’s form, before it is filled in and at one of its fields', async () => {
    await withEcho(true);
    const first = await atrium(['call', 'echo', 'ask', '{"message": "Who?"}', '--elicit', 'ask']);
    await first.waitFor(/Answer\? \[y\] fill in/);
    await pressCtrlC(first);
    await echoIsGone();

    await withEcho(true);
    const second = await atrium(['call', 'echo', 'ask', '{"message": "Who?"}', '--elicit', 'ask']);
    await second.waitFor(/Answer\? \[y\] fill in/);
    await second.type('y');
    await second.waitFor(/Name\*: $/m);
    await pressCtrlC(second);
    await echoIsGone();
  });

  test('while a server is still starting: the command ends at once, not when the start would have timed out', async () => {
    // It answers nothing until a file appears that never does: a server stuck in its start.
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { slow: { ...fixtureCommand('slowStartServer', ['--until-file', join(home, 'never')]), sandbox: false } } }));
    await approveServers(home);
    const terminal = await atrium(['call', 'slow', 'anything', '--timeout', '120000']);
    await terminal.waitFor(/waiting for slow to start/, 60_000);
    const pressed = Date.now();
    await pressCtrlC(terminal);
    assert.ok(Date.now() - pressed < 20_000, `the command ended ${Date.now() - pressed} ms after Ctrl+C`);
  });

  test('while a tool call runs', async () => {
    await withEcho(true);
    const terminal = await atrium(['call', 'echo', 'slow', '{}']);
    // The server wrote its pid once it started: the command is under way.
    const deadline = Date.now() + 60_000;
    while (!existsSync(pidFile)) {
      if (Date.now() > deadline) assert.fail('the echo server never started');
      await delay(100);
    }
    await pressCtrlC(terminal);
    await echoIsGone();
  });
});

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
