// MCP Apps on the command line: the CLI says which tools have a view, which are for their view only,
// and, after a call whose result has a view, where its page is; `atrium read` fetches that page.
import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { runAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { fixtureCommand } from '../../e2e/servers/launch.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';

let home: string;
const atrium = (...args: string[]) => runAtriumCli(home, args);

before(async () => {
  home = await makeTempDir('atrium-views-');
  await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { views: fixtureCommand('appViewServer') } }));
  await approveServers(home);
});
after(() => rm(home, { recursive: true, force: true }));

test('tools --search never finds a tool for its view only: the model’s search does not offer it', async () => {
  const { code, stdout, stderr } = await atrium('tools', '--search', 'refresh the chart', '--json');
  assert.equal(code, 0, stderr);
  const found = (JSON.parse(stdout) as { modelName: string }[]).map((hit) => hit.modelName);
  assert.ok(found.includes('views__show_chart'), found.join(', '));
  assert.ok(!found.includes('views__refresh_chart'), found.join(', '));
});

test('atrium tools names each tool’s view, and says which tool is for its view only', async () => {
  const { code, stdout, stderr } = await atrium('tools');
  assert.equal(code, 0, stderr);
  assert.match(stdout, /views \/ show_chart[^\n]*\n[^\n]*\n {4}view: ui:\/\/charts\/view\.html/);
  assert.match(stdout, /views \/ refresh_chart[\s\S]*?for its view only: not offered to the model/);
  assert.doesNotMatch((stdout.split('views / plain_sum')[1] ?? '').split('\nviews / ')[0] ?? '', /view:/);
});

test('a call whose result has a view says so, with the command that reads its page; atrium read prints it', async () => {
  const call = await atrium('call', 'views', 'show_chart', '{}');
  assert.equal(call.code, 0, call.stderr);
  assert.match(call.stdout, /A chart of 3 numbers\./);
  assert.match(call.stdout, /This result has a view, ui:\/\/charts\/view\.html; to read its page: atrium read views ui:\/\/charts\/view\.html/);
  const json = await atrium('call', 'views', 'show_chart', '{}', '--json');
  assert.deepEqual((JSON.parse(json.stdout) as { structuredContent: unknown }).structuredContent, { points: [1, 2, 3] }, 'with --json, standard output is the result only');
  assert.match(json.stderr, /This result has a view/);
  const plain = await atrium('call', 'views', 'plain_sum', '{}');
  assert.doesNotMatch(plain.stdout, /view/);
  const read = await atrium('read', 'views', 'ui://charts/view.html');
  assert.equal(read.code, 0, read.stderr);
  assert.match(read.stdout, /<h1>Chart<\/h1>/);
});
