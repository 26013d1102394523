import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ServerStatus } from '../../../shared/domain.ts';
import { waitForServerBack, waitForStartingServers } from './startingServers.ts';
import type { ReturningServer, StartingServer } from './startingServers.ts';

/** A server whose status is `status` until `settle` gives it another. */
function server(id: string, status: ServerStatus): StartingServer & { settle(next: ServerStatus): void } {
  let settle: (next: ServerStatus) => void = () => undefined;
  const settled = new Promise<ServerStatus>((resolve) => (settle = resolve));
  const entry = {
    snapshot: { id, status },
    whenSettled: () => settled,
    settle: (next: ServerStatus) => {
      entry.snapshot = { id, status: next };
      settle(next);
    },
  };
  return entry;
}

const turn = () => {
  const notices: string[] = [];
  return { notices, notice: (message: string) => notices.push(message), signal: new AbortController().signal };
};

test('no server starting: the turn goes on at once, saying nothing', async () => {
  const start = turn();
  await waitForStartingServers([server('ready', { kind: 'ready', since: 0 }), server('broken', { kind: 'error', message: 'x' }), server('new', { kind: 'needs-approval', reason: 'new' })], start);
  assert.deepEqual(start.notices, []);
});

test('servers starting are waited for, named once', async () => {
  const start = turn();
  const files = server('files', { kind: 'starting', attempt: 1 });
  const git = server('git', { kind: 'starting', attempt: 1 });
  const waited = waitForStartingServers([files, git, server('ready', { kind: 'ready', since: 0 })], start);
  files.settle({ kind: 'ready', since: 1 });
  git.settle({ kind: 'error', message: 'crashed' });
  await waited;
  assert.deepEqual(start.notices, ['waiting for files and git to start, so that the model has their tools']);
});

test('past the bound, the turn goes on and says whose tools the model goes without', async () => {
  const start = turn();
  const files = server('files', { kind: 'starting', attempt: 1 });
  await waitForStartingServers([files], start, 1);
  assert.deepEqual(start.notices, ['waiting for files to start, so that the model has its tools', 'files is still starting: the model answers without its tools']);
});

test('Stop ends the wait without a second line', async () => {
  const stop = new AbortController();
  const notices: string[] = [];
  const waited = waitForStartingServers([server('files', { kind: 'starting', attempt: 1 })], { notice: (message) => notices.push(message), signal: stop.signal }, 60_000);
  stop.abort();
  await waited;
  assert.equal(notices.length, 1);
});

/** A server as a call waits for it: `back` gives its status once it is up again. */
function returning(status: ServerStatus): ReturningServer & { back(next: ServerStatus): void; asked: number } {
  let back: (next: ServerStatus) => void = () => undefined;
  const settled = new Promise<ServerStatus>((resolve) => (back = resolve));
  const entry = {
    snapshot: { id: 'crashy', status },
    asked: 0,
    whenBack: () => {
      entry.asked += 1;
      return settled;
    },
    back: (next: ServerStatus) => back(next),
  };
  return entry;
}

test('a call waits for a server starting again after a crash, and goes on once it is back', async () => {
  const crashy = returning({ kind: 'restarting', attempt: 2, retryAt: 0, lastError: 'exited with code 3' });
  let done = false;
  const waited = waitForServerBack(crashy, new AbortController().signal, 60_000).then(() => (done = true));
  await Promise.resolve();
  assert.equal(done, false, 'still waiting while it is down');
  crashy.back({ kind: 'ready', since: 1 });
  await waited;
  assert.equal(done, true);
});

test('a server ready, failed for good or waiting for the person is not waited for; a wait ends at its bound or when the call is stopped', async () => {
  for (const status of [{ kind: 'ready', since: 0 }, { kind: 'error', message: 'gave up' }, { kind: 'needs-approval', reason: 'new' }] as const) {
    const server = returning(status);
    await waitForServerBack(server, new AbortController().signal, 60_000);
    assert.equal(server.asked, 0, status.kind);
  }
  await waitForServerBack(returning({ kind: 'starting', attempt: 1 }), new AbortController().signal, 1);
  const stop = new AbortController();
  const stopped = waitForServerBack(returning({ kind: 'starting', attempt: 1 }), stop.signal, 60_000);
  stop.abort();
  await stopped;
});
