// A 2026-07-28 Streamable HTTP server that offers the tasks extension (io.modelcontextprotocol/tasks,
// SEP-2663) and answers tool calls with tasks, written by hand because the SDK's server cannot send a
// task. Its tasks live in the process, so a client that restarts (or is killed) finds them again.
//   node e2e/servers/taskServer.ts [--port 0] [--task-on-unsupported]   prints `listening <url>` (path /mcp)
//
// Tools: `sync_echo {text}` answers at once; `quick_task` becomes a task that completes at its second
// tasks/get; `failing_task` one that fails at its first; `cancel_task` one that works until tasks/cancel;
// `slow_task {seconds, pollMs=1000, label}` one that works `seconds` (its status message counts the
// seconds) then completes with "<label> done after <seconds> s"; `ask_task {question}` one that asks the
// client (input_required, an elicitation) and completes with the answer, or "declined".
// With --task-on-unsupported, a request that cannot be a task is answered with one once the client declared
// the extension (deliberately wrong), which a conforming client refuses: a ping, as the conformance scenario
// does, and resources/read of `fixture://note` (the 2026-07-28 revision has no ping: its SDK never sends one).
//
// What it saw is kept for the tests: GET /observations gives every request (method, task, its Mcp-Name
// header, when), the gaps between polls of a task, and the checks of the conformance project's draft
// client scenario for the extension (its 8 checks, judged from the traffic).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseArgs } from 'node:util';
import { httpArgs, listenHttp } from './listenHttp.ts';

const TASKS = 'io.modelcontextprotocol/tasks';
const CONFORMANCE_POLL_MS = 300;
/** A poll this much sooner than the interval asked for is early (the conformance scenario's tolerance). */
const EARLY_TOLERANCE_MS = 50;
const TTL_MS = 60 * 60_000;

const { values: flags } = parseArgs({ args: process.argv.slice(2), strict: false, options: { 'task-on-unsupported': { type: 'boolean' } } });

interface Task {
  taskId: string;
  tool: string;
  status: 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
  statusMessage?: string;
  createdAt: number;
  updatedAt: number;
  pollIntervalMs: number;
  /** When a slow task completes. */
  doneAt?: number;
  seconds?: number;
  label?: string;
  question?: string;
  gets: number;
  /** JSON-RPC id of the tools/call that made it. */
  originId: unknown;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
  /** When its last non-terminal tasks/get answer was sent (the poll-gap anchor). */
  lastPollAnswerAt?: number;
  /** Whether a tasks/get answer already told the client it ended. */
  toldEnded: boolean;
  /** tasks/get requests that came after a tasks/get answer told the client it ended. */
  getsAfterEnd: number;
}

interface Seen {
  at: number;
  method: string;
  taskId?: string;
  mcpName?: string;
  declared: boolean;
}

const tasks = new Map<string, Task>();
const seen: Seen[] = [];
const pollGaps: { taskId: string; gapMs: number; askedMs: number }[] = [];
const taskCancelNotices: string[] = [];
let declared = false;
let bogusTaskRequests = 0;
/** Requests that cannot be tasks and were answered with one (ping, resources/read). */
let unsupportedAnsweredWithTask = 0;
let nextTask = 1;

const tools = [
  { name: 'sync_echo', description: 'Answers at once with the text it was given.', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } },
  { name: 'quick_task', description: 'A task that completes at its second tasks/get.', inputSchema: { type: 'object', properties: {} } },
  { name: 'failing_task', description: 'A task that fails at its first tasks/get.', inputSchema: { type: 'object', properties: {} } },
  { name: 'cancel_task', description: 'A task that works until it is cancelled.', inputSchema: { type: 'object', properties: {} } },
  {
    name: 'slow_task',
    description: 'A task that works for a number of seconds, then completes.',
    inputSchema: { type: 'object', properties: { seconds: { type: 'number', minimum: 0 }, pollMs: { type: 'number', minimum: 10 }, label: { type: 'string' } }, required: ['seconds'] },
  },
  { name: 'ask_task', description: 'A task that asks the person a question, then completes with the answer.', inputSchema: { type: 'object', properties: { question: { type: 'string' } } } },
];

function envelope(task: Task): Record<string, unknown> {
  const ended = task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled';
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage ? { statusMessage: task.statusMessage } : {}),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.updatedAt).toISOString(),
    ttlMs: TTL_MS,
    ...(ended ? {} : { pollIntervalMs: task.pollIntervalMs }),
  };
}

/** A slow task's state now: it moves with the clock, not with its polls. */
function advance(task: Task, now: number): void {
  if (task.tool !== 'slow_task' || task.status !== 'working' || task.doneAt === undefined) return;
  if (now >= task.doneAt) {
    task.status = 'completed';
    task.statusMessage = 'done';
    task.result = { content: [{ type: 'text', text: `${task.label ?? 'slow task'} done after ${task.seconds} s` }] };
    task.updatedAt = task.doneAt;
    return;
  }
  const second = Math.floor((now - task.createdAt) / 1000) + 1;
  const message = `second ${second} of ${task.seconds}`;
  if (task.statusMessage !== message) {
    task.statusMessage = message;
    task.updatedAt = now;
  }
}

function start(tool: string, args: Record<string, unknown>, originId: unknown): Task {
  const now = Date.now();
  const task: Task = { taskId: `task-${process.pid}-${nextTask++}`, tool, status: 'working', createdAt: now, updatedAt: now, pollIntervalMs: CONFORMANCE_POLL_MS, gets: 0, originId, toldEnded: false, getsAfterEnd: 0 };
  if (tool === 'slow_task') {
    task.seconds = Number(args.seconds ?? 1);
    task.pollIntervalMs = Number(args.pollMs ?? 1000);
    task.doneAt = now + task.seconds * 1000;
    if (typeof args.label === 'string') task.label = args.label;
    task.statusMessage = `second 1 of ${task.seconds}`;
  }
  if (tool === 'ask_task') {
    task.status = 'input_required';
    task.question = typeof args.question === 'string' ? args.question : 'What should the task do?';
  }
  tasks.set(task.taskId, task);
  return task;
}

function detailed(task: Task): Record<string, unknown> {
  const base = { resultType: 'complete', ...envelope(task) };
  if (task.status === 'completed') return { ...base, result: task.result ?? { content: [] } };
  if (task.status === 'failed') return { ...base, error: task.error ?? { code: -32603, message: 'failed' } };
  if (task.status === 'input_required') {
    return {
      ...base,
      inputRequests: {
        answer: {
          method: 'elicitation/create',
          params: { mode: 'form', message: task.question, requestedSchema: { type: 'object', properties: { answer: { type: 'string', title: 'Answer' } }, required: ['answer'] } },
        },
      },
    };
  }
  return base;
}

function handle(request: { id?: unknown; method: string; params?: Record<string, unknown> }, headers: IncomingMessage['headers']): Record<string, unknown> | undefined {
  const params = request.params ?? {};
  const capabilities = (params._meta as Record<string, { extensions?: Record<string, unknown> }> | undefined)?.['io.modelcontextprotocol/clientCapabilities'];
  const declares = capabilities?.extensions?.[TASKS] !== undefined;
  if (declares) declared = true;
  const taskId = typeof params.taskId === 'string' ? params.taskId : undefined;
  const mcpName = headers['mcp-name'];
  const now = Date.now();
  seen.push({ at: now, method: request.method, ...(taskId ? { taskId } : {}), ...(typeof mcpName === 'string' ? { mcpName } : {}), declared: declares });
  process.stderr.write(`request ${request.method}${taskId ? ` ${taskId}` : ''} at ${now}\n`);
  const ok = (result: Record<string, unknown>) => ({ result: { resultType: 'complete', ...result } });
  const fail = (code: number, message: string) => ({ error: { code, message } });

  if (request.method.startsWith('notifications/')) {
    if (request.method === 'notifications/cancelled') {
      const cancelledId = params.requestId;
      const task = [...tasks.values()].find((t) => t.originId === cancelledId);
      const reason = typeof params.reason === 'string' ? params.reason : '';
      if (task || [...tasks.keys()].some((id) => reason.includes(id))) taskCancelNotices.push(JSON.stringify(params));
    }
    return undefined;
  }
  if (taskId === 'task-bogus') bogusTaskRequests++;
  switch (request.method) {
    case 'server/discover':
      return ok({ supportedVersions: ['2026-07-28'], capabilities: { tools: {}, resources: {}, extensions: { [TASKS]: {} } }, serverInfo: { name: 'task-server', version: '1.0.0' }, ttlMs: 0, cacheScope: 'private' });
    case 'ping':
    case 'resources/read':
      if (flags['task-on-unsupported'] && declared) {
        unsupportedAnsweredWithTask++;
        return { result: { resultType: 'task', taskId: 'task-bogus', status: 'working', createdAt: new Date(now).toISOString(), lastUpdatedAt: new Date(now).toISOString(), ttlMs: TTL_MS, pollIntervalMs: CONFORMANCE_POLL_MS } };
      }
      return ok(request.method === 'ping' ? {} : { contents: [{ uri: 'fixture://note', mimeType: 'text/plain', text: 'a note' }], ttlMs: 0, cacheScope: 'private' });
    case 'resources/list':
      return ok({ resources: [{ uri: 'fixture://note', name: 'note', mimeType: 'text/plain' }], ttlMs: 0, cacheScope: 'private' });
    case 'resources/templates/list':
      return ok({ resourceTemplates: [], ttlMs: 0, cacheScope: 'private' });
    case 'tools/list':
      return ok({ tools, ttlMs: 0, cacheScope: 'private' });
    case 'tools/call': {
      const name = String(params.name ?? '');
      const args = (params.arguments ?? {}) as Record<string, unknown>;
      if (name === 'sync_echo') return ok({ content: [{ type: 'text', text: `echo: ${String(args.text ?? 'sync-ok')}` }] });
      if (!tools.some((tool) => tool.name === name)) return fail(-32602, `Unknown tool: ${name}`);
      // A server answers with a task only a client that declared the extension.
      if (!declares && !declared) return ok({ content: [{ type: 'text', text: `${name} ran without a task` }] });
      return { result: { resultType: 'task', ...envelope(start(name, args, request.id)) } };
    }
    case 'tasks/get': {
      const task = taskId ? tasks.get(taskId) : undefined;
      if (!task) return fail(-32602, `Unknown task: ${taskId}`);
      if (task.toldEnded) task.getsAfterEnd++;
      // A poll of a task the client was told is running: its gap since the last answer counts.
      if (task.lastPollAnswerAt !== undefined) pollGaps.push({ taskId: task.taskId, gapMs: now - task.lastPollAnswerAt, askedMs: task.pollIntervalMs });
      advance(task, now);
      const wasOver = task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled';
      task.gets++;
      if (!wasOver && task.tool === 'quick_task' && task.gets >= 2) {
        task.status = 'completed';
        task.result = { content: [{ type: 'text', text: 'quick-task-result' }] };
      }
      if (!wasOver && task.tool === 'failing_task') {
        task.status = 'failed';
        task.statusMessage = 'deliberate failure';
        task.error = { code: -32603, message: 'failing_task always fails' };
      }
      const over = task.status === 'completed' || task.status === 'failed' || task.status === 'cancelled';
      if (over) {
        task.toldEnded = true;
        delete task.lastPollAnswerAt;
      } else task.lastPollAnswerAt = Date.now();
      return { result: detailed(task) };
    }
    case 'tasks/update': {
      const task = taskId ? tasks.get(taskId) : undefined;
      if (!task) return fail(-32602, `Unknown task: ${taskId}`);
      const answer = (params.inputResponses as Record<string, { action?: string; content?: { answer?: unknown } }> | undefined)?.answer;
      if (task.tool === 'ask_task' && task.status === 'input_required' && answer) {
        task.status = 'completed';
        task.statusMessage = answer.action === 'accept' ? 'answered' : 'declined';
        task.result = { content: [{ type: 'text', text: answer.action === 'accept' ? `You answered: ${String(answer.content?.answer ?? '')}` : `The question was ${answer.action ?? 'not answered'}: nothing to do` }] };
        task.updatedAt = now;
      }
      return ok({});
    }
    case 'tasks/cancel': {
      const task = taskId ? tasks.get(taskId) : undefined;
      if (!task) return fail(-32602, `Unknown task: ${taskId}`);
      if (task.status === 'working' || task.status === 'input_required') {
        task.status = 'cancelled';
        task.updatedAt = now;
        delete task.lastPollAnswerAt;
      }
      return ok({});
    }
    default:
      return fail(-32601, `Method not found: ${request.method}`);
  }
}

/** The draft client scenario's 8 checks, judged from what this server saw. */
function checks(): { id: string; status: 'SUCCESS' | 'FAILURE'; errorMessage?: string }[] {
  const taskRequests = seen.filter((s) => s.method === 'tasks/get' || s.method === 'tasks/update' || s.method === 'tasks/cancel');
  const named = (tool: string) => [...tasks.values()].filter((task) => task.tool === tool);
  const quick = named('quick_task');
  const failing = named('failing_task');
  const cancelled = named('cancel_task');
  const after = (method: string, at: number) => seen.some((s) => s.at >= at && s.method === method);
  const check = (id: string, problems: string[]) => ({ id, status: problems.length === 0 ? ('SUCCESS' as const) : ('FAILURE' as const), ...(problems.length > 0 ? { errorMessage: problems.join('; ') } : {}) });
  const early = pollGaps.filter((gap) => gap.gapMs < gap.askedMs - EARLY_TOLERANCE_MS);
  const syncAt = seen.find((s) => s.method === 'tools/call' && !s.taskId)?.at;
  return [
    check('tasks-client-extension-declared', declared ? [] : ['the client never declared io.modelcontextprotocol/tasks']),
    check('sep-2663-client-handles-polymorphic-result', [
      ...(quick.some((task) => task.status === 'completed' && task.gets >= 2) ? [] : ['quick_task was not polled to completed']),
      ...(syncAt !== undefined ? [] : ['sync_echo was never called']),
    ]),
    check('sep-2663-client-emits-mcp-name-on-tasks-methods', [
      ...(taskRequests.length > 0 ? [] : ['no tasks/* request was seen']),
      ...taskRequests.filter((s) => s.mcpName !== s.taskId).map((s) => `${s.method} for ${s.taskId}: Mcp-Name ${JSON.stringify(s.mcpName ?? null)}`),
    ]),
    check('sep-2663-client-honors-poll-interval', [
      ...(pollGaps.length > 0 ? [] : ['no two polls of one task were seen']),
      ...early.map((gap) => `${gap.taskId} polled ${gap.gapMs} ms after the last answer (asked ${gap.askedMs} ms)`),
    ]),
    check('tasks-client-terminal-failed-surfaced', [
      ...(failing.some((task) => task.status === 'failed') ? [] : ['failing_task was not polled to failed']),
      ...failing.filter((task) => task.getsAfterEnd >= 3).map((task) => `${task.taskId} polled ${task.getsAfterEnd} times after it failed`),
      ...(failing.some((task) => after('tools/call', task.updatedAt)) ? [] : ['the client did not go on after the failure']),
    ]),
    check('tasks-client-cancel-flow-completed', cancelled.some((task) => task.status === 'cancelled') ? [] : ['cancel_task was not cancelled with tasks/cancel']),
    check('sep-2663-cancel-not-via-cancelled-notification', [
      ...(seen.some((s) => s.method === 'tasks/cancel') ? [] : ['no tasks/cancel was seen']),
      ...taskCancelNotices.map((notice) => `notifications/cancelled used for a task: ${notice}`),
    ]),
    check('sep-2663-client-rejects-task-result-on-unsupported', [
      ...(unsupportedAnsweredWithTask > 0 ? [] : ['no request that cannot be a task (ping, resources/read) was answered with one']),
      ...(bogusTaskRequests > 0 ? [`${bogusTaskRequests} tasks/* request(s) for the task answered to ping`] : []),
    ]),
  ];
}

function send(res: ServerResponse, status: number, body?: unknown): void {
  if (body === undefined) {
    res.writeHead(status);
    res.end();
    return;
  }
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const listener = (req: IncomingMessage, res: ServerResponse): void => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (req.method === 'GET' && url.pathname === '/observations') {
    send(res, 200, { seen, pollGaps, checks: checks(), tasks: [...tasks.values()].map((task) => ({ ...envelope(task), tool: task.tool, gets: task.gets, getsAfterEnd: task.getsAfterEnd })) });
    return;
  }
  if (req.method !== 'POST') return send(res, 405);
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (chunk: string) => (body += chunk));
  req.on('end', () => {
    let request: { id?: unknown; method: string; params?: Record<string, unknown> };
    try {
      request = JSON.parse(body) as typeof request;
    } catch {
      return send(res, 400, { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    }
    const answer = handle(request, req.headers);
    if (answer === undefined || request.id === undefined) return send(res, 202);
    send(res, 200, { jsonrpc: '2.0', id: request.id, ...answer });
  });
};

await listenHttp(listener, { ...httpArgs(), path: '/mcp' });
