// Two writers of one data file, as real processes: every change is made to what the file holds now,
// under its lock, so none is lost; a lock left by a process that is gone is taken over; one held by a
// process that runs makes a change wait, and past the wait fail with a sentence, writing nothing.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, test } from 'node:test';
import { DamagedData, updateDataFile } from './dataFile.ts';
import type { DataFileSpec } from './dataFile.ts';
import { FileBusyError, withFileLock } from './fileLock.ts';

const dirs: string[] = [];
after(async () => {
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});
async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'atrium-lock-'));
  dirs.push(dir);
  return dir;
}

const dataFileModule = fileURLToPath(new URL('./dataFile.ts', import.meta.url));

/** A process that adds `count` entries of its own to a JSON list, one change at a time, as Atrium changes a file. */
function writerSource(path: string, name: string, count: number): string {
  return `
    import { updateDataFile, DamagedData } from ${JSON.stringify(dataFileModule)};
    const spec = { path: ${JSON.stringify(path)}, withoutIt: '', recovery: () => [], parse: (bytes) => JSON.parse(bytes.toString('utf8')) };
    for (let i = 0; i < ${count}; i++) {
      await updateDataFile(spec, (current) => JSON.stringify([...(current.kind === 'read' ? current.value : []), ${JSON.stringify(name)} + '-' + i]));
    }
  `;
}

async function run(source: string): Promise<void> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', source], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const [code] = (await once(child, 'exit')) as [number | null];
  assert.equal(code, 0, stderr);
}

const listSpec = (path: string): DataFileSpec<string[]> => ({
  path,
  withoutIt: '',
  recovery: () => [],
  parse: (bytes) => {
    try {
      return JSON.parse(bytes.toString('utf8')) as string[];
    } catch {
      throw new DamagedData('not JSON');
    }
  },
});

test('three processes changing one file at once lose none of each other’s changes', async () => {
  const dir = await tempDir();
  const path = join(dir, 'list.json');
  await Promise.all(['a', 'b', 'c'].map((name) => run(writerSource(path, name, 25))));
  const list = JSON.parse(await readFile(path, 'utf8')) as string[];
  assert.equal(list.length, 75, 'every change is in the file');
  for (const name of ['a', 'b', 'c']) {
    assert.deepEqual(
      list.filter((entry) => entry.startsWith(`${name}-`)),
      Array.from({ length: 25 }, (_, i) => `${name}-${i}`),
      `${name}'s changes are all there, in its order`,
    );
  }
  assert.deepEqual(await readdir(dir), ['list.json'], 'no lock or temporary file is left behind');
});

test('a lock left by a process that is gone (a crash, a kill -9) is taken over at once', async () => {
  const dir = await tempDir();
  const path = join(dir, 'list.json');
  const gone = spawn(process.execPath, ['-e', '']);
  await once(gone, 'exit');
  await writeFile(`${path}.lock`, JSON.stringify({ pid: gone.pid, token: 'left-behind' }));
  const started = Date.now();
  await updateDataFile(listSpec(path), () => JSON.stringify(['after the crash']));
  assert.ok(Date.now() - started < 5_000, 'taken over without waiting for it');
  assert.deepEqual(JSON.parse(await readFile(path, 'utf8')), ['after the crash']);
  assert.deepEqual(await readdir(dir), ['list.json'], 'the stale lock is gone');
});

test('a lock held by a process that runs makes a change wait, and past the wait it fails with a sentence naming the holder, writing nothing', async () => {
  const dir = await tempDir();
  const path = join(dir, 'list.json');
  await writeFile(path, '["kept"]');
  const holder = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  try {
    await writeFile(`${path}.lock`, JSON.stringify({ pid: holder.pid, token: 'held' }));
    let ran = false;
    await assert.rejects(
      withFileLock(
        path,
        async () => {
          ran = true;
        },
        { waitMs: 300 },
      ),
      (error: unknown) => error instanceof FileBusyError && error.message === `list.json is being changed by another Atrium (process ${holder.pid}) and was not free within 300 ms, so nothing was changed; try again (if no other Atrium runs, delete list.json.lock)`,
    );
    assert.equal(ran, false, 'the change did not run');
    assert.equal(await readFile(path, 'utf8'), '["kept"]');
  } finally {
    holder.kill('SIGKILL');
  }
});

test('a file damaged where it is is never written over: the change is refused and the file left as it was', async () => {
  const dir = await tempDir();
  const path = join(dir, 'list.json');
  await writeFile(path, '["a",');
  await assert.rejects(updateDataFile(listSpec(path), () => '["b"]'), /^Error: list\.json cannot be read as it is now, so nothing was changed\. Not JSON\. Fix it, then try again\.$/);
  assert.equal(await readFile(path, 'utf8'), '["a",');
  assert.deepEqual(await readdir(dir), ['list.json']);
});
