import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolSummary } from '../../shared/domain.ts';
import { describeFound } from './toolSearch.ts';

const readFile: ToolSummary = { serverId: 'fs', name: 'read_file', modelName: 'fs__read_file', description: 'Read a file from disk', inputSchema: { type: 'object' }, enabled: true };

test('the model is told what it can call now', () => {
  assert.match(describeFound([readFile]), /Loaded 1 tool\(s\); you can call them now:\n- fs__read_file: Read a file from disk/);
  assert.match(describeFound([]), /No tool matches/);
});
