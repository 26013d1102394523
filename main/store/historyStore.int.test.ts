import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { openDatabase } from './database.ts';
import { HistoryStore, historyMigrations } from './historyStore.ts';

// Durability with a real process: a child saves a user message and streams a reply, printing what each
// returned call acknowledged; it is killed with SIGKILL at a chosen moment, and the file must then be
// intact and hold everything acknowledged.
const fixture = fileURLToPath(new URL('../../e2e/fixtures/historyKillFixture.ts', import.meta.url));
let dir = '';

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atrium-history-kill-'));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Acknowledged = { userId?: string; replyId?: string; flushed: number; stderr: string };

/** Runs the fixture and SIGKILLs it as soon as `flushes` flushes were acknowledged (0: right after the user message). */
async function killAfter(path: string, flushes: number): Promise<Acknowledged> {
  const child = spawn(process.execPath, [fixture, path], { stdio: ['ignore', 'pipe', 'pipe'] });
  const acked: Acknowledged = { flushed: 0, stderr: '' };
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (acked.stderr += chunk));
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
  // Lines printed after the kill was sent still count: each was written after its call returned.
  for await (const line of createInterface({ input: child.stdout })) {
    const [word, value = ''] = line.split(' ');
    if (word === 'acked') acked.userId = value;
    else if (word === 'begun') acked.replyId = value;
    else if (word === 'flushed') acked.flushed = Number(value);
    const reached = flushes === 0 ? acked.userId !== undefined : acked.flushed >= flushes;
    if (reached && child.exitCode === null && !child.killed) child.kill('SIGKILL');
  }
  assert.equal(await exited, 'SIGKILL', `the fixture should have been killed, not exited by itself: ${acked.stderr}`);
  return acked;
}

function chunks(count: number): string {
  let text = '';
  for (let n = 1; n <= count; n++) text += `<${n}>${'x'.repeat(500)}`;
  return text;
}

for (const flushes of [0, 1, 5, 20]) {
  test(`a SIGKILL after ${flushes} acknowledged flushes loses nothing acknowledged and leaves the file intact`, async () => {
    const path = join(dir, `killed-after-${flushes}.db`);
    const acked = await killAfter(path, flushes);
    assert.ok(acked.userId !== undefined, 'the user message was acknowledged');
    assert.ok(acked.flushed >= flushes);

    const db = openDatabase(path, historyMigrations);
    try {
      assert.equal(db.prepare('PRAGMA integrity_check').get()?.integrity_check, 'ok');
      const store = new HistoryStore(db);
      const user = store.getMessage(acked.userId);
      assert.deepEqual(user?.content, [{ type: 'text', text: 'please stream' }]);
      assert.equal(user?.status, 'complete');
      if (acked.replyId === undefined) return;

      const reply = store.getMessage(acked.replyId);
      assert.equal(reply?.status, 'streaming');
      const saved = reply.content[0]?.type === 'text' ? reply.content[0].text : '';
      // The kill may land inside the next flush's transaction: then that one is absent, never half there.
      const savedFlushes = saved === '' ? 0 : (saved.match(/<\d+>/g) ?? []).length;
      assert.ok(savedFlushes >= acked.flushed, `saved ${savedFlushes} flushes, ${acked.flushed} were acknowledged`);
      assert.equal(saved, chunks(savedFlushes), 'the saved text is exactly a whole number of flushes');

      assert.equal(store.markInterruptedMessages(), 1);
      assert.equal(store.getMessage(acked.replyId)?.status, 'incomplete');
      assert.equal(store.loadMessages(user?.conversationId ?? '').length, 2);
    } finally {
      db.close();
    }
  });
}
