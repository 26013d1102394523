// `atrium chat` and `atrium history` as a person runs them: real processes, the real provider SDKs
// against a scripted fake LLM server, real MCP servers, and the SQLite file on disk.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { FakeLlmServer, FakeTurn } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { atriumCliPath, runAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { openDatabase } from '../store/database.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';

const key = 'sk-ant-test-key-never-logged';

const atrium = (home: string, args: string[]) => runAtriumCli(home, args, { ANTHROPIC_API_KEY: key });

describe('atrium chat', () => {
  let home: string;
  let llm: FakeLlmServer;
  const script: FakeTurn[] = [];
  before(async () => {
    home = await makeTempDir('atrium-chat-');
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { echo: { ...fixtureCommand('echoServer'), trusted: true } } }));
    await approveServers(home);
    llm = await startFakeAnthropic(script);
  });
  after(async () => {
    await llm.close();
    await rm(home, { recursive: true, force: true });
  });
  const flags = () => ['--provider', 'anthropic', '--model', 'claude-test', '--base-url', llm.url];

  test('the reply streams to stdout with the tool call it made; the key is sent to the provider and nowhere else', async () => {
    script.push({ toolCalls: [{ name: 'echo__add', input: { a: 2, b: 3 } }] }, { text: 'Two and three make five.' });
    const { code, stdout, stderr } = await atrium(home, ['chat', 'add 2 and 3', ...flags()]);
    assert.equal(code, 0, stderr);
    assert.match(stdout, /\[tool echo\/add \{"a":2,"b":3\}\]\n\[→ done: 5\]\nTwo and three make five\./);
    assert.match(stderr, /atrium: conversation [0-9a-f-]{36} \(20 tokens in, 10 out\)/);
    const sent = Object.values(llm.requests.filter((r) => r.method === 'POST').at(-1)?.headers ?? {});
    assert.ok(sent.some((value) => value.includes(key)), 'the key went to the provider in a header');
    assert.doesNotMatch(stdout + stderr, new RegExp(key));
  });

  test('without a terminal, a call that needs approval is denied and the person is told how to decide up front', async () => {
    script.push({ toolCalls: [{ name: 'echo__env', input: { name: 'HOME' } }] }, { text: 'I could not.' });
    const { code, stdout, stderr } = await atrium(home, ['chat', 'read HOME', ...flags()]);
    assert.equal(code, 0, stderr);
    assert.match(stderr, /echo\/env needs your approval, but there is no terminal to ask on; it was not run \(use --approve/);
    assert.match(stdout, /\[→ denied/);
  });

  test('--approve none denies every call; history lists the conversations and exports one', async () => {
    script.push({ toolCalls: [{ name: 'echo__add', input: { a: 1, b: 1 } }] }, { text: 'Denied, fine.' });
    const chat = await atrium(home, ['chat', 'add 1 and 1', '--approve', 'none', ...flags()]);
    assert.match(chat.stdout, /\[→ denied/);
    const id = /conversation ([0-9a-f-]{36})/.exec(chat.stderr)?.[1] ?? '';
    const list = await atrium(home, ['history']);
    assert.equal(list.stdout.trim().split('\n').length, 3);
    const found = await atrium(home, ['history', '--search', 'DENIED, fine']);
    assert.equal(found.code, 0, found.stderr);
    // When, written as the export writes it.
    assert.match(found.stdout, new RegExp(`^${id}  \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC  add 1 and 1\n    Denied, fine\\.\n$`), 'the conversation, and where its messages say it');
    const none = await atrium(home, ['history', '--search', 'quokka']);
    assert.equal(none.stdout, 'No conversations match “quokka”.\n');
    const exported = await atrium(home, ['history', 'export', id]);
    assert.match(exported.stdout, /add 1 and 1/);
    assert.match(exported.stdout, /Denied, fine\./);
    const json = JSON.parse((await atrium(home, ['history', 'export', id, '--format', 'json'])).stdout) as { toolCalls: { status: string }[] };
    assert.equal(json.toolCalls[0]?.status, 'denied');
  });

  test('--conversation continues a conversation: the model sees the earlier turns', async () => {
    script.push({ text: 'First answer.' });
    const first = await atrium(home, ['chat', 'remember the word teal', ...flags()]);
    const id = /conversation ([0-9a-f-]{36})/.exec(first.stderr)?.[1] ?? '';
    script.push({ text: 'You said teal.' });
    const second = await atrium(home, ['chat', 'what word?', '--conversation', id, ...flags()]);
    assert.match(second.stdout, /You said teal\./);
    assert.match(JSON.stringify(llm.requests.at(-1)?.body), /remember the word teal.*First answer\..*what word\?/);
  });

  test('a turn the provider refuses (a wrong key) ends in one line saying so and exit code 1, never a stack', async () => {
    script.push({ error: { status: 401, message: 'invalid x-api-key' } });
    const { code, stdout, stderr } = await atrium(home, ['chat', ...flags(), 'hello?']);
    assert.equal(code, 1, stdout);
    assert.equal(stdout, '', 'no reply, so nothing on stdout: not even an empty line for a script to read');
    assert.match(stderr, /^atrium: Anthropic provider "anthropic" rejected the API key \(HTTP 401\)/m);
    assert.doesNotMatch(stderr, /\n\s+at /);
    assert.ok(!stderr.includes(key), 'the key is not printed');
    const history = await atrium(home, ['history', '--search', 'hello?']);
    assert.equal(history.stdout, 'No conversations match “hello?”.\n', 'a conversation of nothing but the failed message is not kept');
  });

  test('a turn that fails after the model did something keeps what was done, and says how to go on from it', async () => {
    script.push({ toolCalls: [{ name: 'echo__add', input: { a: 4, b: 4 } }] }, { error: { status: 529, message: 'Overloaded' } });
    const { code, stdout, stderr } = await atrium(home, ['chat', 'add 4 and 4', ...flags()]);
    assert.equal(code, 1, stdout);
    assert.match(stdout, /\[→ done: 8\]/);
    const id = /--conversation ([0-9a-f-]{36}) goes on from it\)$/m.exec(stderr)?.[1];
    assert.ok(id, stderr);
    const history = await atrium(home, ['history', '--search', 'add 4 and 4']);
    assert.match(history.stdout, new RegExp(`^${id} `));
  });

  test('a provider that is not configured is one clear line, before any server starts', async () => {
    const { code, stderr } = await atrium(home, ['chat', 'hi']);
    assert.equal(code, 1);
    assert.match(stderr, /^atrium: no LLM provider is configured/m);
  });
});

describe('a provider with no model named', () => {
  test('atrium chat uses the first model its API lists, as the window does; when none can be listed it says why', async () => {
    const home = await makeTempDir('atrium-modelless-');
    const script: FakeTurn[] = [{ text: 'Hello from the listed model.' }];
    const llm = await startFakeAnthropic(script, { models: ['claude-listed-first', 'claude-listed-second'] });
    try {
      await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: {} }));
      await writeFile(join(home, 'providers.json'), JSON.stringify({ providers: [{ id: 'work', kind: 'anthropic', baseUrl: llm.url, apiKeySecret: 'anthropic' }] }));
      const configured = await atrium(home, ['chat', 'hi']);
      assert.equal(configured.code, 0, configured.stderr);
      assert.match(configured.stdout, /Hello from the listed model\./);
      const sent = llm.requests.filter((r) => r.method === 'POST').at(-1)?.body as { model?: string } | undefined;
      assert.equal(sent?.model, 'claude-listed-first');

      // Named on the command line only: the same, through its base URL.
      script.push({ text: 'Ad hoc reply.' });
      const adHoc = await atrium(home, ['chat', 'hi', '--provider', 'anthropic', '--base-url', llm.url]);
      assert.equal(adHoc.code, 0, adHoc.stderr);
      assert.equal((llm.requests.filter((r) => r.method === 'POST').at(-1)?.body as { model?: string }).model, 'claude-listed-first');

      // Nothing answers at the address: no model can be listed, and the person is told what to do.
      const unreachable = await atrium(home, ['chat', 'hi', '--provider', 'anthropic', '--base-url', 'http://127.0.0.1:9/']);
      assert.equal(unreachable.code, 1);
      assert.match(unreachable.stderr, /^atrium: no model chosen for provider "anthropic": its models could not be listed .*pass --model/m);
      assert.doesNotMatch(unreachable.stderr, /\n\s+at /);
    } finally {
      await llm.close();
      await rm(home, { recursive: true, force: true });
    }
  });
});

describe('kill -9 during a streamed reply', () => {
  test('the file stays intact and the message the person sent is there; the cut reply is marked incomplete', async () => {
    const home = await makeTempDir('atrium-kill-');
    const llm = await startFakeAnthropic([{ hang: true, text: 'Partial reply that never ends' }]);
    try {
      await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: {} }));
      const child = spawn(process.execPath, [atriumCliPath, 'chat', 'please write a long essay', '--provider', 'anthropic', '--model', 'm', '--base-url', llm.url], {
        env: { ...process.env, ATRIUM_HOME: home, ANTHROPIC_API_KEY: key },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // Killed as soon as the streamed text reaches the terminal.
      await new Promise<void>((resolve) => {
        child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('Partial') && resolve());
      });
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;

      const db = openDatabase(join(home, 'atrium.db'), []);
      assert.deepEqual({ ...db.prepare('PRAGMA integrity_check').get() }, { integrity_check: 'ok' });
      const messages = db.prepare('SELECT role, content, status FROM messages ORDER BY seq').all() as { role: string; content: string; status: string }[];
      db.close();
      assert.equal(messages[0]?.role, 'user');
      assert.match(messages[0]?.content ?? '', /please write a long essay/);
      assert.equal(messages[1]?.status, 'streaming');

      const history = await atrium(home, ['history', '--json']);
      const [conversation] = JSON.parse(history.stdout) as { id: string }[];
      const exported = JSON.parse((await atrium(home, ['history', 'export', conversation?.id ?? '', '--format', 'json'])).stdout) as { messages: { status: string }[] };
      assert.equal(exported.messages[1]?.status, 'incomplete', 'the next start marks the cut reply incomplete');
    } finally {
      await llm.close();
      await rm(home, { recursive: true, force: true });
    }
  });
});
