// `atrium call` on a tool that runs as a task (MCP Tasks), as a person runs it: the real CLI process
// against server-everything's task tools waits for each result, says the task's status on stderr and
// answers its questions from --elicit; Ctrl+C sends tasks/cancel before the command ends. `atrium chat`
// says the status of the task its turn started and waits for it.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { atriumCliPath, runAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';
import { everythingServerPath, makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { startFakeAnthropic } from '../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import type { HttpFixtureHandle } from '../../e2e/servers/launch.ts';
import { startHttpFixture } from '../../e2e/servers/launch.ts';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function homeWith(servers: Record<string, unknown>, providers?: Record<string, unknown>): Promise<string> {
  const home = await makeTempDir('atrium-tasks-cli-');
  cleanups.push(() => rm(home, { recursive: true, force: true }));
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: servers }));
  if (providers) await writeFile(join(home, 'providers.json'), JSON.stringify(providers));
  await approveServers(home);
  return home;
}

const everything = { command: process.execPath, args: [everythingServerPath(), 'stdio'], trusted: true };

describe('atrium call on a task tool', () => {
  test("server-everything's four task tools complete through `atrium call`: each waits for its result, says the task's status on stderr, answers from --elicit", async () => {
    const llm = await startFakeAnthropic([{ text: 'a sampled reply' }]);
    cleanups.push(() => llm.close());
    const home = await homeWith({ everything }, { providers: [{ id: 'fake', kind: 'anthropic', baseUrl: llm.url, apiKeySecret: 'fake' }], default: { provider: 'fake', model: 'test-model' } });
    const env = { ATRIUM_SECRET_FAKE: 'sk-test-key-not-real' };

    const plain = await runAtriumCli(home, ['call', 'everything', 'simulate-research-query', '{"topic":"tides"}'], env);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stdout, /Research Report: tides/);
    assert.match(plain.stderr, /^atrium: task everything\/simulate-research-query \(\w+\): working — Gathering sources\.\.\.$/m);
    assert.match(plain.stderr, /^atrium: task everything\/simulate-research-query \(\w+\): completed$/m);

    const ambiguous = await runAtriumCli(home, ['call', 'everything', 'simulate-research-query', '{"topic":"python","ambiguous":true}', '--elicit', 'accept:{"interpretation":"snake"}'], env);
    assert.equal(ambiguous.code, 0, ambiguous.stderr);
    assert.match(ambiguous.stdout, /Research Report: python \(snake\)/);
    assert.match(ambiguous.stderr, /needs your answer — Found multiple interpretations/);

    const sampling = await runAtriumCli(home, ['call', 'everything', 'trigger-sampling-request-async', '{"prompt":"hello"}', '--sampling', 'approve'], env);
    assert.equal(sampling.code, 0, sampling.stderr);
    assert.match(sampling.stdout, /Async sampling completed[\s\S]*a sampled reply/);

    const elicitation = await runAtriumCli(home, ['call', 'everything', 'trigger-elicitation-request-async', '--elicit', 'accept:{"name":"Ada"}'], env);
    assert.equal(elicitation.code, 0, elicitation.stderr);
    assert.match(elicitation.stdout, /Name: Ada/);
  });

  test('Ctrl+C sends tasks/cancel for the running task before the command ends', async () => {
    const server: HttpFixtureHandle = await startHttpFixture('taskServer');
    cleanups.push(() => server.stop());
    const home = await homeWith({ tasks: { url: server.url } });
    const child = spawn(process.execPath, [atriumCliPath, 'call', 'tasks', 'cancel_task'], { env: { ...process.env, ATRIUM_HOME: home }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    const created = await server.waitForStderr(/^request tasks\/get (\S+)/);
    child.kill('SIGINT');
    const code = await exited;
    const taskId = /tasks\/get (\S+)/.exec(created)?.[1] ?? '';
    await server.waitForStderr(new RegExp(`^request tasks/cancel ${taskId} `));
    assert.notEqual(code, 0);
    assert.match(stderr, new RegExp(`^atrium: cancelled task ${taskId} of tasks/cancel_task$`, 'm'));
    assert.doesNotMatch(server.stderr(), /notifications\/cancelled/);
  });

  test('`atrium chat` says the status of the task its turn started, waits for it, and says where its result is', async () => {
    const server: HttpFixtureHandle = await startHttpFixture('taskServer');
    cleanups.push(() => server.stop());
    const llm = await startFakeAnthropic([{ toolCalls: [{ name: 'tasks__slow_task', input: { seconds: 1, pollMs: 200, label: 'count' } }] }, { text: 'It runs as a task.' }]);
    cleanups.push(() => llm.close());
    const home = await homeWith({ tasks: { url: server.url } }, { providers: [{ id: 'fake', kind: 'anthropic', baseUrl: llm.url, apiKeySecret: 'fake' }], default: { provider: 'fake', model: 'test-model' } });
    const chat = await runAtriumCli(home, ['chat', 'count', '--approve', 'all'], { ATRIUM_SECRET_FAKE: 'sk-test-key-not-real' });
    assert.equal(chat.code, 0, chat.stderr);
    assert.match(chat.stdout, /\[→ task: runs as a task on tasks\]/);
    assert.match(chat.stderr, /^atrium: task tasks\/slow_task \(\S+\): working — second 1 of 1$/m);
    assert.match(chat.stderr, /^atrium: task tasks\/slow_task \(\S+\): completed$/m);
    assert.match(chat.stderr, /the model reads them with your next message: atrium chat "…" --conversation \S+$/m);
    const conversation = /--conversation (\S+)$/m.exec(chat.stderr)?.[1] ?? '';
    const exported = await runAtriumCli(home, ['history', 'export', conversation, '--format', 'markdown']);
    assert.match(exported.stdout, /count done after 1 s/);
  });
});
