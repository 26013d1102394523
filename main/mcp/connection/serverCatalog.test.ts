import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Tool } from '@modelcontextprotocol/client';
import { emptyCatalog, setList, toolNamed } from './serverCatalog.ts';

const tool = (name: string, description: string): Tool => ({ name, description, inputSchema: { type: 'object' } });

test('a tool is found by name in the list as it is now: a list that changed is looked up afresh', () => {
  const catalog = emptyCatalog();
  assert.equal(toolNamed(catalog, 'read'), undefined);
  setList(catalog, 'tools', [tool('read', 'first'), tool('write', 'writes'), tool('read', 'second')]);
  assert.equal(toolNamed(catalog, 'read')?.description, 'first', 'the first of a name, as a search from the start finds it');
  assert.equal(toolNamed(catalog, 'write')?.description, 'writes');
  setList(catalog, 'tools', [tool('fresh', 'added by list_changed')]);
  assert.equal(toolNamed(catalog, 'fresh')?.description, 'added by list_changed');
  assert.equal(toolNamed(catalog, 'read'), undefined);
});
