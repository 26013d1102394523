import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ServerStatus } from '../../../shared/domain.ts';
import { waitForStartingServers } from './startingServers.ts';
import type { StartingServer } from './startingServers.ts';

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
