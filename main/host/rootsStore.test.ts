import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { canonicalRoot } from './rootsStore.ts';

test('a folder typed as ~ or ~/… is the person’s home folder, as in their shell', async () => {
  const home = await canonicalRoot({ uri: '~' });
  assert.equal(home.uri, pathToFileURL(homedir()).href);
  const inside = await mkdtemp(join(homedir(), '.atrium-roots-test-'));
  try {
    const typed = `~/${inside.slice(homedir().length + 1)}`;
    assert.equal((await canonicalRoot({ uri: typed })).uri, pathToFileURL(inside).href);
  } finally {
    await rm(inside, { recursive: true, force: true });
  }
});

test('a relative path, one that does not exist and a file are refused, each said', async () => {
  await assert.rejects(canonicalRoot({ uri: 'relative/path' }), /must be a whole path/);
  await assert.rejects(canonicalRoot({ uri: join(tmpdir(), 'atrium-no-such-folder-4f2c') }), /there is no folder/);
  await assert.rejects(canonicalRoot({ uri: '~user-that-is-not/x' }), /must be a whole path/);
});
