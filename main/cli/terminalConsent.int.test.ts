// `--elicit ask` as a person at a terminal uses it: runCli in-process with a scripted terminal, against
// the real echo server (the questions, the warnings and what reached the server are all checked), and
// the real process in a real terminal for what only a terminal shows.

import { runWithTerminal } from './testKits/scriptedTerminal.ts';
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { everythingServerPath, makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';
import { atriumCliPath } from '../../e2e/fixtures/atriumCliProcess.ts';
import type { TerminalSession } from '../../e2e/fixtures/terminalSession.ts';
import { openTerminal, shellQuote, tmuxAvailable } from '../../e2e/fixtures/terminalSession.ts';
import { runCli } from './runCli.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';

describe('answering on the terminal', () => {
  let home: string;
  before(async () => {
    home = await makeTempDir('atrium-terminal-');
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: fixtureCommand('echoServer') } }));
    await approveServers(home);
  });
  after(() => rm(home, { recursive: true, force: true }));

  /** Runs the CLI with a terminal that gives `replies` in order; returns what was asked and printed. */
  const withTerminal = (args: string[], replies: string[] | undefined) => runWithTerminal(home, args, replies);

  test('a form is filled in field by field; an answer that does not fit is explained and asked again', async () => {
    const { code, out, err, asked } = await withTerminal(['call', 'echo', 'ask', '{"message": "Who are you?"}', '--elicit', 'ask'], ['y', '', 'Ada', 'y']);
    assert.equal(code, 0, err);
    assert.match(out, /echo asks: Who are you\?/);
    assert.deepEqual(asked.slice(1), ['  Name*: ', '  Name*: ', '  Confirm [y/n]: ']);
    assert.match(err, /✗ Name: an answer is needed; try again/, 'the first, empty answer was refused with the reason');
    assert.match(out, /"action":\s*"accept"/);
    assert.match(out, /"name":\s*"Ada"/);
    assert.match(out, /"confirm":\s*true/);
  });

  test('an answer that does not fit its field is explained and only that field is asked again', async () => {
    const replies = ['y', 'Ada', '0x2A', '-3', '42', 'not-an-email', 'ada@example.com', 'purple', 'red'];
    const { code, out, err, asked } = await withTerminal(['call', 'echo', 'ask', '{"form": "checked"}', '--elicit', 'ask'], replies);
    assert.equal(code, 0, err);
    assert.deepEqual(asked.slice(1), ['  Name*: ', '  Age*: ', '  Age*: ', '  Age*: ', '  Email (email): ', '  Email (email): ', '  Colour (red, green): ', '  Colour (red, green): ']);
    assert.match(err, /✗ Age: "0x2A" is not a number; try again/, 'a number is read in decimal only');
    assert.match(err, /✗ Age must be at least 0; try again/);
    assert.match(err, /✗ Email must be an email address, like ada@example\.com; try again/);
    assert.match(err, /✗ Colour: choose from red, green; try again/);
    const result = out.slice(out.indexOf('{"action"'));
    assert.deepEqual(JSON.parse(result.trim()), { action: 'accept', content: { name: 'Ada', age: 42, email: 'ada@example.com', colour: 'red' } });
  });

  test('a form asking for a key carries a warning; a URL shows its real domain and is only printed after consent', async () => {
    const secret = await withTerminal(['call', 'echo', 'ask', '{"form": "secret"}', '--elicit', 'ask'], ['d']);
    assert.match(secret.out, /seems to ask for a password or key/);
    assert.match(secret.out, /"action":\s*"decline"/);
    const url = await withTerminal(['call', 'echo', 'ask', '{"form": "url", "message": "Sign in"}', '--elicit', 'ask'], ['y']);
    assert.match(url.out, /domain: {2}xn--exmple-cua\.com {3}← where it really goes/);
    assert.match(url.out, /Open this address in your browser: https:\/\/xn--exmple-cua\.com\/sign-in\?session=42/);
    const declined = await withTerminal(['call', 'echo', 'ask', '{"form": "url"}', '--elicit', 'ask'], ['n']);
    assert.doesNotMatch(declined.out, /Open this address/);
  });

  test("a server's sampling request in a chat is shown, approved, and its reply reviewed before it goes back", async () => {
    const llm = await startFakeAnthropic([{ toolCalls: [{ name: 'echo__sample', input: { prompt: 'say hi' } }] }, { text: 'Hi from the model.' }, { text: 'The server heard back.' }]);
    try {
      const flags = ['--provider', 'anthropic', '--model', 'claude-test', '--base-url', llm.url, '--approve', 'all', '--sampling', 'ask'];
      const { code, out, err, asked } = await withTerminal(['chat', 'use sampling', ...flags], ['y', 'y']);
      assert.equal(code, 0, err);
      assert.match(out, /echo asks to use your model claude-test \(the server gave no model hints; using the default\), up to 100 tokens/);
      assert.match(out, / {2}user: say hi/);
      assert.match(out, /claude-test replied for echo:\n {2}Hi from the model\./);
      assert.deepEqual(asked, ['  Run it? [y] yes, [n] reject: ', '  Send this reply to the server? [y] yes, [n] withhold: ']);
      assert.match(out, /\[→ done: Hi from the model\.\]/);
      assert.match(out, /The server heard back\./);
    } finally {
      await llm.close();
    }
  });

  test('a tool approval says once what the tool declares and once why Atrium asks', async () => {
    const llm = await startFakeAnthropic([{ toolCalls: [{ name: 'echo__add', input: { a: 1, b: 2 } }] }, { text: 'Three.' }]);
    try {
      const flags = ['--provider', 'anthropic', '--model', 'claude-test', '--base-url', llm.url, '--approve', 'ask'];
      const { code, out, err, asked } = await withTerminal(['chat', 'add 1 and 2', ...flags], ['y']);
      assert.equal(code, 0, err);
      assert.match(asked[0] ?? '', /Allow\? \[y\] once/);
      assert.match(out, /echo\/add wants to run with \{"a":1,"b":2\}\n {2}add declares [^\n]*\.\n {2}Atrium asks because every call of a server that is not trusted asks/);
      assert.equal(out.match(/not trusted/g)?.length, 1, `"not trusted" is said once:\n${out}`);
      assert.match(out, /\[→ done: 3\]/);
    } finally {
      await llm.close();
    }
  });

  test('a reply that is none of the answers is said back and asked again, never taken for a no; a word names its answer', async () => {
    const llm = await startFakeAnthropic([{ toolCalls: [{ name: 'echo__add', input: { a: 1, b: 2 } }] }, { text: 'Three.' }]);
    try {
      const flags = ['--provider', 'anthropic', '--model', 'claude-test', '--base-url', llm.url, '--approve', 'ask'];
      const { code, out, err, asked } = await withTerminal(['chat', 'add 1 and 2', ...flags], ['ys', 'Yes']);
      assert.equal(code, 0, err);
      assert.equal(asked.length, 2, 'the slip was asked again');
      assert.match(err, /“ys” is not one of the answers: type y, a, r, n or N, or press Enter for no\./);
      assert.match(out, /\[→ done: 3\]/, '"Yes" allowed the call once');
    } finally {
      await llm.close();
    }
  });

  test('Enter alone is the safe answer: the call is not made', async () => {
    const llm = await startFakeAnthropic([{ toolCalls: [{ name: 'echo__add', input: { a: 1, b: 2 } }] }, { text: 'Not run.' }]);
    try {
      const flags = ['--provider', 'anthropic', '--model', 'claude-test', '--base-url', llm.url, '--approve', 'ask'];
      const { code, out, err, asked } = await withTerminal(['chat', 'add 1 and 2', ...flags], ['']);
      assert.equal(code, 0, err);
      assert.equal(asked.length, 1);
      assert.doesNotMatch(out, /\[→ done: 3\]/);
      assert.match(out, /Not run\./);
    } finally {
      await llm.close();
    }
  });

  test("a slip at a server's question is asked again; \"cancel\" names its answer", async () => {
    const { code, out, err, asked } = await withTerminal(['call', 'echo', 'ask', '{"message": "Who are you?"}', '--elicit', 'ask'], ['yse', 'cancel']);
    assert.equal(code, 0, err);
    assert.equal(asked.length, 2);
    assert.match(err, /“yse” is not one of the answers: type y, d or c, or press Enter for decline\./);
    assert.match(out, /"action":\s*"cancel"/);
  });

  test('two calls of one step are asked once, the second listed, and [s] runs both; what [c] and [a] reach is said before the answer', async () => {
    const llm = await startFakeAnthropic([{ toolCalls: [{ name: 'echo__add', input: { a: 1, b: 2 } }, { name: 'echo__echo', input: { text: 'hi' } }] }, { text: 'Both.' }]);
    try {
      const flags = ['--provider', 'anthropic', '--model', 'claude-test', '--base-url', llm.url, '--approve', 'ask'];
      const { code, out, err, asked } = await withTerminal(['chat', 'add and echo', ...flags], ['s']);
      assert.equal(code, 0, err);
      // add's result is an untrusted server's text, after which it asks again: [c] would be no more than once, so it is not offered.
      assert.deepEqual(asked, ['  Allow? [y] once, [s] these 2 calls, [a] always, [r] its 1 read-only tool always, [n] no, [S] none of the 2, [N] never: ']);
      assert.match(out, / {2}The model asks for 1 more call in this step:\n {4}1\. echo\/echo with \{"text":"hi"\}/);
      assert.match(out, / {2}\[a\]: Once a conversation holds content Atrium does not trust, add asks there every time, because it reaches beyond this computer/);
      assert.match(out, /\[→ done: 3\]/);
      assert.match(out, /\[→ done: hi\]/);
    } finally {
      await llm.close();
    }
  });

  test("each field of a server's form is asked with what the server says it is for", async () => {
    const everything = await makeTempDir('atrium-terminal-everything-');
    try {
      await writeFile(join(everything, 'servers.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'] } } }));
      await approveServers(everything);
      const asked: string[] = [];
      let out = '';
      const code = await runCli(['call', 'everything', 'trigger-elicitation-request', '--elicit', 'ask'], {
        out: (text) => (out += `${text}\n`),
        err: () => undefined,
        write: (text) => (out += text),
        env: { ...process.env, ATRIUM_HOME: everything },
        // Fill it in; a name, and every other field left to its default.
        ask: async (question: string) => (asked.push(question), asked.length === 1 ? 'y' : asked.length === 2 ? 'Ada' : ''),
      });
      assert.equal(code, 0, out);
      assert.equal(asked[1], '  String* — Your full, legal name: ');
      assert.equal(asked[2], '  Boolean — Agree to the terms and conditions [y/n]: ');
      assert.match(asked.join('\n'), /Integer — Your favorite integer \(do not give us your phone number, pin, or other sensitive info\) \[default 42\]: /);
      assert.match(out, /Name: Ada/);
    } finally {
      await rm(everything, { recursive: true, force: true });
    }
  });

  test('without a terminal the elicitation is declined and the person is told how to answer up front', async () => {
    const { out, err } = await withTerminal(['call', 'echo', 'ask', '{}', '--elicit', 'ask'], undefined);
    assert.match(err, /echo asked for your input, but there is no terminal to ask on; it was declined \(use --elicit/);
    assert.match(out, /"action":\s*"decline"/);
  });
});

describe('a question on a real terminal', { skip: tmuxAvailable ? false : 'no tmux on this machine' }, () => {
  test('a form left unanswered past the time limit ends the run: the question is taken back and the command exits', { timeout: 150_000 }, async () => {
    const home = await makeTempDir('atrium-terminal-limit-');
    let terminal: TerminalSession | undefined;
    try {
      await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: fixtureCommand('echoServer') } }));
      await approveServers(home);
      terminal = await openTerminal(
        ['env', `ATRIUM_HOME=${shellQuote(home)}`, shellQuote(process.execPath), shellQuote(atriumCliPath), 'call', 'echo', 'ask', shellQuote('{"message": "Who?"}'), '--elicit', 'ask', '--timeout', '3000'].join(' '),
      );
      await terminal.waitFor(/Answer\? \[y\] fill in/);
      await terminal.type('y');
      await terminal.waitFor(/Name\*: /);
      const pane = await terminal.waitFor(/exited with \d+/, 60_000);
      assert.match(pane, /no answer within the time limit/);
      assert.match(pane, /exited with 1/);
      assert.doesNotMatch(pane, /\n\s+at /);
    } finally {
      await terminal?.close();
      await rm(home, { recursive: true, force: true });
    }
  });
});
