// A kept task whose server does not answer when asked about it again (after a restart, or after a poll
// that timed out) is asked again, backing off, rather than declared lost; a server that says it does not
// know the task loses it at once; a server that is not connected costs no try.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { TaskView } from '../contract/tasksContract.ts';
import { ServerError } from '../../../connection/serverError.ts';
import { openDatabase } from '../../../../store/database.ts';
import { historyMigrations } from '../../../../store/historyStore.ts';
import { TaskStore, taskMigrations } from '../store/taskStore.ts';
import type { TaskRun, TaskRunEnd } from '../taskRun.ts';
import { TaskTracker } from './taskTracker.ts';
import type { TaskTrackerDeps } from './taskTracker.ts';

const SERVER = 'research';

/** A task as a connection follows it, ended by the test. */
function fakeRun(taskId: string): { run: TaskRun; end(end: TaskRunEnd): void } {
  let end: (value: TaskRunEnd) => void = () => undefined;
  const ended = new Promise<TaskRunEnd>((resolve) => (end = resolve));
  const run = {
    serverId: SERVER,
    taskId,
    reference: { endpointId: 'e', generation: 'v2', taskId },
    state: { status: 'working' },
    ended,
    onChange: () => () => undefined,
    cancel: async () => undefined,
  };
  return { run: run as unknown as TaskRun, end };
}

const call = {
  tool: { serverId: SERVER, name: 'research', modelName: 'research__research', inputSchema: { type: 'object' }, enabled: true },
  callId: 'call-1',
  origin: { by: 'person' as const },
  arguments: {},
  decision: { decidedBy: 'person' as const, reason: 'asked' },
  startedAt: 1,
};

interface Harness {
  tracker: TaskTracker;
  store: TaskStore;
  resumes: number;
  connected: boolean;
  /** What the next resume does: throws, or follows the given run. */
  answers: (() => TaskRun)[];
}

function harness(store: TaskStore, answers: (() => TaskRun)[]): Harness {
  const h: Harness = { tracker: undefined as unknown as TaskTracker, store, resumes: 0, connected: true, answers };
  const deps: TaskTrackerDeps = {
    store,
    resume: async () => {
      h.resumes += 1;
      const next = h.answers.shift();
      if (!next) throw new Error('resumed more often than the test expected');
      return next();
    },
    outlivesAtrium: () => true,
    isConnected: () => h.connected,
    close: (_call, finish) => (finish.kind === 'completed' ? { kind: 'done', result: finish.result } : { kind: 'failed', error: new Error('message' in finish ? finish.message : 'cancelled'), reason: 'message' in finish ? finish.message : 'cancelled' }),
    settle: () => undefined,
    deliver: () => undefined,
    transaction: (work) => work(),
  };
  h.tracker = new TaskTracker(deps);
  return h;
}

/** A task a previous run of Atrium left running on a remote server. */
function keptTask(): TaskStore {
  const store = new TaskStore(openDatabase(':memory:', [...historyMigrations, ...taskMigrations]));
  const before = harness(store, []);
  const { run } = fakeRun('task-1');
  before.tracker.follow(run, call);
  before.tracker.stop();
  return store;
}

/** Resolves with the first change of the task that `matches` (the test's own time limit bounds it). */
function change(tracker: TaskTracker, matches: (task: TaskView) => boolean): Promise<TaskView> {
  return new Promise((resolve) => {
    const stop = tracker.onChange((task) => {
      if (!matches(task)) return;
      stop();
      resolve(task);
    });
  });
}

const timedOut = () => {
  throw new ServerError(SERVER, 'timeout', `${SERVER}: task task-1: no answer within the time limit (60000 ms)`);
};
const unanswered = (task: TaskView) => task.waiting?.includes('did not answer') === true;

test('after a restart, a task whose server does not answer at first is asked again later, and its result comes in', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const later = fakeRun('task-1');
  const h = harness(keptTask(), [timedOut, timedOut, () => later.run]);

  let waiting = change(h.tracker, unanswered);
  h.tracker.start();
  assert.equal((await waiting).status, 'working', 'a task whose server did not answer is not given up');
  assert.equal(h.resumes, 1);

  waiting = change(h.tracker, unanswered);
  t.mock.timers.tick(5_000);
  await waiting;
  assert.equal(h.resumes, 2, 'asked again 5 s later');

  const followed = change(h.tracker, (task) => task.waiting === undefined && task.status === 'working');
  t.mock.timers.tick(9_999);
  assert.equal(h.resumes, 2, 'the third try waits twice as long');
  t.mock.timers.tick(1);
  await followed;
  assert.equal(h.resumes, 3);

  const done = change(h.tracker, (task) => task.endedAt !== undefined);
  later.end({ kind: 'completed', result: { content: [{ type: 'text', text: 'the findings' }] } });
  assert.equal((await done).status, 'completed');
});

test('a followed task whose poll timed out is followed again while its server stays connected', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const store = new TaskStore(openDatabase(':memory:', [...historyMigrations, ...taskMigrations]));
  const first = fakeRun('task-1');
  const again = fakeRun('task-1');
  const h = harness(store, [timedOut, () => again.run]);
  const task = h.tracker.follow(first.run, call);

  const waiting = change(h.tracker, unanswered);
  first.end({ kind: 'interrupted', message: `${SERVER}: tasks/get: no answer within the time limit` });
  await waiting;
  const followed = change(h.tracker, (view) => view.waiting === undefined);
  t.mock.timers.tick(5_000);
  await followed;

  again.end({ kind: 'completed', result: { content: [{ type: 'text', text: 'the findings' }] } });
  assert.equal((await task.ended).kind, 'done');
  assert.equal(h.resumes, 2);
});

test('a server that never answers about the task loses it after seven tries, saying so', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const h = harness(keptTask(), Array.from({ length: 7 }, () => timedOut));
  const lost = change(h.tracker, (task) => task.status === 'lost');
  h.tracker.start();
  for (let attempt = 1; attempt <= 6; attempt++) {
    await change(h.tracker, unanswered);
    t.mock.timers.tick(5_000 * attempt);
  }
  const task = await lost;
  assert.equal(h.resumes, 7);
  assert.match(task.reason ?? '', /did not answer about this task 7 times/);
});

test('a server that answers it does not know the task loses it at once', async () => {
  const h = harness(keptTask(), [
    () => {
      throw new ServerError(SERVER, 'protocol', `${SERVER}: task task-1: the server answered with an error: Task not found`);
    },
  ]);
  const lost = change(h.tracker, (task) => task.status === 'lost');
  h.tracker.start();
  assert.match((await lost).reason ?? '', /no longer knows this task .*Task not found/);
  assert.equal(h.resumes, 1);
});

test('a server that went away while it was asked waits for its return without spending a try', async () => {
  const later = fakeRun('task-1');
  const h = harness(keptTask(), []);
  h.answers.push(() => {
    h.connected = false;
    throw new ServerError(SERVER, 'unavailable', `${SERVER}: task task-1: the connection to the server was closed`);
  });
  const waiting = change(h.tracker, (task) => task.waiting?.includes('is not connected') === true);
  h.tracker.start();
  await waiting;
  assert.equal(h.tracker.list()[0]?.status, 'working');

  h.connected = true;
  h.answers.push(() => later.run);
  const followed = change(h.tracker, (task) => task.waiting === undefined);
  await h.tracker.serverConnected(SERVER);
  await followed;
  assert.equal(h.resumes, 2);
});
