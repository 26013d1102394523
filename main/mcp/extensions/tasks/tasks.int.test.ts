// MCP Tasks end to end, against real servers: server-everything's task tools (2025-11-25 experimental
// tasks, SEP-1686), and the task fixture over Streamable HTTP (the 2026-07-28 tasks extension, SEP-2663)
// with the checks of the conformance project's draft client scenario; a model's call that becomes a task
// ends its turn, and its result reaches the conversation and the model's next request; a task's question
// is asked once, in its conversation, named; Cancel is tasks/cancel; a restart follows a remote task again.

import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { after, describe, test } from 'node:test';
import type { PendingRequestView } from '../../../../shared/pendingPayloads.ts';
import type { TaskView } from '../../../../shared/contract.ts';
import type { FakeLlmServer, FakeTurn } from '../../../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import { startFakeAnthropic } from '../../../../e2e/fixtures/llm/fakeAnthropicServer.ts';
import type { TestHost } from '../../../../e2e/fixtures/hostHarness.ts';
import { everythingServerPath, makeTempDir, nextEvent, scriptedModelOptions, startTestHost } from '../../../../e2e/fixtures/hostHarness.ts';
import { approveServers } from '../../../../e2e/fixtures/approvedServers.ts';
import type { HttpFixtureHandle } from '../../../../e2e/servers/launch.ts';
import { startHttpFixture } from '../../../../e2e/servers/launch.ts';
import { startHostCore } from '../../../app/hostCore.ts';
import type { HostCoreOptions } from '../../../app/hostCore.ts';

const cleanups: (() => Promise<void>)[] = [];
after(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

const everything = { command: process.execPath, args: [everythingServerPath(), 'stdio'] };
const textOf = (result: { content?: unknown }) => ((result.content as { text?: string }[] | undefined) ?? []).map((c) => c.text ?? '').join('\n');

async function taskServer(args: string[] = []): Promise<HttpFixtureHandle> {
  const server = await startHttpFixture('taskServer', args);
  cleanups.push(() => server.stop());
  return server;
}

interface Observations {
  seen: { at: number; method: string; taskId?: string; mcpName?: string }[];
  pollGaps: { taskId: string; gapMs: number; askedMs: number }[];
  checks: { id: string; status: string; errorMessage?: string }[];
}

async function observations(server: HttpFixtureHandle): Promise<Observations> {
  return (await (await fetch(server.url.replace(/\/mcp$/, '/observations'))).json()) as Observations;
}

async function host(servers: Record<string, unknown>, options: Partial<HostCoreOptions> = {}): Promise<TestHost> {
  const started = await startTestHost(servers, options);
  cleanups.push(() => started.close());
  await started.core.hub.whenSettled();
  return started;
}

/** A host whose provider is a scripted fake model, with tool calls allowed without asking. */
async function chatHost(script: FakeTurn[], servers: Record<string, unknown>, options: Partial<HostCoreOptions> = {}): Promise<{ host: TestHost; llm: FakeLlmServer }> {
  const llm = await startFakeAnthropic(script);
  cleanups.push(() => llm.close());
  const started = await host(servers, {
    approvalMode: 'all',
    ...scriptedModelOptions(llm.url),
    ...options,
  });
  return { host: started, llm };
}

/** The next time a task of `host` ends. */
const taskEnds = (testHost: TestHost, match: (task: TaskView) => boolean = () => true) => nextEvent(testHost.core, 'taskChanged', (task) => task.endedAt !== undefined && match(task));

const modelRequests = (llm: FakeLlmServer) => llm.requests.filter((request) => request.method === 'POST').map((request) => JSON.stringify(request.body));

describe('MCP Tasks', () => {
  test("SEP-2663 (the tasks extension, 2026-07-28) over Streamable HTTP: every check of the conformance project's draft client scenario holds", async () => {
    const server = await taskServer(['--task-on-unsupported']);
    const { core } = await host({ tasks: { url: server.url } });
    const { api } = core;
    assert.equal(textOf(await api.callTool({ serverId: 'tasks', tool: 'quick_task' })), 'quick-task-result');
    assert.equal(textOf(await api.callTool({ serverId: 'tasks', tool: 'sync_echo', arguments: { text: 'sync-ok' } })), 'echo: sync-ok');
    await assert.rejects(api.callTool({ serverId: 'tasks', tool: 'failing_task' }), /failing_task always fails/);
    const cancelled = assert.rejects(api.callTool({ serverId: 'tasks', tool: 'cancel_task' }), /the task was cancelled/);
    const running = await nextEvent(core, 'taskChanged', (task) => task.tool === 'cancel_task' && task.status === 'working');
    await api.cancelTask({ key: running.key });
    await cancelled;
    // A request that cannot be a task, answered with one, is refused: the 2026-07-28 revision has no ping,
    // so the fixture answers resources/read with a task (as the scenario answers ping).
    await assert.rejects(api.readResource({ serverId: 'tasks', uri: 'fixture://note' }), /Unsupported result type 'task'/);
    const { checks, seen } = await observations(server);
    assert.deepEqual(
      checks.filter((check) => check.status !== 'SUCCESS'),
      [],
      'every check passes',
    );
    assert.equal(checks.length, 8);
    assert.ok(seen.some((s) => s.method === 'tasks/cancel'), 'the task was cancelled with tasks/cancel');
  });

  test("the conformance client acts out the draft scenario (tasks-client-lifecycle) and the fixture's 8 checks hold", async () => {
    const server = await taskServer(['--task-on-unsupported']);
    const client = fileURLToPath(new URL('../../../../conformance/conformanceClient.ts', import.meta.url));
    await promisify(execFile)(process.execPath, [client, server.url], { env: { ...process.env, MCP_CONFORMANCE_SCENARIO: 'tasks-client-lifecycle' }, timeout: 60_000 });
    const { checks } = await observations(server);
    assert.deepEqual(
      checks.map((check) => [check.id, check.status]),
      [
        ['tasks-client-extension-declared', 'SUCCESS'],
        ['sep-2663-client-handles-polymorphic-result', 'SUCCESS'],
        ['sep-2663-client-emits-mcp-name-on-tasks-methods', 'SUCCESS'],
        ['sep-2663-client-honors-poll-interval', 'SUCCESS'],
        ['tasks-client-terminal-failed-surfaced', 'SUCCESS'],
        ['tasks-client-cancel-flow-completed', 'SUCCESS'],
        ['sep-2663-cancel-not-via-cancelled-notification', 'SUCCESS'],
        ['sep-2663-client-rejects-task-result-on-unsupported', 'SUCCESS'],
      ],
    );
  });

  test('a 2026-07-28 server is not pinged (its revision has no ping), so keep-alive never restarts a healthy server', async () => {
    const server = await taskServer();
    const { core } = await host({ tasks: { url: server.url } }, { keepAliveMs: 100 });
    await assert.rejects(nextEvent(core, 'log', (line) => /keep-alive/.test(line.text), 1_500), /no matching "log" event/);
    const [snapshot] = await core.api.listServers({});
    assert.equal(snapshot?.status.kind, 'ready');
  });

  test("server-everything's task tools (2025-11-25 experimental tasks) complete for the person's own call, the way `atrium call` makes it", async () => {
    const asked: string[] = [];
    const { core } = await host(
      { everything },
      {
        elicitation: {
          elicit: async ({ params }) => {
            asked.push(params.message);
            const properties = (params as { requestedSchema?: { properties?: Record<string, unknown> } }).requestedSchema?.properties ?? {};
            const content: Record<string, string> = 'interpretation' in properties ? { interpretation: 'snake' } : { name: 'Ada' };
            return { action: 'accept', content };
          },
        },
        sampling: { createMessage: async () => ({ role: 'assistant', content: { type: 'text', text: 'a sampled reply' }, model: 'fake' }) },
      },
    );
    const { api } = core;
    assert.match(textOf(await api.callTool({ serverId: 'everything', tool: 'simulate-research-query', arguments: { topic: 'tides' } })), /Research Report: tides/);
    assert.match(textOf(await api.callTool({ serverId: 'everything', tool: 'simulate-research-query', arguments: { topic: 'python', ambiguous: true } })), /Research Report: python \(snake\)/);
    assert.match(textOf(await api.callTool({ serverId: 'everything', tool: 'trigger-sampling-request-async', arguments: { prompt: 'hello' } })), /COMPLETED.*[\s\S]*a sampled reply/);
    assert.match(textOf(await api.callTool({ serverId: 'everything', tool: 'trigger-elicitation-request-async' })), /Name: Ada/);
    assert.equal(asked.length, 2, 'each question was asked once');
  });

  test("a model's call that becomes a task ends its turn at once; a second message is answered while it runs; its result lands in the conversation and reaches the model's next request", async () => {
    const server = await taskServer();
    const { host: testHost, llm } = await chatHost(
      [
        { toolCalls: [{ name: 'tasks__slow_task', input: { seconds: 2, pollMs: 200, label: 'survey' } }] },
        { text: 'The survey runs as a task.' },
        { text: 'Meanwhile: 2 + 2 is 4.' },
        { text: 'The survey is done.' },
      ],
      { tasks: { url: server.url } },
    );
    const { api } = testHost.core;
    const first = await api.sendMessage({ text: 'run the survey' });
    assert.equal(first.stopReason, 'end_turn');
    const [task] = (await api.listTasks({})).filter((t) => t.conversationId === first.conversationId);
    assert.ok(task && task.endedAt === undefined, 'the turn ended while its task runs');
    assert.match(modelRequests(llm)[1] ?? '', /runs on as a task/);
    const ended = taskEnds(testHost, (t) => t.key === task.key);
    const second = await api.sendMessage({ conversationId: first.conversationId, text: 'what is 2 + 2?' });
    assert.equal(second.stopReason, 'end_turn');
    assert.equal((await api.listTasks({})).find((t) => t.key === task.key)?.endedAt, undefined, 'the second message was answered while the task ran');
    assert.equal((await ended).status, 'completed');
    const { messages, toolCalls } = await api.getConversation({ conversationId: first.conversationId });
    assert.deepEqual(
      toolCalls.map((call) => [call.tool, call.status]),
      [['slow_task', 'done']],
    );
    assert.match(JSON.stringify(toolCalls[0]?.result), /survey done after 2 s/);
    const landed = messages.filter((message) => message.origin?.kind === 'task');
    assert.equal(landed.length, 1, 'the result is in the conversation, once');
    await api.sendMessage({ conversationId: first.conversationId, text: 'and the survey?' });
    assert.match(modelRequests(llm)[3] ?? '', /survey done after 2 s/, "the model's next request carries the result");
  });

  test("a model's call whose task fails: its card keeps the server's words alone, and the message for the model carries why, for the window to say", async () => {
    const server = await taskServer();
    const { host: testHost, llm } = await chatHost([{ toolCalls: [{ name: 'tasks__failing_task', input: {} }] }, { text: 'Started the failing one.' }, { text: 'ok' }], { tasks: { url: server.url } });
    const { api } = testHost.core;
    const ended = taskEnds(testHost);
    const { conversationId } = await api.sendMessage({ text: 'run the failing job' });
    assert.equal((await ended).status, 'failed');
    const { messages, toolCalls } = await api.getConversation({ conversationId });
    // The card names the server and the tool: its failure is what the server said, once.
    assert.deepEqual(toolCalls[0]?.result, { error: 'failing_task always fails' });
    const landed = messages.find((message) => message.origin?.kind === 'task');
    assert.equal(landed?.origin?.kind === 'task' ? landed.origin.reason : undefined, 'failing_task always fails');
    await api.sendMessage({ conversationId, text: 'so?' });
    assert.match(modelRequests(llm)[2] ?? '', /The task of your call of tasks\/failing_task \(call [^,]+, task [^)]+\) failed: failing_task always fails\. It has no result\./, 'the model is told which call it was');
  });

  test('a task whose result the person lets the model answer at once starts a follow-up step when it ends', async () => {
    const server = await taskServer();
    const { host: testHost, llm } = await chatHost(
      [{ toolCalls: [{ name: 'tasks__slow_task', input: { seconds: 1, pollMs: 100, label: 'scan' } }] }, { text: 'Started.' }, { text: 'The scan finished.' }],
      { tasks: { url: server.url } },
    );
    const { api } = testHost.core;
    const { conversationId } = await api.sendMessage({ text: 'scan' });
    const [task] = await api.listTasks({});
    assert.ok(task);
    await api.setTaskFollowUp({ key: task.key, followUp: true });
    await nextEvent(testHost.core, 'chatEvent', (event) => event.conversationId === conversationId && event.event.type === 'done');
    assert.match(modelRequests(llm)[2] ?? '', /scan done after 1 s/);
    const { messages } = await api.getConversation({ conversationId });
    assert.match(JSON.stringify(messages.at(-1)), /The scan finished\./);
  });

  test("a task's question is asked once, in its conversation, naming the task; declined, the task still ends cleanly", async () => {
    const { host: testHost } = await chatHost(
      [{ toolCalls: [{ name: 'everything__simulate-research-query', input: { topic: 'python', ambiguous: true } }] }, { text: 'Researching.' }],
      { everything },
    );
    const asked: PendingRequestView[] = [];
    testHost.core.events.on('pendingOpened', (record) => {
      asked.push(record);
      void testHost.core.api.respondPending({ id: record.id, outcome: { action: 'decline' } });
    });
    const ended = taskEnds(testHost);
    const { conversationId } = await testHost.core.api.sendMessage({ text: 'research python' });
    const task = await ended;
    assert.equal(task.status, 'completed');
    assert.equal(asked.length, 1, 'asked once');
    assert.equal(asked[0]?.kind, 'elicitation');
    assert.equal(asked[0]?.conversationId, conversationId);
    assert.deepEqual(asked[0]?.task, { taskId: task.taskId, tool: 'simulate-research-query' });
    const { toolCalls } = await testHost.core.api.getConversation({ conversationId });
    assert.match(JSON.stringify(toolCalls[0]?.result), /User declined - using default interpretation/);
  });

  test('Cancel sends tasks/cancel (never notifications/cancelled); the call is cancelled and the model is told', async () => {
    const server = await taskServer();
    const { host: testHost, llm } = await chatHost(
      [{ toolCalls: [{ name: 'tasks__cancel_task', input: {} }] }, { text: 'It runs.' }, { text: 'ok' }],
      { tasks: { url: server.url } },
    );
    const { api } = testHost.core;
    const { conversationId } = await api.sendMessage({ text: 'start it' });
    const [task] = await api.listTasks({});
    assert.ok(task);
    const ended = taskEnds(testHost);
    await api.cancelTask({ key: task.key });
    assert.equal((await ended).status, 'cancelled');
    const { seen } = await observations(server);
    assert.ok(seen.some((s) => s.method === 'tasks/cancel' && s.taskId === task.taskId && s.mcpName === task.taskId));
    assert.ok(!seen.some((s) => s.method === 'notifications/cancelled'));
    const { toolCalls } = await api.getConversation({ conversationId });
    assert.equal(toolCalls[0]?.status, 'cancelled');
    await api.sendMessage({ conversationId, text: 'so?' });
    assert.match(modelRequests(llm)[2] ?? '', /was cancelled before it finished/);
  });

  test("after a restart, a remote server's task is followed again and its result lands in the same conversation; a stdio server's is said to have ended with it", async () => {
    const server = await taskServer();
    const llm = await startFakeAnthropic([
      { toolCalls: [{ name: 'tasks__slow_task', input: { seconds: 2, pollMs: 200, label: 'archive' } }, { name: 'everything__simulate-research-query', input: { topic: 'lost' } }] },
      { text: 'Both run as tasks.' },
    ]);
    cleanups.push(() => llm.close());
    const options: Partial<HostCoreOptions> = {
      approvalMode: 'all',
      ...scriptedModelOptions(llm.url),
    };
    const first = await startTestHost({ tasks: { url: server.url }, everything }, options);
    await first.core.hub.whenSettled();
    const { conversationId } = await first.core.api.sendMessage({ text: 'archive and research' });
    assert.equal((await first.core.api.listTasks({})).filter((t) => t.endedAt === undefined).length, 2);
    await first.core.shutdown();

    const second = await startHostCore({ home: first.home, keepAliveMs: 0, ...options });
    cleanups.push(() => first.close().then(() => second.shutdown()));
    const events: TaskView[] = [];
    second.events.on('taskChanged', (task) => events.push(task));
    const remoteEnded = nextEvent(second, 'taskChanged', (task) => task.tool === 'slow_task' && task.endedAt !== undefined);
    const lost = (await second.api.listTasks({})).find((task) => task.tool === 'simulate-research-query');
    assert.equal(lost?.status, 'lost');
    assert.match(lost?.reason ?? '', /local server: its process ended when Atrium stopped/);
    assert.equal((await remoteEnded).status, 'completed');
    const { messages, toolCalls } = await second.api.getConversation({ conversationId });
    assert.deepEqual(
      toolCalls.map((call) => [call.tool, call.status]).sort(),
      [['simulate-research-query', 'error'], ['slow_task', 'done']],
    );
    const landed = messages.filter((message) => message.origin?.kind === 'task').map((message) => JSON.stringify(message.content));
    assert.equal(landed.length, 2);
    assert.ok(landed.some((text) => /archive done after 2 s/.test(text)));
    assert.ok(landed.some((text) => /was lost/.test(text)));
  });

  test('a host killed with kill -9 while a remote task runs: the next host follows the task again and its result lands in the same conversation', async () => {
    const server = await taskServer();
    const llm = await startFakeAnthropic([{ toolCalls: [{ name: 'tasks__slow_task', input: { seconds: 2, pollMs: 200, label: 'backup' } }] }, { text: 'It runs.' }]);
    cleanups.push(() => llm.close());
    const home = await makeTempDir('atrium-kill-task-');
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { tasks: { url: server.url } } }));
    await approveServers(home);
    const script = fileURLToPath(new URL('../../../../e2e/fixtures/taskHostProcess.ts', import.meta.url));
    const run = (mode: 'start' | 'resume', until: RegExp) => {
      const child = spawn(process.execPath, [script, mode, home, llm.url], { stdio: ['ignore', 'pipe', 'inherit'] });
      cleanups.push(async () => void child.kill('SIGKILL'));
      const line = new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout }).on('line', (text) => until.test(text) && resolve(text));
        child.once('exit', () => reject(new Error(`the ${mode} host ended before "${until}"`)));
      });
      return { child, line };
    };
    const first = run('start', /^task /);
    const conversationId = (await first.line).split(' ')[2];
    const killed = new Promise((resolve) => first.child.once('exit', resolve));
    first.child.kill('SIGKILL');
    await killed;
    const outcome = JSON.parse((await run('resume', /^landed /).line).slice('landed '.length)) as { status: string; conversationId: string; landed: string[] };
    assert.deepEqual({ ...outcome, landed: outcome.landed.map((text) => /backup done after 2 s/.test(text)) }, { status: 'completed', conversationId, landed: [true] }, JSON.stringify(outcome));
  });
});
