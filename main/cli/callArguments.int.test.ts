// `atrium call` with arguments that do not fit the tool, as a person types them, against the real
// server-everything: every problem is named at once, by argument, with the description the tool gives
// it, and the server never sees the call.

import assert from 'node:assert/strict';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { runAtriumCli } from '../../e2e/fixtures/atriumCliProcess.ts';
import { everythingServerPath, makeTempDir } from '../../e2e/fixtures/hostHarness.ts';
import { approveServers } from '../../e2e/fixtures/approvedServers.ts';

describe('atrium call with arguments that do not fit', () => {
  let home: string;
  before(async () => {
    home = await makeTempDir('atrium-call-arguments-');
    await writeFile(join(home, 'servers.json'), JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [everythingServerPath(), 'stdio'] } } }));
    await approveServers(home);
  });
  after(() => rm(home, { recursive: true, force: true }));

  test('every argument that does not fit is named, each with what the tool says it is', async () => {
    const { code, stdout, stderr } = await runAtriumCli(home, ['call', 'everything', 'get-sum', '{"a": "two"}']);
    assert.equal(code, 1, stderr);
    assert.equal(stdout, '');
    assert.match(stderr, /^atrium: everything: tool "get-sum" cannot take these arguments:\n {2}✗ a must be a number, not "two" — First number\n {2}✗ b is required — Second number$/m);
    assert.doesNotMatch(stderr, /MCP error|-32602|\n\s+at |\/properties\//, 'no protocol error, stack or schema path: the server never saw the call');
  });

  test('a call without its arguments is told which it needs', async () => {
    const { code, stderr } = await runAtriumCli(home, ['call', 'everything', 'get-sum']);
    assert.equal(code, 1);
    assert.match(stderr, /✗ a is required — First number\n {2}✗ b is required — Second number$/m);
  });
});
