import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildToolNameTable } from './toolNames.ts';

const VALID_FOR_BOTH_PROVIDERS = /^[a-zA-Z0-9_-]{1,64}$/;

test('plain server__tool names when they are valid and unambiguous', () => {
  const table = buildToolNameTable([{ serverId: 'github', tool: 'create_issue' }, { serverId: 'fs', tool: 'read_file' }]);
  assert.equal(table.modelNameOf('github', 'create_issue'), 'github__create_issue');
  assert.deepEqual(table.byModelName.get('fs__read_file'), { serverId: 'fs', tool: 'read_file' });
});

test('every name is valid for Anthropic and OpenAI, unique, and maps back to its (server, tool)', () => {
  const refs = [
    { serverId: 'my server', tool: 'do.thing' },
    { serverId: 'a__b', tool: 'c' },
    { serverId: 'a', tool: 'b__c' },
    { serverId: 'émoji🙂', tool: 'tool/with/slashes' },
    { serverId: 'x'.repeat(80), tool: 'y'.repeat(80) },
    { serverId: 'x'.repeat(80), tool: `${'y'.repeat(80)}z` },
    { serverId: 'same', tool: 'search' },
    { serverId: 'other', tool: 'search' },
  ];
  const table = buildToolNameTable(refs);
  const names = refs.map((r) => table.modelNameOf(r.serverId, r.tool));
  assert.equal(new Set(names).size, refs.length);
  for (const [i, name] of names.entries()) {
    assert.ok(name && VALID_FOR_BOTH_PROVIDERS.test(name), `invalid name ${name}`);
    assert.deepEqual(table.byModelName.get(name), refs[i]);
  }
});

test('a name does not depend on which other servers are connected', () => {
  const alone = buildToolNameTable([{ serverId: 'my server', tool: 'go' }]);
  const crowded = buildToolNameTable([{ serverId: 'z', tool: 'q' }, { serverId: 'my server', tool: 'go' }, { serverId: 'a', tool: 'b' }]);
  assert.equal(alone.modelNameOf('my server', 'go'), crowded.modelNameOf('my server', 'go'));
});
