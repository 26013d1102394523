// A local model and three real servers' tools (server-everything, the filesystem server and the echo
// server: about 40), as a person chats with them from the command line: the tools are sent whole unless
// they would take more than a quarter of the model's context — as the model's server reports it, when it
// does — and when the model gets the tool search instead, the chat says so, with the numbers.

import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';
import { everythingServerPath, filesystemServerPath, makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import type { FakeLlmServer } from '../../e2e/fixtures/llm/fakeOpenAiServer.ts';
import { startFakeOpenAi } from '../../e2e/fixtures/llm/fakeOpenAiServer.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';

describe('a chat with a local model and three servers’ tools', () => {
  let home: string;
  let files: string;
  let toolCount: number;
  const llms: FakeLlmServer[] = [];

  before(async () => {
    home = await makeTempDir('atrium-many-tools-');
    files = await makeTempDir('atrium-many-tools-files-');
    const servers = {
      everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'] },
      files: { command: process.execPath, args: [filesystemServerPath(), files] },
      echo: fixtureCommand('echoServer'),
    };
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: servers }));
    await approveServers(home);
    const listed = await runAtriumCli(home, ['tools', '--json']);
    toolCount = (JSON.parse(listed.stdout) as unknown[]).length;
    assert.ok(toolCount >= 35, `the three servers offer ${toolCount} tools`);
  });
  after(async () => {
    for (const llm of llms) await llm.close();
    await rm(home, { recursive: true, force: true });
    await rm(files, { recursive: true, force: true });
  });

  /** One `atrium chat` turn against a local server that answers `routes` besides the chat; the tools the model was sent, and what the terminal showed. */
  async function chat(routes: Record<string, unknown>): Promise<{ sent: string[]; stderr: string }> {
    const llm = await startFakeOpenAi([{ text: 'Hello.' }], { models: ['local-model'], routes });
    llms.push(llm);
    const { code, stderr } = await runAtriumCli(home, ['chat', 'hi', '--provider', 'openai-compatible', '--base-url', llm.url, '--model', 'local-model', '--approve', 'none']);
    assert.equal(code, 0, stderr);
    const turn = llm.requests.find((request) => request.method === 'POST' && request.path.startsWith('/v1/chat/completions'));
    const tools = ((turn?.body as { tools?: { function: { name: string } }[] } | undefined)?.tools ?? []).map((tool) => tool.function.name);
    return { sent: tools, stderr };
  }

  test('a server that says nothing of its context: the model gets every tool, and no search', async () => {
    const { sent, stderr } = await chat({});
    assert.equal(sent.length, toolCount, `sent: ${sent.join(', ')}`);
    assert.ok(!sent.includes('atrium_search_tools'));
    assert.doesNotMatch(stderr, /search tool/);
  });

  test('a server that reports a large enough context: every tool', async () => {
    const { sent } = await chat({ 'GET /api/ps': { models: [{ name: 'local-model', model: 'local-model', context_length: 32768 }] } });
    assert.equal(sent.length, toolCount);
  });

  test('a model loaded with a small context searches for its tools, and the chat says why, with the numbers', async () => {
    const { sent, stderr } = await chat({ 'POST /api/show': { parameters: 'num_ctx 8192' } });
    assert.deepEqual(sent, ['atrium_search_tools']);
    assert.match(
      stderr,
      new RegExp(`^atrium: the ${toolCount} tools' definitions \\(about [\\d,]+ tokens\\) would take more than a quarter of the model's context \\(8,192 tokens, as its server reports\\); the model gets a search tool and loads what it needs$`, 'm'),
    );
  });
});
