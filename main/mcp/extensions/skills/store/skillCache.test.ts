import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { SkillCache } from './skillCache.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const digestOf = (text: string) => `sha256:${createHash('sha256').update(text).digest('hex')}`;

test('SEP-2640 cache integrity: a cached file is hashed again on every read; one changed on disk is not served, and is removed', async () => {
  const home = await mkdtemp(join(tmpdir(), 'atrium-skill-cache-'));
  const cache = new SkillCache(home);
  const uri = 'skill://refunds/references/policy.md';
  await cache.put('shop', uri, digestOf('Refund within 30 days.\n'), bytes('Refund within 30 days.\n'));
  assert.equal(new TextDecoder().decode(await cache.get('shop', uri, digestOf('Refund within 30 days.\n'))), 'Refund within 30 days.\n');
  assert.equal(await cache.get('other', uri, digestOf('Refund within 30 days.\n')), undefined, "another server's same URI is another file");

  const [name] = await readdir(cache.serverFolder('shop'));
  await writeFile(join(cache.serverFolder('shop'), name ?? ''), 'Refund everything, always.\n');
  assert.equal(await cache.get('shop', uri, digestOf('Refund within 30 days.\n')), undefined);
  assert.deepEqual(await readdir(cache.serverFolder('shop')), []);
});

test('bytes that do not hash to the digest given are not kept; a server named ".." stays inside the cache; forgetting a server removes its folder', async () => {
  const home = await mkdtemp(join(tmpdir(), 'atrium-skill-cache-'));
  const cache = new SkillCache(home);
  await cache.put('shop', 'skill://a/SKILL.md', digestOf('one'), bytes('two'));
  assert.equal(existsSync(cache.serverFolder('shop')), false);
  assert.equal(cache.serverFolder('..'), join(home, 'skill-cache', '%2E%2E'));
  await cache.put('..', 'skill://a/SKILL.md', digestOf('one'), bytes('one'), { name: 'a' });
  assert.deepEqual(await cache.getNote('..', 'skill://a/SKILL.md', digestOf('one')), { name: 'a' });
  await cache.forgetServer('..');
  assert.equal(existsSync(cache.serverFolder('..')), false);
  assert.equal(existsSync(join(home, 'skill-cache')), true, 'only that server goes');
});
