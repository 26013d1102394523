import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RecentBundles } from './recentBundles.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

test('a file is given back for its address and hash only, and not after ten minutes', () => {
  let now = 0;
  const recent = new RecentBundles(() => now);
  recent.keep('https://example.com/a.mcpb', 'AB12', bytes('a'));
  assert.deepEqual(recent.get('https://example.com/a.mcpb', 'ab12'), bytes('a'), 'the hash in either case');
  assert.equal(recent.get('https://example.com/a.mcpb', 'cd34'), undefined, 'another hash is another file');
  assert.equal(recent.get('https://example.com/b.mcpb', 'ab12'), undefined);
  now = 10 * 60_000 + 1;
  assert.equal(recent.get('https://example.com/a.mcpb', 'ab12'), undefined);
});

test('the two newest files are kept, the oldest let go', () => {
  const recent = new RecentBundles();
  for (const name of ['a', 'b', 'c']) recent.keep(`https://example.com/${name}.mcpb`, name, bytes(name));
  assert.equal(recent.get('https://example.com/a.mcpb', 'a'), undefined);
  assert.deepEqual(recent.get('https://example.com/b.mcpb', 'b'), bytes('b'));
  assert.deepEqual(recent.get('https://example.com/c.mcpb', 'c'), bytes('c'));
});
