import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ToolSummary } from '../../shared/domain.ts';
import { describeFound, searchTools } from './toolSearch.ts';

const tool = (serverId: string, name: string, description: string): ToolSummary => ({ serverId, name, modelName: `${serverId}__${name}`, description, inputSchema: { type: 'object' }, enabled: true });
const tools = [
  tool('github', 'create_issue', 'Open a new issue in a repository'),
  tool('github', 'list_issues', 'List issues of a repository'),
  tool('fs', 'read_file', 'Read a file from disk'),
  tool('weather', 'forecast', 'Weather forecast for a city'),
];

test('the search loads the best matches, at most as many as asked, and nothing for a query of no words', () => {
  assert.deepEqual(searchTools(tools, 'create issue').map((t) => t.name), ['create_issue', 'list_issues']);
  assert.deepEqual(searchTools(tools, 'weather in Lisbon').map((t) => t.name), ['forecast']);
  assert.equal(searchTools(tools, 'issue', 1).length, 1);
  assert.deepEqual(searchTools(tools, '?'), []);
});

test('the model is told what it can call now', () => {
  assert.match(describeFound([tools[2] as ToolSummary]), /Loaded 1 tool\(s\); you can call them now:\n- fs__read_file: Read a file from disk/);
  assert.match(describeFound([]), /No tool matches/);
});
