import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { createFileOnce } from './createOnce.ts';
import { fileKeyProtector } from './encryptedSecrets.ts';

test('of many makers at once, one makes the file and the others keep what it made', async () => {
  const folder = await mkdtemp(join(tmpdir(), 'atrium-once-'));
  try {
    const path = join(folder, 'key');
    const made = await Promise.all(Array.from({ length: 8 }, (_, i) => createFileOnce(path, `key ${i}`)));
    assert.equal(made.filter(Boolean).length, 1);
    assert.equal(await readFile(path, 'utf8'), `key ${made.indexOf(true)}`);
    assert.deepEqual(await readdir(folder), ['key'], 'no temporary file is left');
    if (process.platform !== 'win32') assert.equal((await stat(path)).mode & 0o777, 0o600);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});

test('two Atriums that find no secrets.key at the same moment end up with the same key', async () => {
  const home = await mkdtemp(join(tmpdir(), 'atrium-once-'));
  try {
    const [a, b] = await Promise.all([fileKeyProtector(home).dataKey(), fileKeyProtector(home).dataKey()]);
    assert.deepEqual(a, b);
    assert.deepEqual(await fileKeyProtector(home).dataKey(), a);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
});
