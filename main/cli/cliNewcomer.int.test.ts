// What a newcomer meets with the CLI in a fresh data folder, mistakes included: the real `atrium`
// process, real servers, a scripted fake LLM.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as nodeModule from 'node:module';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, describe, test } from 'node:test';
import { atriumCliPath, runAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { startHostProcess } from '../../e2e/fixtures/hostProcess.ts';
import type { FakeLlmServer, FakeTurn } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { holdStream } from '../../e2e/fixtures/llm/streamHold.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';

const recordImports = fileURLToPath(new URL('../../e2e/fixtures/recordImports.mjs', import.meta.url));
const packageVersion = (JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

describe('atrium as a newcomer uses it', () => {
  let home: string;
  let llm: FakeLlmServer;
  const script: FakeTurn[] = [];
  const chatFlags = () => ['--provider', 'anthropic', '--model', 'claude-test', '--base-url', llm.url];
  before(async () => {
    home = await makeTempDir('atrium-newcomer-');
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: fixtureCommand('echoServer') } }));
    await approveServers(home);
    llm = await startFakeAnthropic(script);
  });
  after(async () => {
    await llm.close();
    await rm(home, { recursive: true, force: true });
  });

  test('--help prints the usage and exits 0 without loading the host; --version prints the version', { skip: 'registerHooks' in nodeModule ? false : 'this Node cannot record imports (module.registerHooks)' }, async () => {
    const imported = join(home, 'imports.txt');
    const help = await runAtriumCli(home, ['--help'], { NODE_OPTIONS: `--import ${recordImports}`, ATRIUM_RECORD_IMPORTS: imported });
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^usage: atrium <command>/);
    assert.equal(help.stderr, '');
    const modules = (await readFile(imported, 'utf8')).split('\n').filter(Boolean);
    assert.ok(modules.some((url) => url.endsWith('/main/cli/cliArgs.ts')), 'the recorder saw the CLI load');
    // An extension's contract part is the ground floor (shared), as light as shared/ itself.
    const groundFloor = (url: string) => url.endsWith('/main/app/atriumVersion.ts') || /\/main\/mcp\/extensions\/[^/]+\/contract\//.test(url);
    const heavy = modules.filter((url) => /node_modules|\/main\/(app|host|mcp|chat|store|api)\//.test(url) && !groundFloor(url));
    assert.deepEqual(heavy, [], 'nothing of the host, its servers or the SDKs is loaded for --help');

    assert.equal((await runAtriumCli(home, ['tools', '-h'])).code, 0, '-h after a command is help too');
    const version = await runAtriumCli(home, ['--version']);
    assert.equal(version.code, 0);
    assert.equal(version.stdout, `atrium ${packageVersion}\n`);
  });

  test('a servers file that is not valid JSON stops every command with exit 1, the line and column of the mistake, and the file left where it is', async () => {
    const broken = await makeTempDir('atrium-broken-');
    try {
      // A comma left after the last entry: the mistake is on line 2, not on the "}" of line 3.
      const text = '{"mcpServers": {\n  "echo": {"command": "node"},\n}}\n';
      await writeFile(join(broken, 'servers.json'), text);
      script.push({ text: 'This reply must not be asked for.' });
      for (const args of [['servers'], ['tools'], ['history'], ['chat', 'hi', ...chatFlags()]]) {
        const run = await runAtriumCli(broken, args, { ANTHROPIC_API_KEY: 'sk-ant-test' });
        assert.equal(run.code, 1, `atrium ${args[0]} stops:\n${run.stdout}\n${run.stderr}`);
        assert.match(run.stderr, /^atrium: servers\.json could not be read: line 2, column 30: a comma with nothing after it \(remove it\)\.$/m);
        assert.ok(run.stderr.includes(`Fix it in ${join(broken, 'servers.json')}, then run the command again.`), run.stderr);
        assert.doesNotMatch(run.stdout, /No servers configured|This reply/, `atrium ${args[0]} did not carry on without the file`);
        assert.doesNotMatch(run.stderr, /\n\s+at /);
      }
      assert.deepEqual(await readdir(broken), ['servers.json'], 'nothing is set aside, and no copy or temporary file is made');
      assert.equal(await readFile(join(broken, 'servers.json'), 'utf8'), text, 'the file is as the person left it');
      script.length = 0;
    } finally {
      await rm(broken, { recursive: true, force: true });
    }
  });

  test('a servers file whose every entry has a mistake names each, field by field in plain words, and stops with exit 1', async () => {
    const mistaken = await makeTempDir('atrium-mistaken-');
    try {
      const servers = {
        files: { command: 'npx', args: '-y @modelcontextprotocol/server-filesystem /tmp' },
        weather: { url: 'https://example.com/mcp', requestTimeoutMs: '30s' },
        empty: { command: '' },
      };
      await writeFile(join(mistaken, 'servers.json'), JSON.stringify({ mcpServers: servers }, null, 2));
      for (const args of [['servers'], ['tools']]) {
        const run = await runAtriumCli(mistaken, args);
        assert.equal(run.code, 1, `atrium ${args[0]} stops:\n${run.stdout}\n${run.stderr}`);
        assert.match(run.stderr, /^atrium: server "files": "args" must be a list \(\[…\]\)$/m);
        assert.match(run.stderr, /^atrium: server "weather": "requestTimeoutMs" must be a whole number$/m);
        assert.match(run.stderr, /^atrium: server "empty": "command" must not be empty$/m);
        assert.ok(run.stderr.includes(`none of the servers in ${join(mistaken, 'servers.json')} could be read: fix the entries named above`), run.stderr);
        assert.doesNotMatch(`${run.stdout}${run.stderr}`, /No servers configured|must NOT|must be (array|integer|string)/);
      }
    } finally {
      await rm(mistaken, { recursive: true, force: true });
    }
  });

  test('while the window host runs on the data folder, commands that start servers or change its workspaces say where it runs and do nothing', async () => {
    const running = await startHostProcess({ mcpServers: {} });
    try {
      const { home: windowHome, url } = running.host;
      const origin = new URL(url).origin;
      const { code, stdout, stderr } = await runAtriumCli(windowHome, ['tools']);
      assert.equal(code, 1, stderr);
      assert.equal(stdout, '');
      assert.match(stderr, new RegExp(`^atrium: Atrium already runs on the data folder ${windowHome} at ${origin}/ \\(process \\d+\\)\\.$`, 'm'));
      assert.doesNotMatch(stderr, /token=/, 'the token stays in the window host\'s terminal');
      const history = await runAtriumCli(windowHome, ['history']);
      assert.equal(history.code, 0, `reading the history starts no server, so it is allowed: ${history.stderr}`);
      // The active workspace is the running host's: changed here, the window would say one thing and its servers see another.
      const use = await runAtriumCli(windowHome, ['workspaces', 'set', 'client', windowHome]);
      assert.equal(use.code, 1, use.stderr);
      assert.match(use.stderr, /^atrium: Atrium already runs on the data folder /m);
      assert.match(use.stderr, /Its Roots view makes, changes and picks workspaces/);
      const listed = await runAtriumCli(windowHome, ['workspaces']);
      assert.equal(listed.code, 0, `listing them changes nothing, so it is allowed: ${listed.stderr}`);
      assert.doesNotMatch(listed.stdout, /client/, 'nothing was made');
    } finally {
      await running.stop();
    }
  });

  test('call checks the arguments against the tool input schema before the server sees them', async () => {
    const { code, stdout, stderr } = await runAtriumCli(home, ['call', 'echo', 'add', '{"a": "x", "b": 1}']);
    assert.equal(code, 1);
    assert.equal(stdout, '');
    assert.match(stderr, /^atrium: echo: tool "add" cannot take these arguments:\n {2}✗ a must be a number, not "x"$/m);
    assert.doesNotMatch(stderr, /MCP error|-32602|\n\s+at /, 'the server never saw the call');
    const fine = await runAtriumCli(home, ['call', 'echo', 'add', '{"a": 2, "b": 1}']);
    assert.match(fine.stdout, /^3$/m);
  });

  test('--provider openai without a key names OPENAI_API_KEY', async () => {
    const env = { OPENAI_API_KEY: '', ATRIUM_SECRET_OPENAI: '' };
    const { code, stderr } = await runAtriumCli(home, ['chat', 'hi', '--provider', 'openai', '--model', 'gpt-test'], env);
    assert.equal(code, 1);
    assert.match(stderr, /OPENAI_API_KEY/);
    assert.doesNotMatch(stderr, /\n\s+at /);
  });

  test('without a terminal the model is told no one could be asked, and the denial is on its own line', async () => {
    script.push({ text: 'Let me look.', toolCalls: [{ name: 'echo__env', input: { name: 'HOME' } }] }, { text: 'I could not read it.' });
    const { code, stdout, stderr } = await runAtriumCli(home, ['chat', 'read HOME', ...chatFlags()], { ANTHROPIC_API_KEY: 'sk-ant-test' });
    assert.equal(code, 0, stderr);
    assert.match(stderr, /echo\/env needs your approval, but there is no terminal to ask on/);
    assert.match(stdout, /^Let me look\.\n\[→ denied[^\n]*\]\nI could not read it\.$/m);
    const toModel = JSON.stringify(llm.requests.filter((r) => r.method === 'POST').at(-1)?.body);
    assert.doesNotMatch(toModel, /denied by the person|The person did not allow/);
    assert.match(toModel, /no one could be asked/);
  });

  test('a reader that stops early (atrium chat … | head) ends the run quietly', async () => {
    const longReply = Array.from({ length: 400 }, (_, n) => `line ${n}`).join('\n');
    // The reply pauses after its first line until the reader has gone.
    const hold = holdStream('line 0\n');
    script.push({ text: longReply, hold });
    const child = spawn(process.execPath, [atriumCliPath, 'chat', 'count to 400', ...chatFlags()], {
      env: { ...process.env, ATRIUM_HOME: home, ANTHROPIC_API_KEY: 'sk-ant-test' },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 60_000,
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    // Like `head -1`: read until the first line, then close the pipe.
    await new Promise<void>((resolve) => {
      let seen = '';
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        seen += chunk;
        if (seen.includes('\n')) {
          child.stdout.destroy();
          hold.release();
          resolve();
        }
      });
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', (exitCode) => resolve(exitCode)));
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stderr, /EPIPE|\n\s+at /);
  });
});
